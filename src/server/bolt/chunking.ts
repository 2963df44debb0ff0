/**
 * Bolt's message framing: each message travels as chunks (a 16-bit big-endian size, then
 * that many bytes) ended by a zero-size chunk. `ChunkReader` joins incoming bytes into whole
 * messages and refuses one larger than the message size limit (as soon as it is exceeded,
 * not once it has all arrived); `chunked` frames an outgoing message.
 */

const MAX_CHUNK = 0xffff;

export type ChunkEvent = { kind: 'message'; bytes: Buffer } | { kind: 'tooLarge' };

export class ChunkReader {
  private pending: Buffer = Buffer.alloc(0);
  private parts: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxMessageBytes: number) {}

  /** The whole messages `chunk` completes (in order); stops at the first one over the limit. */
  push(chunk: Buffer): ChunkEvent[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const events: ChunkEvent[] = [];
    let pos = 0;
    while (this.pending.length - pos >= 2) {
      const n = this.pending.readUInt16BE(pos);
      if (n === 0) {
        pos += 2;
        // A zero chunk with nothing before it is a keep-alive (NOOP), not a message.
        if (this.parts.length > 0) events.push({ kind: 'message', bytes: Buffer.concat(this.parts, this.size) });
        this.parts = [];
        this.size = 0;
        continue;
      }
      if (this.size + n > this.maxMessageBytes) {
        events.push({ kind: 'tooLarge' });
        this.pending = Buffer.alloc(0);
        return events;
      }
      if (this.pending.length - pos < 2 + n) break;
      this.parts.push(this.pending.subarray(pos + 2, pos + 2 + n));
      this.size += n;
      pos += 2 + n;
    }
    this.pending = this.pending.subarray(pos);
    return events;
  }
}

/** `message` framed as chunks with the end marker. */
export function chunked(message: Buffer): Buffer {
  const pieces = Math.max(1, Math.ceil(message.length / MAX_CHUNK));
  const out = Buffer.allocUnsafe(message.length + pieces * 2 + 2);
  let at = 0;
  for (let from = 0; from < message.length; from += MAX_CHUNK) {
    const n = Math.min(MAX_CHUNK, message.length - from);
    out.writeUInt16BE(n, at);
    message.copy(out, at + 2, from, from + n);
    at += 2 + n;
  }
  out.writeUInt16BE(0, at);
  return out.subarray(0, at + 2);
}
