/**
 * The parallel tokenizing of the CSV import (`importCsv` with `threads` > 1 on inputs of some
 * size): worker threads (csv-parse-worker.ts) tokenize byte ranges of the files while the main
 * thread turns the records into rows, in file order, through the very code the serial import
 * runs (`RowReader` in csv-import.ts): id spaces, types, errors, skipped rows and the order of
 * nodes and relationships are the serial import's because only the tokenizing (and the reading
 * of plain integers from the bytes, `CsvRecord.ints`) moved.
 *
 * Each file is cut into ranges of about `chunkBytes` that end just after a line feed
 * (`chunkBoundaries`). A line feed may sit inside a quoted field, so a range's start is only
 * *presumed* to be a record's start. The main thread proves it: the file's first range starts
 * at a record; a range whose start is proved, tokenized to its end with nothing left over,
 * proves the next range's start (its end is where a record ended). Where a range ends inside a
 * record (the next range started inside quotes, or a record spans ranges), the main thread
 * tokenizes from the end of the last whole record itself, over as many ranges as the record
 * needs, and the pieces of the ranges it covered are dropped; the pieces after that line up
 * again. A worker's syntax error counts only once its range's start is proved, after the
 * records before it: the same error at the same `file:line` as the serial scan.
 *
 * A worker that fails on a range (an I/O error, an exception) or dies leaves its ranges to the
 * main thread, which tokenizes them itself: every error the import reports is one the serial
 * path's code raised. Where workers cannot start (the browser build's `Worker` refuses) the
 * import is serial.
 *
 * Relationship ends. With integer ids, once the node files are read the import hands the
 * workers shared copies of its id spaces' windows and each relationship file's end columns
 * (`publishEnds`); a worker then resolves the start and end node of every record of a range
 * (`resolveEnds`: every record or none), and a range tokenized before that is sent back to a
 * worker to resolve. The main thread appends a resolved range of a file without stored
 * properties as one run (`onRun`; node rows of plain integer and string columns are appended
 * column by column the same way), and hands the rows of any other its resolved ends; a range
 * that did not resolve (an unknown id, a key outside the window, a short row) is read row by
 * row as before, so its errors are the serial import's.
 */

