/**
 * The PG server at the byte level, over raw sockets: start-up forms (SSLRequest refused
 * with 'N', bad protocol versions), Extended Query details drivers rarely show (Describe of
 * a statement, row limits and PortalSuspended, skipping to Sync after an error), and hostile
 * input — garbage bytes, half messages, oversized lengths, invalid UTF-8, random message
 * streams — after which the server must still serve other clients.
 */

import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import pg from 'pg';
import { Database } from '../../src/engine/database.js';
import { startPgServer, type PgServer } from '../../src/server/pg/index.js';

interface Msg {
  type: string;
  body: Buffer;
}

/** A raw protocol client: writes bytes, collects the server's messages. */
class RawClient {
  private buf = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  readonly messages: Msg[] = [];
  closed = false;
  /** Bytes before the first typed message (the answer to an SSLRequest). */
  private untypedBytes = 0;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.parse();
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static open(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => resolve(new RawClient(s)));
      s.once('error', reject);
    });
  }

  /** Expect `n` single unframed bytes next (the SSLRequest answer). */
  expectUntyped(n: number): void {
    this.untypedBytes += n;
  }

  private parse(): void {
    for (;;) {
      if (this.untypedBytes > 0) {
        if (this.buf.length === 0) return;
        this.messages.push({ type: `raw:${String.fromCharCode(this.buf[0])}`, body: Buffer.alloc(0) });
        this.buf = this.buf.subarray(1);
        this.untypedBytes--;
        continue;
      }
      if (this.buf.length < 5) return;
      const len = this.buf.readInt32BE(1);
      if (this.buf.length < 1 + len) return;
      this.messages.push({ type: String.fromCharCode(this.buf[0]), body: this.buf.subarray(5, 1 + len) });
      this.buf = this.buf.subarray(1 + len);
    }
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  write(b: Buffer): void {
    this.socket.write(b);
  }

  /** Waits until `pred` holds for the messages so far, or the socket closes, or 5 s pass. */
  async until(pred: (m: Msg[]) => boolean): Promise<Msg[]> {
    const deadline = Date.now() + 5000;
    while (!pred(this.messages) && !this.closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
    return this.messages;
  }

  untilReady(): Promise<Msg[]> {
    const start = this.messages.length;
    return this.until((m) => m.slice(start).some((x) => x.type === 'Z'));
  }

  untilClosed(): Promise<Msg[]> {
    return this.until(() => false);
  }

  end(): void {
    this.socket.destroy();
  }
}

const cstr = (s: string): Buffer => Buffer.concat([Buffer.from(s, 'utf8'), Buffer.from([0])]);
const int16 = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const typed = (type: string, ...parts: Buffer[]): Buffer => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from(type), int32(body.length + 4), body]);
};
const startup = (params: Record<string, string> = { user: 'raw', database: 'graphdb' }, version = 196608): Buffer => {
  const body = Buffer.concat([int32(version), ...Object.entries(params).flatMap(([k, v]) => [cstr(k), cstr(v)]), Buffer.from([0])]);
  return Buffer.concat([int32(body.length + 4), body]);
};
const query = (q: string): Buffer => typed('Q', cstr(q));
const sync = (): Buffer => typed('S');
const errorCode = (m: Msg): string | undefined => {
  let i = 0;
  while (i < m.body.length && m.body[i] !== 0) {
    const field = String.fromCharCode(m.body[i]);
    const end = m.body.indexOf(0, i + 1);
    if (field === 'C') return m.body.subarray(i + 1, end).toString();
    i = end + 1;
  }
  return undefined;
};
const types = (ms: Msg[]): string => ms.map((m) => m.type).join('');

let db: Database;
let server: PgServer;

async function started(): Promise<RawClient> {
  const c = await RawClient.open(server.port);
  c.write(startup());
  await c.untilReady();
  return c;
}

/** A fresh pg client must still get an answer: the server survived. */
async function stillServing(): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'check', database: 'graphdb' });
  await client.connect();
  try {
    expect((await client.query('RETURN 7 AS seven')).rows).toEqual([{ seven: '7' }]);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  db = Database.openInMemory();
  await db.execute('UNWIND range(1, 10) AS i CREATE (:N {i: i})');
  server = await startPgServer(db, { port: 0, maxMessageBytes: 64 * 1024, log: null });
});

afterAll(async () => {
  await server.close();
});

describe('start-up', () => {
  it('refuses SSL with N, then accepts a plain start-up with parameter status and key data', async () => {
    const c = await RawClient.open(server.port);
    c.expectUntyped(1);
    c.write(Buffer.concat([int32(8), int32(80877103)]));
    await c.until((m) => m.length >= 1);
    expect(c.messages[0].type).toBe('raw:N');
    c.write(startup());
    const ms = await c.untilReady();
    expect(types(ms)).toMatch(/^raw:NR(S)+KZ$/);
    const statuses = ms.filter((m) => m.type === 'S').map((m) => m.body.toString().split('\0')[0]);
    expect(statuses).toEqual(expect.arrayContaining(['server_version', 'client_encoding', 'DateStyle', 'integer_datetimes', 'standard_conforming_strings']));
    c.end();
  });

  it('refuses an unknown protocol version and a missing user', async () => {
    const v2 = await RawClient.open(server.port);
    v2.write(startup({ user: 'x' }, 2 << 16));
    const a = await v2.untilClosed();
    expect(a.map(errorCode)).toContain('0A000');
    const noUser = await RawClient.open(server.port);
    noUser.write(startup({ database: 'graphdb' }));
    const b = await noUser.untilClosed();
    expect(b.map(errorCode)).toContain('28000');
  });
});

