/**
 * `graphdb.image`: the open image of a data directory. At a clean close the graph is
 * captured as a `GraphImage` (graph-image.ts: entity arrays, adjacency bases, typed property
 * columns, label and type sets, the other columns' property blocks) and its typed arrays are
 * written raw, each buffer once, with a CRC-32 per section; the next open reads them back onto
 * shared memory and builds the graph with `loadGraphImage`, the way a query worker's replica
 * is built — no block decoding, no counting sort of the adjacency, no set building.
 *
 * This module owns the file format and its checks; `DurableStore` decides when to write and
 * when to use it. The image is a cache of the store of record, never a source of truth: its
 * header names the store it was taken from (`StoreIdentity`: the meta's sequence number,
 * counters, key names and block manifest, hashed), and an image whose store identity is not
 * the store's now, or whose header or any section fails its checksum, is refused with a
 * StorageError `ImageDamaged`, and the open loads the store as it would without an image.
 *
 * Layout: `GDBIMG01`, header length (uint32 LE), header CRC-32 (uint32 LE), the header (UTF-8
 * JSON), then the sections, each starting at a multiple of 8 bytes. The header holds the store
 * identity, each section's offset, length and CRC, and the image's structure as JSON in which
 * a typed array is `{"$a": [section, byte offset in it, constructor, length]}` and a Map
 * `{"$m": entries}`. Views of one buffer (an adjacency base borrowing the end-node column, say)
 * come back as views of one buffer.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { StorageError } from '../../errors.js';
import { crc32 } from './crc32.js';
import { fsyncDir } from './fsync-dir.js';
import { readRanges } from './parallel-read.js';
import type { GraphImage } from './graph-image.js';
import type { StoreIdentity } from './record-store.js';

export const IMAGE_FILE = 'graphdb.image';
export const IMAGE_TMP_SUFFIX = '.tmp';
const MAGIC = 'GDBIMG01';
const VERSION = 1;
/** Sections are read and written in pieces of this size (fs calls take at most 2 GiB). */
const IO_CHUNK = 64 * 2 ** 20;

/** The typed arrays an image may hold, by the name the header gives them. */
const ARRAY_TYPES = { Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array } as const;
type ArrayTypeName = keyof typeof ARRAY_TYPES;
type AnyTypedArray = InstanceType<(typeof ARRAY_TYPES)[ArrayTypeName]>;

/** Which store an image was taken from: any checkpoint that writes the store changes it. */

interface SectionEntry {
  offset: number;
  bytes: number;
  crc: number;
}

interface ImageHeader {
  version: number;
  store: StoreIdentity;
  sections: SectionEntry[];
  structure: unknown;
}

export function imageDamaged(file: string, why: string): StorageError {
  return new StorageError(`The open image ${file} ${why}`, 'ImageDamaged');
}

function typeNameOf(array: AnyTypedArray): ArrayTypeName {
  const name = array.constructor.name;
  if (!(name in ARRAY_TYPES)) throw new StorageError(`The graph image holds a ${name}, which the open image cannot store`, 'ImageWriteFailed');
  return name as ArrayTypeName;
}

function isTypedArray(value: unknown): value is AnyTypedArray {
  return ArrayBuffer.isView(value) && !(value instanceof DataView);
}

/**
 * Writes `image` as the open image of `dir` for the store `store`: to a temporary file,
 * fsynced, renamed over `graphdb.image`, the directory fsynced. Returns the file's size.
 */
