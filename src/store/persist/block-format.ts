/**
 * The envelope of every binary block the store of record keeps (`graphdb.lmdb`, sub-database
 * `blocks`): a 24-byte header and a payload, with a CRC-32 over both, so that a damaged
 * block is reported, never loaded. Also a small cursor pair (`BlockWriter`/`BlockReader`)
 * for the payloads: little-endian integers, typed arrays copied byte for byte, and JSON.
 *
 * | bytes | field |
 * |---|---|
 * | 0-3 | magic `GDBK` |
 * | 4-5 | format version of the payload (uint16) |
 * | 6-7 | block kind (uint16: meta, nodes, rels, node property, rel property) |
 * | 8-11 | number of ids the block covers (uint32) |
 * | 12-15 | first id it covers (uint32) |
 * | 16-19 | payload length (uint32) |
 * | 20-23 | CRC-32 (IEEE) over bytes 0-19 and the payload |
 *
 * A reader that finds any field wrong throws `BlockDamage` with the reason; the store turns
 * it into a StorageError naming the file and the key.
 */

import { crc32 } from './crc32.js';

export const BLOCK_MAGIC = 0x4b424447; // 'GDBK' read as uint32 LE
export const BLOCK_VERSION = 1;
export const BLOCK_HEADER_SIZE = 24;

export const enum BlockKind {
  Meta = 1,
  Nodes = 2,
  Rels = 3,
  NodeProps = 4,
  RelProps = 5,
}

export interface BlockHeader {
  kind: BlockKind;
  count: number;
  firstId: number;
}

/** A block that fails a check: the reason, for the error message. */
export class BlockDamage extends Error {}

/** `payload` in its envelope. */
export function sealBlock(header: BlockHeader, payload: Uint8Array): Buffer {
  const block = Buffer.allocUnsafe(BLOCK_HEADER_SIZE + payload.length);
  block.writeUInt32LE(BLOCK_MAGIC, 0);
  block.writeUInt16LE(BLOCK_VERSION, 4);
  block.writeUInt16LE(header.kind, 6);
  block.writeUInt32LE(header.count, 8);
  block.writeUInt32LE(header.firstId, 12);
  block.writeUInt32LE(payload.length, 16);
  block.set(payload, BLOCK_HEADER_SIZE);
  block.writeUInt32LE(blockChecksum(block), 20);
  return block;
}

function blockChecksum(block: Uint8Array): number {
  return crc32(block.subarray(BLOCK_HEADER_SIZE), crc32(block.subarray(0, 20)));
}

/** Checks a block's envelope and returns its header and payload; throws `BlockDamage`. */
export function openBlock(block: Uint8Array, expected: BlockKind): BlockHeader & { payload: Buffer } {
  if (block.length < BLOCK_HEADER_SIZE) throw new BlockDamage(`it is ${block.length} bytes, shorter than a block header`);
  const buf = Buffer.from(block.buffer, block.byteOffset, block.length);
  if (buf.readUInt32LE(0) !== BLOCK_MAGIC) throw new BlockDamage('it does not start with the block marker');
  const version = buf.readUInt16LE(4);
  if (version !== BLOCK_VERSION) throw new BlockDamage(`its format version is ${version} (this graphdb reads ${BLOCK_VERSION})`);
  const length = buf.readUInt32LE(16);
  if (length !== buf.length - BLOCK_HEADER_SIZE) throw new BlockDamage(`its header gives ${length} payload bytes but it holds ${buf.length - BLOCK_HEADER_SIZE}`);
  if (buf.readUInt32LE(20) !== blockChecksum(buf)) throw new BlockDamage('its checksum does not match its content');
  const kind = buf.readUInt16LE(6) as BlockKind;
  if (kind !== expected) throw new BlockDamage(`it is a block of kind ${kind} where kind ${expected} belongs`);
  return { kind, count: buf.readUInt32LE(8), firstId: buf.readUInt32LE(12), payload: buf.subarray(BLOCK_HEADER_SIZE) };
}

/** The CRC field of a sealed block (what the meta's manifest records for it). */
export function blockCrc(block: Uint8Array): number {
  return Buffer.from(block.buffer, block.byteOffset, block.length).readUInt32LE(20);
}

/** Appends payload fields; typed arrays go in as their bytes, 8-byte aligned. */
export class BlockWriter {
  private parts: Uint8Array[] = [];
  private length = 0;

  u32(value: number): void {
    const b = Buffer.allocUnsafe(4);
    b.writeUInt32LE(value >>> 0, 0);
    this.push(b);
  }

  /** A typed array's bytes (length is the caller's to record), padded to 8 bytes. */
  array(values: Int32Array | Uint32Array | Float64Array): void {
    this.push(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
    this.pad();
  }

  json(value: unknown): void {
    this.jsonText(JSON.stringify(value));
  }

  /** Raw bytes, after their length. */
  bytes(bytes: Uint8Array): void {
    this.u32(bytes.length);
    this.push(bytes);
    this.pad();
  }

  /** JSON the caller has already written as text. */
  jsonText(text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    this.u32(bytes.length);
    this.push(bytes);
    this.pad();
  }

  finish(): Buffer {
    return Buffer.concat(this.parts, this.length);
  }

  private pad(): void {
    const extra = (8 - (this.length & 7)) & 7;
    if (extra > 0) this.push(new Uint8Array(extra));
  }

  private push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.length += bytes.length;
  }
}

/** Reads what `BlockWriter` wrote, checking every length against the payload. */
export class BlockReader {
  private at = 0;

  constructor(private readonly buf: Buffer) {}

  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.at);
    this.at += 4;
    return v;
  }

  /** `length` entries copied into `into` (a fresh array the caller owns). */
  array<T extends Int32Array | Uint32Array | Float64Array>(into: T): T {
    const bytes = into.byteLength;
    this.need(bytes);
    new Uint8Array(into.buffer, into.byteOffset, bytes).set(this.buf.subarray(this.at, this.at + bytes));
    this.at += bytes;
    this.align();
    return into;
  }

  /** What `BlockWriter.bytes` wrote: a view of the payload (valid while it is). */
  bytes(): Uint8Array {
    const n = this.u32();
    this.need(n);
    const out = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    this.align();
    return out;
  }

  /** The next u32, without reading past it. */
  peekU32(): number {
    this.need(4);
    return this.buf.readUInt32LE(this.at);
  }

  json(): unknown {
    const n = this.u32();
    this.need(n);
    const text = this.buf.toString('utf8', this.at, this.at + n);
    this.at += n;
    this.align();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new BlockDamage('it holds unreadable JSON');
    }
  }

  /** Every byte read: trailing bytes mean the block is not what its header says. */
  end(): void {
    if (this.at !== this.buf.length) throw new BlockDamage(`it has ${this.buf.length - this.at} unexpected trailing bytes`);
  }

  private align(): void {
    this.at = Math.min(this.buf.length, (this.at + 7) & ~7);
  }

  private need(n: number): void {
    if (n < 0 || this.at + n > this.buf.length) throw new BlockDamage('it is shorter than its content requires');
  }
}