describe('extended query at the byte level', () => {
  it('describes a statement (parameters and columns) and pages a portal with PortalSuspended', async () => {
    const c = await started();
    const start = c.messages.length;
    c.write(
      Buffer.concat([
        typed('P', cstr('s1'), cstr('MATCH (n:N) WHERE n.i > $1 RETURN n.i AS i ORDER BY i'), int16(0)),
        typed('D', Buffer.from('S'), cstr('s1')),
        typed('B', cstr('p1'), cstr('s1'), int16(0), int16(1), int32(1), Buffer.from('6'), int16(0)),
        typed('E', cstr('p1'), int32(3)),
        typed('E', cstr('p1'), int32(3)),
        typed('C', Buffer.from('S'), cstr('s1')),
        sync(),
      ]),
    );
    const ms = (await c.untilReady()).slice(start);
    expect(types(ms)).toBe('1tT2DDDsDC3Z');
    const complete = ms.find((m) => m.type === 'C');
    expect(complete?.body.toString()).toBe('SELECT 1\0');
    c.end();
  });

  it('skips messages after an error until Sync, then serves again', async () => {
    const c = await started();
    const start = c.messages.length;
    c.write(
      Buffer.concat([
        typed('P', cstr(''), cstr('MATCH (n RETURN n'), int16(0)),
        typed('B', cstr(''), cstr(''), int16(0), int16(0), int16(0)),
        typed('E', cstr(''), int32(0)),
        sync(),
        query('RETURN 1 AS one'),
      ]),
    );
    await c.until((m) => m.slice(start).filter((x) => x.type === 'Z').length >= 2);
    const ms = c.messages.slice(start);
    expect(types(ms)).toBe('EZTDCZ');
    expect(errorCode(ms[0])).toBe('42000');
    c.end();
  });

  it('answers an empty query and refuses two statements in one Parse', async () => {
    const c = await started();
    const start = c.messages.length;
    c.write(Buffer.concat([query('  ;  '), typed('P', cstr(''), cstr('RETURN 1; RETURN 2'), int16(0)), sync()]));
    await c.until((m) => m.slice(start).filter((x) => x.type === 'Z').length >= 2);
    const ms = c.messages.slice(start);
    expect(types(ms)).toBe('IZEZ');
    expect(errorCode(ms[2])).toBe('42601');
    c.end();
  });
});

describe('hostile input', () => {
  it('closes a connection that sends garbage instead of a start-up packet', async () => {
    const c = await RawClient.open(server.port);
    c.write(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    await c.untilClosed();
    expect(c.closed).toBe(true);
    await stillServing();
  });

  it('closes a connection that sends an unknown message type, with 08P01', async () => {
    const c = await started();
    c.write(typed('~', Buffer.from('junk')));
    const ms = await c.untilClosed();
    expect(c.closed).toBe(true);
    expect(errorCode(ms[ms.length - 1])).toBe('08P01');
    await stillServing();
  });

  it('refuses an oversized message before reading it (54000)', async () => {
    const c = await started();
    c.write(Buffer.concat([Buffer.from('Q'), int32(1 << 30)]));
    const ms = await c.untilClosed();
    expect(errorCode(ms[ms.length - 1])).toBe('54000');
    await stillServing();
  });

  it('keeps serving while a client sits on half a message', async () => {
    const c = await started();
    c.write(Buffer.concat([Buffer.from('Q'), int32(100), Buffer.from('RETURN')]));
    await stillServing();
    c.end();
  });

  it('answers invalid UTF-8 with 22021 and keeps the connection', async () => {
    const c = await started();
    const start = c.messages.length;
    c.write(typed('Q', Buffer.from([0x52, 0xff, 0xfe, 0x00])));
    await c.untilReady();
    expect(errorCode(c.messages[start])).toBe('22021');
    c.write(query('RETURN 3 AS three'));
    await c.untilReady();
    expect(types(c.messages.slice(start))).toBe('EZTDCZ');
    c.end();
  });

  it('refuses absurd parameter numbers and lengths without allocating them', async () => {
    const c = await started();
    const start = c.messages.length;
    c.write(Buffer.concat([typed('P', cstr(''), cstr('RETURN $99999999999 AS x'), int16(0)), sync()]));
    await c.untilReady();
    expect(errorCode(c.messages[start])).toBe('54000');
    c.write(typed('B', cstr(''), cstr(''), int16(0), int16(1), int32(1 << 20)));
    const ms = await c.untilClosed();
    expect(errorCode(ms[ms.length - 1])).toBe('08P01');
    await stillServing();
  });

  it('survives random byte streams, before and after start-up', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 5 }), async (afterStartup, chunks) => {
        const c = afterStartup ? await started() : await RawClient.open(server.port);
        for (const chunk of chunks) c.write(Buffer.from(chunk));
        await new Promise((r) => setTimeout(r, 5));
        c.end();
      }),
      { numRuns: 60 },
    );
    await stillServing();
  });

  it('survives random sequences of well-framed messages', async () => {
    const messageType = fc.constantFrom('Q', 'P', 'B', 'D', 'E', 'C', 'S', 'H', 'F', 'd', 'p', 'z');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(messageType, fc.uint8Array({ maxLength: 40 })), { maxLength: 8 }), async (msgs) => {
        const c = await started();
        c.write(Buffer.concat([...msgs.map(([t, body]) => typed(t, Buffer.from(body))), sync()]));
        await c.until((m) => c.closed || m.filter((x) => x.type === 'Z').length >= 2);
        c.end();
      }),
      { numRuns: 60 },
    );
    await stillServing();
  });
});