import { openSync, readSync, closeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { ArgumentError } from '../errors.js';
import { pieceBuffers, type EndsSpec, type ParsedPiece, type ParseJob, type ResolvedAnswer, type ResolveJob, type ResolveSetup, type SharedIdWindow } from './csv-parallel-piece.js';
import { CsvRecord, CsvScanner, CsvSyntaxError, MAX_RECORD_BYTES } from './csv-scanner.js';
import { moduleWorkerBootstrap, moduleWorkerEntry } from './workers/module-worker.js';

export type { ParallelImportTuning, ParsedPiece, ParseJob } from './csv-parallel-piece.js';

interface FailedPiece {
  id: number;
  failed: string;
}


export const DEFAULT_CHUNK_BYTES = 8 << 20;
export const DEFAULT_MIN_PARALLEL_BYTES = 16 << 20;

/** Bytes read at a time while looking for a line feed to cut at. */
const PROBE_BYTES = 64 << 10;

/**
 * Offsets that cut the file at `path` (of `size` bytes) into ranges of about `chunkBytes`,
 * each cut just after a line feed: `[0, …, size]`.
 */
export function chunkBoundaries(path: string, size: number, chunkBytes: number): number[] {
  const cuts = [0];
  if (size <= chunkBytes) {
    cuts.push(size);
    return cuts;
  }
  const fd = openSync(path, 'r');
  try {
    const probe = Buffer.allocUnsafe(PROBE_BYTES);
    let at = chunkBytes;
    while (at < size) {
      const n = readSync(fd, probe, 0, Math.min(PROBE_BYTES, size - at), at);
      if (n === 0) break;
      const lf = probe.subarray(0, n).indexOf(10);
      if (lf < 0) {
        at += n;
        continue;
      }
      const cut = at + lf + 1;
      if (cut >= size) break;
      cuts.push(cut);
      at = cut + chunkBytes;
    }
  } finally {
    closeSync(fd);
  }
  cuts.push(size);
  return cuts;
}

/** The parse worker's bootstrap and module (workers/module-worker.ts). */
const BOOTSTRAP = moduleWorkerBootstrap('a CSV parse worker');

interface Slot {
  worker: Worker;
  /** Jobs posted to it and not answered. */
  posted: Set<number>;
  alive: boolean;
}

/** Ranges a worker may be given at once (so that it never waits for the next). */
const PER_WORKER = 2;
/** Spare buffers sent with one job (a piece has six), and the most the main thread holds. */
const SPARE_PER_JOB = 12;
const MAX_SPARE = 48;
/** Pieces finished ahead of the one the main thread reads, per worker (bounds their memory). */
const AHEAD_PER_WORKER = 3;

/**
 * Worker threads that tokenize the jobs of one import in order of their ids, never more than
 * a few ranges ahead of the main thread's reading (`take`). A job whose worker failed or died
 * is answered with `undefined`.
 */
export class ParsePool {
  private readonly slots: Slot[] = [];
  private jobs: ParseJob[] = [];
  private nextJob = 0;
  /** The job the main thread reads next (`take`). */
  private reading = 0;
  private readonly done = new Map<number, ParsedPiece | undefined>();
  private readonly waiting = new Map<number, (piece: ParsedPiece | undefined) => void>();
  private closed = false;
  /** Buffers of replayed pieces, to go back to the workers with the next jobs. */
  private spare: SharedArrayBuffer[] = [];
  /** The relationship files whose ends the workers resolve (`publishEnds`), by file index. */
  private readonly endsSpecs = new Map<number, EndsSpec>();
  /** Pieces tokenized before `publishEnds`, back at a worker to have their ends resolved. */
  private readonly resolving = new Map<number, ParsedPiece>();

  /** A pool of `workers` threads, or undefined where worker threads cannot start (the browser build). */
  static start(workers: number): ParsePool | undefined {
    try {
      return new ParsePool(workers);
    } catch {
      return undefined;
    }
  }

  private constructor(workers: number) {
    const workerData = moduleWorkerEntry(import.meta.url, 'csv-parse-worker');
    for (let i = 0; i < workers; i++) {
      const worker = new Worker(BOOTSTRAP, { eval: true, workerData });
      const slot: Slot = { worker, posted: new Set(), alive: true };
      worker.on('message', (m: ParsedPiece | FailedPiece | ResolvedAnswer) => {
        slot.posted.delete(m.id);
        if ('kind' in m) {
          const piece = this.resolving.get(m.id);
          this.resolving.delete(m.id);
          if (piece !== undefined) this.finish(m.id, { ...piece, relEnds: m.relEnds });
        } else if ('failed' in m) this.finish(m.id, undefined);
        else this.arrived(m);
        this.dispatch();
      });
      worker.on('error', () => this.lost(slot));
      worker.on('exit', () => this.lost(slot));
      this.slots.push(slot);
    }
  }

  /** Queues the jobs (ids 0, 1, … in the order they will be taken). */
  submit(jobs: ParseJob[]): void {
    this.jobs = jobs;
    this.dispatch();
  }

  /** The piece of job `id`, once it is tokenized; `undefined` if a worker could not do it. Jobs are taken in order of id. */
  take(id: number): Promise<ParsedPiece | undefined> {
    this.reading = id + 1;
    this.dispatch();
    if (this.done.has(id)) {
      const piece = this.done.get(id);
      this.done.delete(id);
      return Promise.resolve(piece);
    }
    if (!this.slots.some((s) => s.alive) && !this.slots.some((s) => s.posted.has(id))) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  /**
   * From now on the workers resolve the ends of the relationship files `specs` names against
   * `windows` (see the module comment); pieces of those files already tokenized go back to a
   * worker for it.
   */
  publishEnds(windows: SharedIdWindow[], specs: EndsSpec[]): void {
    if (this.closed || specs.length === 0) return;
    for (const spec of specs) this.endsSpecs.set(spec.file, spec);
    const setup: ResolveSetup = { kind: 'resolve-setup', windows, specs };
    for (const slot of this.slots) if (slot.alive) slot.worker.postMessage(setup);
    for (const [id, piece] of [...this.done]) {
      if (piece === undefined || !this.needsEnds(piece)) continue;
      this.done.delete(id);
      this.resolve(piece);
    }
  }

  /** Takes back a replayed piece's buffers for the workers to fill again: the piece must not be read afterwards. */
  recycle(piece: ParsedPiece): void {
    if (this.spare.length < MAX_SPARE) this.spare.push(...new Set(pieceBuffers(piece)));
  }

  /** Stops the workers (their pending pieces are dropped); resolves once their threads are gone. */
  async close(): Promise<void> {
    this.closed = true;
    const stopped = this.slots.map((slot) => {
      slot.alive = false;
      return slot.worker.terminate().catch(() => undefined);
    });
    for (const resolve of this.waiting.values()) resolve(undefined);
    this.waiting.clear();
    this.done.clear();
    this.resolving.clear();
    this.spare = [];
    await Promise.all(stopped);
  }

  /** A tokenized piece: to be read, or first to have its ends resolved. */
  private arrived(piece: ParsedPiece): void {
    if (this.needsEnds(piece)) this.resolve(piece);
    else this.finish(piece.id, piece);
  }

  /** Whether `piece` is of a file whose ends the workers resolve and no worker tried. */
  private needsEnds(piece: ParsedPiece): boolean {
    return piece.relEnds === undefined && piece.error === undefined && this.endsSpecs.has(piece.file);
  }

  /** Sends `piece` to the least busy worker to have its ends resolved (read as it is if none is left). */
  private resolve(piece: ParsedPiece): void {
    let slot: Slot | undefined;
    for (const s of this.slots) if (s.alive && (slot === undefined || s.posted.size < slot.posted.size)) slot = s;
    if (slot === undefined) {
      this.finish(piece.id, piece);
      return;
    }
    this.resolving.set(piece.id, piece);
    slot.posted.add(piece.id);
    const job: ResolveJob = { kind: 'resolve', id: piece.id, file: piece.file, fromRecord: this.jobs[piece.id].start === 0 ? 1 : 0, firstField: piece.firstField, ints: piece.ints, spare: this.spare.splice(0, 2) };
    slot.worker.postMessage(job);
  }

  private finish(id: number, piece: ParsedPiece | undefined): void {
    const resolve = this.waiting.get(id);
    if (resolve !== undefined) {
      this.waiting.delete(id);
      resolve(piece);
    } else if (!this.closed && id >= this.reading - 1) {
      this.done.set(id, piece);
    }
  }

  /** A worker that failed or exited: its jobs are answered `undefined`, and every job waits for the others. */
  private lost(slot: Slot): void {
    if (!slot.alive) return;
    slot.alive = false;
    for (const id of slot.posted) {
      this.resolving.delete(id);
      this.finish(id, undefined);
    }
    slot.posted.clear();
    if (!this.slots.some((s) => s.alive)) {
      // Nobody is left to do the rest: the main thread tokenizes it.
      for (; this.nextJob < this.jobs.length; this.nextJob++) this.finish(this.nextJob, undefined);
    }
    this.dispatch();
  }

  private dispatch(): void {
    if (this.closed) return;
    const alive = this.slots.filter((s) => s.alive);
    const limit = this.reading + AHEAD_PER_WORKER * Math.max(1, alive.length);
    for (;;) {
      if (this.nextJob >= this.jobs.length || this.nextJob >= limit) return;
      let slot: Slot | undefined;
      for (const s of alive) if (s.posted.size < PER_WORKER && (slot === undefined || s.posted.size < slot.posted.size)) slot = s;
      if (slot === undefined) return;
      const job = this.jobs[this.nextJob++];
      slot.posted.add(job.id);
      const spare = this.spare.splice(0, SPARE_PER_JOB);
      slot.worker.postMessage({ ...job, spare });
    }
  }
}

/** What a file's tokenizing reports per record: the serial import's record callback. */
export type OnRecord = (record: CsvRecord) => void;

/**
 * Offered a piece's records from `from` on (after the header, when the piece opens its file;
 * the records before went to `OnRecord`): true when it appended them all at once (a run of
 * relationships whose ends a worker resolved, or node rows column by column), false to have
 * them replayed record by record instead.
 */
export type OnRun = (piece: ParsedPiece, from: number) => boolean;

/** One input file of a parallel import: its ranges are jobs `firstJob`, `firstJob + 1`, …. */
export interface PieceFile {
  path: string;
  size: number;
  cuts: number[];
  firstJob: number;
}

/**
 * Calls `onRecord` for every record of `file`, in order: from the pool's pieces where their
 * ranges start at a proved record boundary, else tokenizing on this thread (see the module
 * comment). `progress.bytesRead` is the end of the range being read.
 */
export async function readFileInPieces(pool: ParsePool, file: PieceFile, delimiter: string, progress: { bytesRead: number }, onRecord: OnRecord, onRun?: OnRun): Promise<void> {
  const { cuts } = file;
  const record = new CsvRecord();
  let at = 0;
  let line = 1;
  for (let k = 0; k + 1 < cuts.length; k++) {
    const piece = await pool.take(file.firstJob + k);
    const end = cuts[k + 1];
    if (end <= at) continue; // tokenized on this thread already
    if (piece !== undefined && cuts[k] === at) {
      progress.bytesRead = end;
      replay(piece, record, line, onRecord, onRun, at === 0 ? 1 : 0);
      if (piece.error !== undefined) throw new CsvSyntaxError(file.path, line + piece.error.line - 1, piece.error.why);
      pool.recycle(piece);
      at += piece.consumed;
      line += piece.endLine - 1;
      if (at === end) continue;
    }
    ({ at, line } = tokenizeHere(file, k + 1, delimiter, at, line, progress, onRecord));
  }
}

/**
 * Replays `piece`'s records through `record` (lines counted from `line`, the range's first),
 * reading its arrays in place, with their resolved ends; the records from `runFrom` (past the
 * header of a file's first range) are offered to `onRun` as one run first.
 */
function replay(piece: ParsedPiece, record: CsvRecord, line: number, onRecord: OnRecord, onRun: OnRun | undefined, runFrom: number): void {
  const { firstField, lines, quotedAt, quotedText } = piece;
  const ends = piece.relEnds ?? undefined;
  const resolvedFrom = ends === undefined ? firstField.length : ends.fromRecord;
  record.buf = Buffer.from(piece.bytes.buffer, piece.bytes.byteOffset, piece.bytes.byteLength);
  record.ascii = piece.ascii;
  record.starts = piece.starts;
  record.ends = piece.ends;
  record.ints = piece.ints;
  let q = 0;
  for (let r = 0; r + 1 < firstField.length; r++) {
    if (r === runFrom && onRun !== undefined && onRun(piece, r)) return;
    if (r >= resolvedFrom) {
      record.startNode = ends!.startNodes[r - resolvedFrom];
      record.endNode = ends!.endNodes[r - resolvedFrom];
    } else {
      record.startNode = -1;
      record.endNode = -1;
    }
    const from = firstField[r];
    const count = firstField[r + 1] - from;
    record.first = from;
    record.count = count;
    record.anyQuoted = q < quotedAt.length && quotedAt[q] < from + count;
    if (record.anyQuoted) {
      for (let i = 0; i < count; i++) record.quoted[i] = undefined;
      for (; q < quotedAt.length && quotedAt[q] < from + count; q++) record.quoted[quotedAt[q] - from] = quotedText[q];
    }
    record.line = line + lines[r] - 1;
    onRecord(record);
  }
}

/**
 * Tokenizes `file` on this thread from `at` (a record's start, on line `line`) to the first cut
 * from `cuts[next]` on where a record ends; returns that cut and its line.
 */
function tokenizeHere(file: PieceFile, next: number, delimiter: string, at: number, line: number, progress: { bytesRead: number }, onRecord: OnRecord): { at: number; line: number } {
  const scanner = new CsvScanner(delimiter, file.path, onRecord, { line, offset: at });
  let fd: number | undefined;
  try {
    fd = openSync(file.path, 'r');
    for (let k = next; ; k++) {
      const end = file.cuts[k];
      const length = end - at;
      const buf = Buffer.allocUnsafe(length);
      for (let done = 0; done < length; ) {
        const n = readSync(fd, buf, done, length - done, at + done);
        if (n === 0) throw new Error('the file is shorter than when the import started');
        done += n;
      }
      progress.bytesRead = end;
      at += scanner.scan(buf, length, end === file.size);
      if (at === end) return { at, line: scanner.currentLine };
      if (end - at >= MAX_RECORD_BYTES) {
        throw new ArgumentError(`${file.path}:${scanner.currentLine}: a record (line) is longer than ${MAX_RECORD_BYTES} bytes, the limit (is this a CSV file?)`, 'InvalidImportFile');
      }
    }
  } catch (err) {
    if (err instanceof ArgumentError) throw err;
    throw new ArgumentError(`${file.path}: ${err instanceof Error ? err.message : String(err)}`, 'InvalidImportFile');
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