export function writeOpenImage(dir: string, image: GraphImage, store: StoreIdentity): number {
  // Each buffer once, covering the range its views use.
  const ranges = new Map<ArrayBufferLike, { from: number; to: number; index: number }>();
  const collect = (value: unknown): void => {
    if (isTypedArray(value)) {
      const range = ranges.get(value.buffer);
      // From a multiple of 8, so that every view keeps its alignment in the section read back.
      const from = value.byteOffset & ~7;
      const to = value.byteOffset + value.byteLength;
      if (range === undefined) ranges.set(value.buffer, { from, to, index: ranges.size });
      else {
        range.from = Math.min(range.from, from);
        range.to = Math.max(range.to, to);
      }
    } else if (value instanceof Map) {
      for (const entry of value) collect(entry);
    } else if (Array.isArray(value)) {
      for (const item of value) collect(item);
    } else if (value !== null && typeof value === 'object') {
      for (const item of Object.values(value)) collect(item);
    }
  };
  collect(image);
  const structure = JSON.stringify(image, function (this: unknown, _key: string, value: unknown): unknown {
    if (isTypedArray(value)) {
      const range = ranges.get(value.buffer)!;
      return { $a: [range.index, value.byteOffset - range.from, typeNameOf(value), value.length] };
    }
    if (value instanceof Map) return { $m: [...value.entries()] };
    return value;
  });
  const buffers = [...ranges.entries()].sort((a, b) => a[1].index - b[1].index);
  const sections: SectionEntry[] = [];
  // Offsets are relative to the first section; the header's length is not known until it is made.
  let at = 0;
  let end = 0;
  for (const [buffer, range] of buffers) {
    const bytes = new Uint8Array(buffer, range.from, range.to - range.from);
    sections.push({ offset: at, bytes: bytes.length, crc: crc32(bytes) });
    end = at + bytes.length;
    at = align8(end);
  }
  const header: ImageHeader = { version: VERSION, store, sections, structure: JSON.parse(structure) as unknown };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const dataStart = align8(16 + headerBytes.length);
  const prefix = Buffer.alloc(16);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(headerBytes.length, 8);
  prefix.writeUInt32LE(crc32(headerBytes), 12);
  const file = path.join(dir, IMAGE_FILE);
  const tmp = file + IMAGE_TMP_SUFFIX;
  const fd = fs.openSync(tmp, 'w');
  try {
    writeAll(fd, prefix, 0);
    writeAll(fd, headerBytes, 16);
    buffers.forEach(([buffer, range], i) => writeAll(fd, new Uint8Array(buffer, range.from, range.to - range.from), dataStart + sections[i].offset));
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
  fsyncDir(dir);
  return dataStart + end;
}

function align8(n: number): number {
  return (n + 7) & ~7;
}

function writeAll(fd: number, bytes: Uint8Array, position: number): void {
  for (let done = 0; done < bytes.length; ) {
    const n = fs.writeSync(fd, bytes, done, Math.min(IO_CHUNK, bytes.length - done), position + done);
    done += n;
  }
}

/** The store identity an image file names, or undefined when there is no readable image header. */
export function openImageStore(dir: string): StoreIdentity | undefined {
  try {
    const fd = fs.openSync(path.join(dir, IMAGE_FILE), 'r');
    try {
      return readHeader(fd, path.join(dir, IMAGE_FILE), fs.fstatSync(fd).size).store;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

function readHeader(fd: number, file: string, size: number): ImageHeader & { dataStart: number } {
  if (size < 16) throw imageDamaged(file, `is ${size} bytes, shorter than its prefix`);
  const prefix = Buffer.alloc(16);
  fs.readSync(fd, prefix, 0, 16, 0);
  if (prefix.toString('latin1', 0, 8) !== MAGIC) throw imageDamaged(file, 'does not begin with the image magic');
  const length = prefix.readUInt32LE(8);
  if (16 + length > size) throw imageDamaged(file, `is cut short: its header needs ${16 + length} bytes, the file has ${size}`);
  const headerBytes = Buffer.alloc(length);
  fs.readSync(fd, headerBytes, 0, length, 16);
  if (crc32(headerBytes) !== prefix.readUInt32LE(12)) throw imageDamaged(file, 'has a header that fails its checksum');
  const header = JSON.parse(headerBytes.toString('utf8')) as ImageHeader;
  if (header.version !== VERSION) throw imageDamaged(file, `has version ${String(header.version)}, not ${VERSION}`);
  return { ...header, dataStart: align8(16 + length) };
}

/**
 * Reads `dir`'s open image, if it was taken from the store `store`; every section onto shared
 * memory, each checked against its CRC. Throws StorageError `ImageDamaged` for an image of
 * another store, a damaged or cut-short one. The file must exist.
 */
export function readOpenImage(dir: string, store: StoreIdentity): GraphImage {
  const file = path.join(dir, IMAGE_FILE);
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const header = readHeader(fd, file, size);
    if (header.store.seq !== store.seq || header.store.hash !== store.hash) {
      throw imageDamaged(file, `was taken from another state of the store (sequence number ${header.store.seq}; the store is at ${store.seq}): it is stale`);
    }
    const ranges = header.sections.map((section, i) => {
      const start = header.dataStart + section.offset;
      if (start + section.bytes > size) throw imageDamaged(file, `is cut short: section ${i} ends at byte ${start + section.bytes}, the file has ${size}`);
      return { buffer: new SharedArrayBuffer(section.bytes), offset: 0, length: section.bytes, position: start };
    });
    // Read on this thread and on helper threads at once (parallel-read.ts), each piece's CRC by the thread that read it.
    const { crcs, cutShort } = readRanges(file, fd, ranges);
    if (cutShort !== undefined) throw imageDamaged(file, `is cut short in section ${cutShort}`);
    header.sections.forEach((section, i) => {
      if (crcs[i] !== section.crc) throw imageDamaged(file, `has a damaged section ${i} (byte offset ${ranges[i].position}): its checksum does not match`);
    });
    const buffers = ranges.map((range) => range.buffer);
    return revive(header.structure, buffers, file) as GraphImage;
  } finally {
    fs.closeSync(fd);
  }
}

/** The structure with its typed arrays and Maps made again over `buffers`. */
function revive(value: unknown, buffers: readonly ArrayBufferLike[], file: string): unknown {
  if (Array.isArray(value)) return value.map((item) => revive(item, buffers, file));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if ('$a' in record) {
    const [index, offset, type, length] = record.$a as [number, number, string, number];
    const Ctor = ARRAY_TYPES[type as ArrayTypeName];
    const buffer = buffers[index];
    if (Ctor === undefined || buffer === undefined || offset % Ctor.BYTES_PER_ELEMENT !== 0 || offset + length * Ctor.BYTES_PER_ELEMENT > buffer.byteLength) {
      throw imageDamaged(file, `names an array (${String(type)} of ${String(length)} at ${String(offset)} in section ${String(index)}) its sections do not hold`);
    }
    return new Ctor(buffer as ArrayBuffer, offset, length);
  }
  if ('$m' in record) return new Map((record.$m as [unknown, unknown][]).map(([k, v]) => [revive(k, buffers, file), revive(v, buffers, file)]));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) out[key] = revive(item, buffers, file);
  return out;
}

/** Removes `dir`'s open image (the store is about to change, or it failed its checks). */
export function removeOpenImage(dir: string): void {
  fs.rmSync(path.join(dir, IMAGE_FILE), { force: true });
}
