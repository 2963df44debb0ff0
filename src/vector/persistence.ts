/**
 * Retrieval index files in the data directory: a vector index's HNSW graph (hnswlib's own
 * writer, `vector-indexes/<name>.hnsw`) and a full-text index's inverted index (our binary
 * encoding, `fulltext-indexes/<name>.fts`), each beside a small JSON header (`….json`), so
 * that opening a large store loads an index instead of rebuilding it.
 *
 * The header names the index definition the file was built for, the WAL sequence number
 * the index had when it was written, the file's length and CRC-32, and an index-specific
 * state in binary after the JSON line (with its own length and CRC-32 in the JSON): for a
 * vector index the live entity ids with each one's HNSW label and a fingerprint of its vector, which lets the
 * caller catch the loaded index up with the recovered store element by element (whatever
 * the WAL replayed since the save, or writes that a crash cut off after it). Loading checks
 * all of it and reports why it refused a file (the caller then rebuilds, with a warning).
 *
 * The state is binary, and encoded and checksummed in slices with the event loop free in
 * between, because at a million elements a JSON state held the event loop for ~100 ms per
 * checkpoint (bench/results/vector-checkpoint-stall.md).
 *
 * Writes are crash-safe: both files go to temporaries that are fsynced and renamed in place,
 * the body first; a crash between the renames leaves a header whose checksum does not match
 * the new body, which loading rejects. The asynchronous form does the slow parts (the body
 * writer, the checksum, the fsyncs) off the event loop, and renames only if the caller still
 * wants the result when they are done.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { crc32 } from '../store/persist/crc32.js';
import { durableRename, fsyncDir } from '../store/persist/fsync-dir.js';
import type { ExtensionIndexDef } from '../store/schema.js';

/** One kind of index file: where it lives and how its header is tagged. */
export interface IndexFileKind {
  subdir: string;
  suffix: string;
  format: string;
  version: number;
}

/**
 * Version 4: HNSW labels are the index's own (one per vector put in, so that an update adds a
 * fresh element instead of rewiring the old one), and the state maps them to entities.
 * Version 3 used the entity ids as labels; such a file is refused and the index rebuilt.
 */
export const HNSW_FILES: IndexFileKind = { subdir: 'vector-indexes', suffix: '.hnsw', format: 'graphdb-hnsw', version: 4 };

/** What a saved vector index holds besides the HNSW graph itself. */
export interface SavedIndexState {
  /** WAL sequence number of the graph state the file matches. */
  seq: number;
  /** How many elements the HNSW graph holds, deleted ones included (labels run from 0 to this). */
  elements: number;
  /** Live entity ids, their HNSW labels, and their vectors' fingerprints (`fingerprintKey`), in the same order. */
  live: ArrayLike<number>;
  labels: ArrayLike<number>;
  prints: ArrayLike<number>;
}

/** An index's state as it goes into the header file: its bytes and their CRC-32. */
export interface EncodedState {
  bytes: Uint8Array;
  crc: number;
}

export const NO_STATE: EncodedState = { bytes: new Uint8Array(0), crc: 0 };

interface Header {
  format: string;
  version: number;
  def: ExtensionIndexDef;
  seq: number;
  bytes: number;
  crc32: number;
  /** The binary state after the JSON line (absent: none). */
  stateBytes?: number;
  stateCrc?: number;
}

export interface IndexFiles {
  graph: string;
  header: string;
}

/** How many elements are encoded between two turns of the event loop, and how many bytes checksummed. */
const STATE_SLICE = 1 << 14;
const CHUNK = 1 << 20;

/**
 * A vector index's state in binary: float64s (exact for ids, labels and 53-bit fingerprints) —
 * the element count, the live count, then (id, label, fingerprint) triples — and its CRC-32,
 * computed in steps: the generator yields every STATE_SLICE elements and checksum chunk, and
 * returns the encoded state. The caller keeps the map unchanged until it is done (changes are
 * held back during a background save).
 */
