/**
 * Cuts the byte stream a client sends into protocol messages. Before start-up completes,
 * messages have no type byte (StartupMessage, SSLRequest, GSSENCRequest, CancelRequest);
 * after it, each is a type byte and a 32-bit length that counts itself. Lengths are checked
 * before anything is buffered, so a client announcing a huge message is refused at once
 * rather than after filling memory. Chunks are kept as a list and joined once per message,
 * so a large message arriving in many pieces is copied only once.
 */

import { PgProtocolError, SqlState } from './errors.js';

/** One frontend message: `type` is null for the untyped start-up forms. */
export interface Frame {
  type: string | null;
  body: Buffer;
}

export interface FrameLimits {
  /** Largest typed message (type byte excluded), in bytes. */
  maxMessageBytes: number;
  /** Largest start-up packet, in bytes (PostgreSQL allows 10000). */
  maxStartupBytes: number;
}

export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Whether the next messages carry a type byte. */
  typed = false;

  constructor(private readonly limits: FrameLimits) {}

  /** Bytes received but not yet returned as messages. */
  get pendingBytes(): number {
    return this.buffered;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
  }

  /** The next complete message, or undefined until more bytes arrive; throws on a bad length. */
  next(): Frame | undefined {
    const headerSize = this.typed ? 5 : 4;
    if (this.buffered < headerSize) return undefined;
    const header = this.peek(headerSize);
    const type = this.typed ? String.fromCharCode(header[0]) : null;
    const length = header.readInt32BE(this.typed ? 1 : 0);
    if (this.typed) {
      if (length < 4) throw new PgProtocolError(`invalid message length ${length} for message type '${printable(header[0])}'`);
      if (length - 4 > this.limits.maxMessageBytes) {
        throw new PgProtocolError(
          `message of ${length} bytes is larger than the limit of ${this.limits.maxMessageBytes} bytes`,
          SqlState.programLimitExceeded,
        );
      }
    } else if (length < 8 || length > this.limits.maxStartupBytes) {
      throw new PgProtocolError(`invalid length of startup packet: ${length}`);
    }
    const total = (this.typed ? 1 : 0) + length;
    if (this.buffered < total) return undefined;
    const whole = this.take(total);
    return { type, body: whole.subarray(headerSize) };
  }

  /** The first `n` buffered bytes, without consuming them. */
  private peek(n: number): Buffer {
    if (this.chunks[0].length >= n) return this.chunks[0];
    const joined = Buffer.concat(this.chunks);
    this.chunks = [joined];
    return joined;
  }

  /** Removes and returns the first `n` buffered bytes. */
  private take(n: number): Buffer {
    let out: Buffer;
    const first = this.chunks[0];
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      const parts: Buffer[] = [];
      let need = n;
      while (need > 0) {
        const c = this.chunks[0];
        if (c.length <= need) {
          parts.push(c);
          this.chunks.shift();
          need -= c.length;
        } else {
          parts.push(c.subarray(0, need));
          this.chunks[0] = c.subarray(need);
          need = 0;
        }
      }
      out = Buffer.concat(parts, n);
    }
    this.buffered -= n;
    return out;
  }
}

function printable(byte: number): string {
  return byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`;
}
