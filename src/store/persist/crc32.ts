/**
 * CRC-32 (the IEEE polynomial, as zip and PNG use it) of byte ranges: the WAL's record
 * checksum. Uses node:zlib's native `crc32` when the Node version has it (20.15+), and a
 * small table-driven version otherwise; both give identical results.
 */

import * as zlib from 'node:zlib';

type Crc32Fn = (data: Uint8Array, initial?: number) => number;

let table: Uint32Array | undefined;

function crcTable(): Uint32Array {
  if (table) return table;
  table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

/** The portable version; exported for the test that checks it against zlib's. */
export function crc32Portable(data: Uint8Array, initial = 0): number {
  const t = crcTable();
  let crc = ~initial >>> 0;
  for (let i = 0; i < data.length; i++) crc = t[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return ~crc >>> 0;
}

const native = (zlib as { crc32?: Crc32Fn }).crc32;

/** CRC-32 of `data`, continuing from `initial` (the CRC of the bytes before it). */
export const crc32: Crc32Fn = native ? (data, initial = 0) => native(data, initial) : crc32Portable;

/** Below this many bytes a loop here beats the call into zlib (and the subarray it needs). */
const SHORT_RANGE = 128;

/**
 * CRC-32 of `data[start, end)`, continuing from `initial`: a one-node WAL record is about a
 * hundred bytes, where crossing into native code costs more than the table walk.
 */
export function crc32Range(data: Uint8Array, start: number, end: number, initial = 0): number {
  if (end - start >= SHORT_RANGE) return crc32(data.subarray(start, end), initial);
  const t = crcTable();
  let crc = ~initial >>> 0;
  for (let i = start; i < end; i++) crc = t[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return ~crc >>> 0;
}