function* encodeSteps(live: ReadonlyMap<number, number>, printOfLabel: ArrayLike<number>, elements: number): Generator<undefined, EncodedState> {
  const out = new Float64Array(2 + 3 * live.size);
  out[0] = elements;
  out[1] = live.size;
  let i = 2;
  let n = 0;
  for (const [id, label] of live) {
    out[i++] = id;
    out[i++] = label;
    out[i++] = printOfLabel[label];
    if ((++n & (STATE_SLICE - 1)) === 0) yield;
  }
  const bytes = new Uint8Array(out.buffer);
  let crc = 0;
  for (let at = 0; at < bytes.length; at += CHUNK) {
    crc = crc32(bytes.subarray(at, at + CHUNK), crc);
    yield;
  }
  return { bytes, crc };
}

/** The encoded state with the event loop given a turn (`pause`) between steps: a checkpoint's save. */
export async function encodeVectorStateAsync(
  live: ReadonlyMap<number, number>,
  printOfLabel: ArrayLike<number>,
  elements: number,
  pause: () => Promise<void>,
): Promise<EncodedState> {
  const steps = encodeSteps(live, printOfLabel, elements);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await pause();
  }
}

/** The encoded state in one go (close, which blocks anyway). */
export function encodeVectorState(live: ReadonlyMap<number, number>, printOfLabel: ArrayLike<number>, elements: number): EncodedState {
  const steps = encodeSteps(live, printOfLabel, elements);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/** The state `encodeVectorState` wrote, or undefined when the bytes do not hold one (or it contradicts itself). */
function decodeVectorState(bytes: Uint8Array): Omit<SavedIndexState, 'seq'> | undefined {
  if (bytes.length % 8 !== 0 || bytes.length < 16) return undefined;
  const all = new Float64Array(bytes.length / 8);
  new Uint8Array(all.buffer).set(bytes); // copied: the bytes need not be 8-aligned
  const [elements, liveCount] = all;
  if (!Number.isInteger(elements) || !Number.isInteger(liveCount) || liveCount > elements || all.length !== 2 + 3 * liveCount) return undefined;
  const live = new Float64Array(liveCount);
  const labels = new Float64Array(liveCount);
  const prints = new Float64Array(liveCount);
  for (let i = 0; i < liveCount; i++) {
    live[i] = all[2 + 3 * i];
    labels[i] = all[3 + 3 * i];
    prints[i] = all[4 + 3 * i];
    if (!Number.isInteger(labels[i]) || labels[i] < 0 || labels[i] >= elements) return undefined;
  }
  return { elements, live, labels, prints };
}

/** A load: the file and its state, or why there is none (`absent`: no files; else a refusal to warn about). */
export type LoadedFiles<S> = { file: string; seq: number; state: S } | { refused: string };

/** Where the index called `name` keeps its files in `dataDir` (names are escaped into file names). */
export function indexFiles(dataDir: string, name: string, kind: IndexFileKind = HNSW_FILES): IndexFiles {
  const base = path.join(dataDir, kind.subdir, `${encodeURIComponent(name)}${kind.suffix}`);
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

/** A fingerprint as one exact JS number (53 of its 64 bits), for maps and JSON. */
export function fingerprintKey([hi, lo]: [number, number]): number {
  return (hi & 0x1fffff) * 0x100000000 + lo;
}

function fileCrc(file: string): { bytes: number; crc: number } {
  const fd = fs.openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
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

/** `fileCrc` reading chunk by chunk off the event loop (each chunk's checksum is a short step on it). */
async function fileCrcAsync(file: string): Promise<{ bytes: number; crc: number }> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    let crc = 0;
    let bytes = 0;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, bytes);
      if (bytesRead === 0) break;
      crc = crc32(chunk.subarray(0, bytesRead), crc);
      bytes += bytesRead;
    }
    return { bytes, crc };
  } finally {
    await handle.close();
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

async function fsyncFileAsync(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** `fsyncDir` off the event loop. */
async function fsyncDirAsync(dir: string): Promise<void> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(dir, 'r');
    await handle.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL') throw err;
  } finally {
    await handle?.close();
  }
}

let tmpCounter = 0;

/** Fresh temporary names for one save (two saves of one index may overlap: a close during a background save). */
function tempFiles(files: IndexFiles): IndexFiles {
  const tag = `.tmp-${process.pid}-${++tmpCounter}`;
  return { graph: files.graph + tag, header: files.header + tag };
}

