/**
 * A raw Bolt client for the tests of what drivers never send (RESET timing, bad handshakes,
 * malformed and oversized messages): whole messages in and out over a plain socket, encoded
 * with the server's own PackStream module.
 */

import { connect, type Socket } from 'node:net';
import { expect } from 'vitest';
import { chunked } from '../../src/server/bolt/chunking.js';
import { Packer, type PackValue, Structure, unpack } from '../../src/server/bolt/packstream.js';

export const MAGIC = [0x60, 0x60, 0xb0, 0x17];
/** Offers 5.8 down to 5.0, then nothing else. */
export const OFFER_5 = Buffer.from([...MAGIC, 0, 8, 8, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

export function message(tag: number, ...fields: PackValue[]): Buffer {
  const p = new Packer();
  p.pack(new Structure(tag, fields));
  return chunked(p.take());
}

export const map = (o: Record<string, PackValue>): Map<string, PackValue> => new Map(Object.entries(o));

/** A raw Bolt connection that reads whole messages. */
export class RawBolt {
  private buf = Buffer.alloc(0);
  private waiting: (() => void) | undefined;
  closed = false;
  /** Reads that brought bytes: how many pieces the server's answers came in. */
  reads = 0;
  private constructor(private readonly socket: Socket) {
    socket.on('data', (d: Buffer) => {
      this.reads++;
      this.buf = Buffer.concat([this.buf, d]);
      this.waiting?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiting?.();
    });
  }

  static open(port: number): Promise<RawBolt> {
    return new Promise((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => resolve(new RawBolt(s)));
      s.on('error', reject);
    });
  }

  write(b: Buffer): void {
    this.socket.write(b);
  }

  private async bytes(n: number, timeoutMs: number): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    while (this.buf.length < n) {
      if (this.closed) throw new Error('closed');
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise<void>((r) => {
        this.waiting = r;
        setTimeout(r, 50);
      });
    }
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  async version(): Promise<number[]> {
    return [...(await this.bytes(4, 5000))];
  }

  /** The next message as its signature and first field. */
  async next(timeoutMs = 5000): Promise<Structure> {
    const parts: Buffer[] = [];
    for (;;) {
      const n = (await this.bytes(2, timeoutMs)).readUInt16BE(0);
      if (n === 0) break;
      parts.push(Buffer.from(await this.bytes(n, timeoutMs)));
    }
    return unpack(Buffer.concat(parts)) as Structure;
  }

  close(): void {
    this.socket.destroy();
  }
}

export const SUCCESS = 0x70;
export const RECORD = 0x71;
export const IGNORED = 0x7e;
export const FAILURE = 0x7f;

/** A connection through the handshake (5.8), HELLO and LOGON with `key`. */
export async function rawLoggedIn(port: number, key: string): Promise<RawBolt> {
  const c = await RawBolt.open(port);
  c.write(OFFER_5);
  expect(await c.version()).toEqual([0, 0, 8, 5]);
  c.write(message(0x01, map({ user_agent: 'raw-test/1' })));
  expect((await c.next()).tag).toBe(SUCCESS);
  c.write(message(0x6a, map({ scheme: 'basic', principal: 'x', credentials: key })));
  expect((await c.next()).tag).toBe(SUCCESS);
  return c;
}
