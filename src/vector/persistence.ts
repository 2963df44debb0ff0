/**
 * HNSW files in the data directory: a vector index's graph is saved with hnswlib's own
 * writer beside a small JSON header (`<name>.hnsw` and `<name>.hnsw.json` under
 * `vector-indexes/`), so that opening a large store loads the graph instead of rebuilding it.
 *
 * The header names the index definition the file was built for, the WAL sequence number
 * the graph had when it was written, the file's length and CRC-32, and for every live
 * element a 64-bit fingerprint of the exact vector it holds. Loading checks all of them and
 * answers null on any doubt (the caller then rebuilds); the fingerprints let the caller
 * catch the loaded graph up with the recovered store element by element — whatever the WAL
 * replayed since the save, or writes that a crash cut off after it.
 *
 * Writes are crash-safe: both files go to temporaries that are fsynced and renamed in place,
 * the HNSW file first; a crash between the renames leaves a header whose checksum does not
 * match the new file, which loading rejects.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { crc32 } from '../store/persist/crc32.js';
import { durableRename, fsyncDir } from '../store/persist/fsync-dir.js';
import type { ExtensionIndexDef } from '../store/schema.js';

const FORMAT = 'graphdb-hnsw';
const VERSION = 1;
const SUBDIR = 'vector-indexes';

/** What a saved index holds besides the HNSW graph itself. */
export interface SavedIndexState {
  /** WAL sequence number of the graph state the file matches. */
  seq: number;
  /** Live element ids, and their vectors' fingerprints (two 32-bit halves per id). */
  live: number[];
  fingerprints: number[];
  /** Ids marked deleted in the HNSW graph (hnswlib keeps them until replaced). */
  deleted: number[];
}

interface Header extends SavedIndexState {
  format: string;
  version: number;
  def: ExtensionIndexDef;
  bytes: number;
  crc32: number;
}

export interface IndexFiles {
  graph: string;
  header: string;
}

/** Where the index called `name` keeps its files in `dataDir` (names are escaped into file names). */
export function indexFiles(dataDir: string, name: string): IndexFiles {
  const base = path.join(dataDir, SUBDIR, `${encodeURIComponent(name)}.hnsw`);
  return { graph: base, header: `${base}.json` };
}

/** A 64-bit fingerprint of a vector's exact float32 bits, as two 32-bit numbers (FNV-1a and a multiply-xorshift). */
export function fingerprint(v: Float32Array): [number, number] {
  const words = new Uint32Array(v.buffer, v.byteOffset, v.length);
  let a = 0x811c9dc5;
  let b = 0x9e3779b9 ^ v.length;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    a = Math.imul(a ^ w, 0x01000193);
    b = Math.imul(b ^ (w + 0x7f4a7c15), 0x85ebca6b);
    b ^= b >>> 13;
  }
  return [a >>> 0, b >>> 0];
}

function fileCrc(file: string): { bytes: number; crc: number } {
  const fd = fs.openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    let crc = 0;
    let bytes = 0;
    for (;;) {
      const n = fs.readSync(fd, chunk, 0, chunk.length, bytes);
      if (n === 0) break;
      crc = crc32(chunk.subarray(0, n), crc);
      bytes += n;
    }
    return { bytes, crc };
  } finally {
    fs.closeSync(fd);
  }
}

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Saves an index: `writeGraph` writes the HNSW graph to the path it is given (hnswlib's
 * writer); `state` describes it. Durable when it returns.
 */
export function saveIndexFiles(dataDir: string, def: ExtensionIndexDef, state: SavedIndexState, writeGraph: (file: string) => void): void {
  const files = indexFiles(dataDir, def.name);
  fs.mkdirSync(path.dirname(files.graph), { recursive: true });
  const graphTmp = `${files.graph}.tmp`;
  const headerTmp = `${files.header}.tmp`;
  writeGraph(graphTmp);
  fsyncFile(graphTmp);
  const { bytes, crc } = fileCrc(graphTmp);
  const header: Header = { format: FORMAT, version: VERSION, def, bytes, crc32: crc, ...state };
  fs.writeFileSync(headerTmp, JSON.stringify(header));
  fsyncFile(headerTmp);
  durableRename(graphTmp, files.graph);
  durableRename(headerTmp, files.header);
}

/**
 * The saved state of the index `def` describes, when its files exist, were written for an
 * identical definition, and pass the length and checksum checks; otherwise null.
 */
export function loadIndexFiles(dataDir: string, def: ExtensionIndexDef): (SavedIndexState & { file: string }) | null {
  const files = indexFiles(dataDir, def.name);
  let header: Header;
  try {
    header = JSON.parse(fs.readFileSync(files.header, 'utf8')) as Header;
  } catch {
    return null;
  }
  if (header.format !== FORMAT || header.version !== VERSION || JSON.stringify(header.def) !== JSON.stringify(def)) return null;
  if (!Array.isArray(header.live) || !Array.isArray(header.fingerprints) || !Array.isArray(header.deleted)) return null;
  if (header.fingerprints.length !== header.live.length * 2) return null;
  try {
    const { bytes, crc } = fileCrc(files.graph);
    if (bytes !== header.bytes || crc !== header.crc32) return null;
  } catch {
    return null;
  }
  return { file: files.graph, seq: header.seq, live: header.live, fingerprints: header.fingerprints, deleted: header.deleted };
}

/** Removes an index's files (the index was dropped). */
export function removeIndexFiles(dataDir: string, name: string): void {
  const files = indexFiles(dataDir, name);
  for (const f of [files.header, files.graph, `${files.graph}.tmp`, `${files.header}.tmp`]) fs.rmSync(f, { force: true });
  try {
    fsyncDir(path.dirname(files.graph));
  } catch {
    // The directory may not exist (nothing was ever saved).
  }
}