/** Temporaries that a crash (or an abandoned save) left beside an index's files: never complete, safe to remove. */
function removeTemporaries(files: IndexFiles): void {
  const dir = path.dirname(files.graph);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const base of [path.basename(files.graph), path.basename(files.header)]) {
    const pattern = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.tmp-\\d+-\\d+$`);
    for (const name of names) if (pattern.test(name)) fs.rmSync(path.join(dir, name), { force: true });
  }
}

/** The header file's parts: its JSON line (and a newline when a state follows), then the state's bytes. */
function headerParts(kind: IndexFileKind, def: ExtensionIndexDef, seq: number, body: { bytes: number; crc: number }, state: EncodedState): [Buffer, Uint8Array] {
  const header: Header = { format: kind.format, version: kind.version, def, seq, bytes: body.bytes, crc32: body.crc };
  if (state.bytes.length === 0) return [Buffer.from(JSON.stringify(header)), state.bytes];
  header.stateBytes = state.bytes.length;
  header.stateCrc = state.crc;
  return [Buffer.from(JSON.stringify(header) + '\n'), state.bytes];
}

/**
 * The JSON part of a header file (JSON text has no raw newline, so the first one ends it),
 * and the bytes after it.
 */
export function splitHeaderFile(content: Buffer): { json: string; state: Buffer } {
  const nl = content.indexOf(10);
  return nl < 0 ? { json: content.toString('utf8'), state: content.subarray(content.length) } : { json: content.subarray(0, nl).toString('utf8'), state: content.subarray(nl + 1) };
}

/** Writes the header file's parts and fsyncs it. */
function writeHeaderSync(file: string, parts: [Buffer, Uint8Array]): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (const part of parts) {
      for (let at = 0; at < part.length; ) at += fs.writeSync(fd, part, at, part.length - at);
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** `writeHeaderSync` off the event loop. */
async function writeHeader(file: string, parts: [Buffer, Uint8Array]): Promise<void> {
  const handle = await fs.promises.open(file, 'w');
  try {
    for (const part of parts) {
      for (let at = 0; at < part.length; ) at += (await handle.write(part, at, part.length - at)).bytesWritten;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Saves an index: `writeBody` writes the index itself to the path it is given; `state`
 * describes it. Durable when it returns.
 */
export function saveIndexFiles(dataDir: string, kind: IndexFileKind, def: ExtensionIndexDef, seq: number, state: EncodedState, writeBody: (file: string) => void): void {
  const files = indexFiles(dataDir, def.name, kind);
  fs.mkdirSync(path.dirname(files.graph), { recursive: true });
  const tmp = tempFiles(files);
  try {
    writeBody(tmp.graph);
    fsyncFile(tmp.graph);
    writeHeaderSync(tmp.header, headerParts(kind, def, seq, fileCrc(tmp.graph), state));
    durableRename(tmp.graph, files.graph);
    durableRename(tmp.header, files.header);
  } finally {
    fs.rmSync(tmp.graph, { force: true });
    fs.rmSync(tmp.header, { force: true });
  }
}

/**
 * `saveIndexFiles` with the body writer, the checksum and the fsyncs off the event loop.
 * `wanted` is asked before the files are put in place: when it says no (the index was
 * dropped, or a newer save overtook this one), the temporaries are removed instead. True
 * when the files were put in place.
 */
export async function saveIndexFilesAsync(
  dataDir: string,
  kind: IndexFileKind,
  def: ExtensionIndexDef,
  seq: number,
  state: EncodedState,
  writeBody: (file: string) => Promise<void>,
  wanted: () => boolean,
): Promise<boolean> {
  const files = indexFiles(dataDir, def.name, kind);
  await fs.promises.mkdir(path.dirname(files.graph), { recursive: true });
  const tmp = tempFiles(files);
  // Renaming over the previous body frees its blocks inside the rename, on the event loop:
  // 15–25 ms for a 300k-element index here, and over 150 ms when the disk is busy. A second
  // name for it, made and removed off the event loop, leaves the rename a link count to drop.
  // (The name is a temporary's, so an open after a crash removes it.)
  const previous = tempFiles(files).graph;
  try {
    await writeBody(tmp.graph);
    await fsyncFileAsync(tmp.graph);
    const body = await fileCrcAsync(tmp.graph);
    await writeHeader(tmp.header, headerParts(kind, def, seq, body, state));
    await fs.promises.link(files.graph, previous).catch(() => undefined); // none on the first save
    // Synchronous from the check to the renames, so nothing can drop or overtake the index in
    // between; the directory's fsync (which makes the renames durable) need not be.
    if (!wanted()) return false;
    fs.renameSync(tmp.graph, files.graph);
    fs.renameSync(tmp.header, files.header);
    await fsyncDirAsync(path.dirname(files.graph));
    return true;
  } finally {
    await fs.promises.rm(tmp.graph, { force: true });
    await fs.promises.rm(tmp.header, { force: true });
    await fs.promises.rm(previous, { force: true });
  }
}

/**
 * The saved state of the index `def` describes, when its files exist, were written for an
 * identical definition, and pass the length and checksum checks and `decode` (given the
 * state's bytes); otherwise why not. Temporaries left by a crash are removed first.
 */
export function readIndexFiles<S>(dataDir: string, kind: IndexFileKind, def: ExtensionIndexDef, decode: (state: Uint8Array) => S | undefined): LoadedFiles<S> | undefined {
  const files = indexFiles(dataDir, def.name, kind);
  removeTemporaries(files);
  if (!fs.existsSync(files.header) && !fs.existsSync(files.graph)) return undefined;
  let header: Header;
  let stateBytes: Buffer;
  try {
    const { json, state } = splitHeaderFile(fs.readFileSync(files.header));
    header = JSON.parse(json) as Header;
    stateBytes = state;
  } catch (err) {
    return { refused: `its header ${files.header} is unreadable (${err instanceof Error ? err.message : String(err)})` };
  }
  if (header.format !== kind.format || header.version !== kind.version) {
    return { refused: `${files.header} was written in format ${String(header.format)} version ${String(header.version)}; this build reads ${kind.format} version ${kind.version}` };
  }
  if (JSON.stringify(header.def) !== JSON.stringify(def)) return { refused: `${files.header} was written for another definition of the index` };
  if (stateBytes.length !== (header.stateBytes ?? 0) || (stateBytes.length > 0 && crc32(stateBytes) !== header.stateCrc)) {
    return { refused: `the state in ${files.header} does not match its recorded length and checksum (damaged or cut short)` };
  }
  const state = typeof header.seq === 'number' ? decode(stateBytes) : undefined;
  if (state === undefined) return { refused: `${files.header} is damaged` };
  try {
    const { bytes, crc } = fileCrc(files.graph);
    if (bytes !== header.bytes || crc !== header.crc32) return { refused: `${files.graph} does not match its recorded length and checksum (damaged or cut short)` };
  } catch (err) {
    return { refused: `${files.graph} is unreadable (${err instanceof Error ? err.message : String(err)})` };
  }
  return { file: files.graph, seq: header.seq, state };
}

/** The saved vector index `def` describes (see `readIndexFiles`): undefined when there are no files. */
export function readVectorIndexFiles(dataDir: string, def: ExtensionIndexDef): LoadedFiles<SavedIndexState> | undefined {
  const loaded = readIndexFiles(dataDir, HNSW_FILES, def, decodeVectorState);
  if (!loaded || 'refused' in loaded) return loaded;
  return { file: loaded.file, seq: loaded.seq, state: { seq: loaded.seq, ...loaded.state } };
}

/** The saved vector index `def` describes when its files are sound, else null. */
export function loadIndexFiles(dataDir: string, def: ExtensionIndexDef): (SavedIndexState & { file: string }) | null {
  const loaded = readVectorIndexFiles(dataDir, def);
  return loaded && !('refused' in loaded) ? { file: loaded.file, ...loaded.state } : null;
}

/** Removes an index's files (the index was dropped). */
export function removeIndexFiles(dataDir: string, name: string, kind: IndexFileKind = HNSW_FILES): void {
  const files = indexFiles(dataDir, name, kind);
  for (const f of [files.header, files.graph]) fs.rmSync(f, { force: true });
  removeTemporaries(files);
  try {
    fsyncDir(path.dirname(files.graph));
  } catch {
    // The directory may not exist (nothing was ever saved).
  }
}
