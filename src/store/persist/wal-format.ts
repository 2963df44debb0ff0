/**
 * The byte layout of `graphdb.wal`, shared by its writer and reader.
 *
 * File: the 8-byte magic `GDBWAL01`, then records back to back. Record:
 *
 * | bytes | field                                                         |
 * |-------|---------------------------------------------------------------|
 * | 0-3   | payload length L, unsigned 32-bit little-endian               |
 * | 4-7   | CRC-32 of bytes 0-3, 8-15 and the payload                     |
 * | 8-15  | sequence number, unsigned 64-bit little-endian (1, 2, 3, …)   |
 * | 16-   | payload: L bytes of UTF-8 JSON, one committed transaction     |
 *
 * The file may go on past its last record with zeros: space the writer takes ahead so that
 * an fsync need not record a new file size. Where only zeros remain, the log ends.
 */

import { crc32, crc32Range } from './crc32.js';

export const WAL_MAGIC = Buffer.from('GDBWAL01', 'latin1');
export const RECORD_HEADER_SIZE = 16;
/** Larger payloads are not plausible (V8 strings stop near 512 MiB); a header claiming more is damage. */
export const MAX_PAYLOAD = 512 * 1024 * 1024;

/** A sequence number as a uint64 LE at `at`, written as two 32-bit halves (no BigInt per record or per fsync). */
export function writeSeq(out: Buffer, seq: number, at: number): void {
  out.writeUInt32LE(seq % 0x1_0000_0000, at);
  out.writeUInt32LE(Math.floor(seq / 0x1_0000_0000), at + 4);
}

function checksum(header: Uint8Array, payload: Uint8Array): number {
  return crc32(payload, crc32(header.subarray(8, 16), crc32(header.subarray(0, 4))));
}

/**
 * Frames one record into `out` at `at`: `payload` is its text and `length` that text's UTF-8
 * byte length (`Buffer.byteLength`), for which `out` has room after the header. Returns the
 * offset after it. The text is encoded straight into place, and the checksum is taken over
 * bytes 0-3 and then 8 to the end in one go (the same CRC as header and payload apart).
 */
export function encodeRecordInto(out: Buffer, at: number, seq: number, payload: string, length: number): number {
  const end = at + RECORD_HEADER_SIZE + length;
  out.writeUInt32LE(length, at);
  writeSeq(out, seq, at + 8);
  if (out.write(payload, at + RECORD_HEADER_SIZE, length, 'utf8') !== length) throw new Error('a WAL payload did not fit its measured length');
  out.writeUInt32LE(crc32Range(out, at + 8, end, crc32Range(out, at, at + 4)), at + 4);
  return end;
}

/** The framed bytes of one record. */
export function encodeRecord(seq: number, payload: string): Buffer {
  const length = Buffer.byteLength(payload, 'utf8');
  const out = Buffer.allocUnsafe(RECORD_HEADER_SIZE + length);
  encodeRecordInto(out, 0, seq, payload, length);
  return out;
}

export interface RecordHeader {
  length: number;
  crc: number;
  seq: number;
}

export function readHeader(header: Buffer): RecordHeader {
  const seq = header.readBigUInt64LE(8);
  return {
    length: header.readUInt32LE(0),
    crc: header.readUInt32LE(4),
    seq: seq > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(seq),
  };
}

export function checksumMatches(header: Buffer, payload: Buffer): boolean {
  return checksum(header, payload) === header.readUInt32LE(4);
}
