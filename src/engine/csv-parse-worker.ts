/**
 * The parse thread of the parallel CSV import (csv-parallel.ts explains the design): it reads
 * one byte range of a file at a time, tokenizes it with the import's own scanner
 * (`CsvScanner`, so the dialect and the syntax errors are the serial path's), and posts back a
 * `ParsedPiece`: the range's bytes and every record as field offsets into them, lines relative
 * to the range's first line, quoted fields as their unescaped text. The bytes and offset
 * arrays live on SharedArrayBuffers, so they cross without a copy and without a transfer
 * (which would detach them: one detached ArrayBuffer in a process makes V8 check every
 * typed-array access there for detachment, slowing the graph's column loops long after). It decides nothing about rows (types, ids, columns):
 * the main thread replays the records through the serial path's row reader. The one row step
 * it takes: once the node files are read, the main thread sends the id spaces' windows
 * (`ResolveSetup`), and the worker looks up the start and end node of every record of a
 * relationship file's range (`resolveEnds`), all or none, so the main thread can append them
 * without the lookups (a range tokenized before that comes back as a `ResolveJob`).
 */

import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { CsvScanner, CsvSyntaxError, type CsvRecord } from './csv-scanner.js';
import { recordsFrom, resolveEnds, type EndsSpec, type ParseJob, type ParsedPiece, type ResolvedAnswer, type ResolvedEnds, type ResolveJob, type ResolveSetup, type SharedIdWindow } from './csv-parallel-piece.js';

/**
 * Memory the main thread gave back (`ParseJob.spare`): the buffers of pieces it has replayed,
 * used again for the next pieces, so that an import allocates a few dozen of them in all
 * instead of new ones per range. (Fresh buffers per range are external memory to the main
 * thread's heap, and at snb-1M their churn set off a full collection of a multi-GB heap every
 * few ranges.)
 */
const spare: SharedArrayBuffer[] = [];
/** Most spare buffers a worker keeps. */
const MAX_SPARE = 24;

/** A buffer of at least `bytes` bytes: the smallest spare one that fits, else a new one rounded up to 64 KiB (1 MiB past 1 MiB). */
function allocate(bytes: number): SharedArrayBuffer {
  let best = -1;
  for (let i = 0; i < spare.length; i++) if (spare[i].byteLength >= bytes && (best < 0 || spare[i].byteLength < spare[best].byteLength)) best = i;
  if (best >= 0) return spare.splice(best, 1)[0];
  const unit = bytes < 1 << 20 ? 1 << 16 : 1 << 20;
  return new SharedArrayBuffer(Math.ceil(Math.max(bytes, 1) / unit) * unit);
}

function keep(buffers: readonly SharedArrayBuffer[]): void {
  for (const buffer of buffers) if (spare.length < MAX_SPARE && buffer.byteLength > 0) spare.push(buffer);
}

/** Bytes a range's first records are counted over, to size its arrays. */
const SAMPLE_BYTES = 64 << 10;
const LF = 10;

/** The records of one range, as `ParsedPiece` wants them, in typed arrays grown by doubling. */
class PieceBuilder {
  rows = 0;
  fields = 0;
  /** Per record, its first field's index in `starts`/`ends` (and one past the last record). */
  firstField: Int32Array;
  lines: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
  /** Per field, `plainInt` of it (NaN where it is not a plain integer). */
  ints: Float64Array;
  readonly quotedAt: number[] = [];
  readonly quotedText: string[] = [];
  ascii = true;

  constructor(buf: Buffer, bytes: number, delimiter: number) {
    // Records and fields guessed from line feeds and delimiters in the first 64 KiB, with a
    // tenth to spare (grown if short): a growth copies every array, which for files of short
    // rows cost a twentieth of the tokenizing.
    const sample = Math.min(bytes, SAMPLE_BYTES);
    let lines = 0;
    let delimiters = 0;
    for (let i = 0; i < sample; i++) {
      const c = buf[i];
      if (c === LF) lines++;
      else if (c === delimiter) delimiters++;
    }
    const scale = (1.1 * bytes) / Math.max(1, sample);
    const rows = Math.max(16, Math.ceil(lines * scale));
    const fields = Math.max(16, Math.ceil((lines + delimiters) * scale));
    // Each view is exactly as long as asked (a spare buffer may be longer), so that the arrays
    // of a group (firstField and lines; starts, ends and ints) are always as long as each other.
    this.firstField = new Int32Array(allocate(4 * (rows + 1)), 0, rows + 1);
    this.lines = new Int32Array(allocate(4 * (rows + 1)), 0, rows + 1);
    this.starts = new Int32Array(allocate(4 * fields), 0, fields);
    this.ends = new Int32Array(allocate(4 * fields), 0, fields);
    this.ints = new Float64Array(allocate(8 * fields), 0, fields);
  }

  add(record: CsvRecord): void {
    this.ascii = record.ascii;
    const count = record.count;
    const first = this.fields;
    if (this.rows + 1 >= this.lines.length) this.growRows();
    if (first + count > this.starts.length) this.growFields(first + count);
    this.firstField[this.rows] = first;
    this.lines[this.rows++] = record.line;
    const { starts, ends, ints } = this;
    for (let i = 0; i < count; i++) {
      starts[first + i] = record.starts[i];
      ends[first + i] = record.ends[i];
      ints[first + i] = record.plainInt(i);
    }
    if (record.anyQuoted) {
      for (let i = 0; i < count; i++) {
        if (!record.isQuoted(i)) continue;
        this.quotedAt.push(first + i);
        this.quotedText.push(record.quoted[i]!);
      }
    }
    this.fields = first + count;
  }

  private growRows(): void {
    this.firstField = grown(this.firstField, this.firstField.length * 2);
    this.lines = grown(this.lines, this.lines.length * 2);
  }

  private growFields(least: number): void {
    const length = Math.max(least, this.starts.length * 2);
    this.starts = grown(this.starts, length);
    this.ends = grown(this.ends, length);
    this.ints = grown(this.ints, length);
  }
}

/** `array` copied into a buffer of room for `length` entries (the old buffer kept as a spare). */
function grown<T extends Int32Array | Float64Array>(array: T, length: number): T {
  const make = array instanceof Int32Array ? (b: SharedArrayBuffer) => new Int32Array(b, 0, length) : (b: SharedArrayBuffer) => new Float64Array(b, 0, length);
  const copy = make(allocate(length * array.BYTES_PER_ELEMENT)) as T;
  copy.set(array);
  keep([array.buffer as SharedArrayBuffer]);
  return copy;
}

/** The id windows and the relationship files' end columns, once the main thread sent them. */
let windows: SharedIdWindow[] = [];
const specs = new Map<number, EndsSpec>();

/** The ends of records `fromRecord …` of a piece of `file`: undefined when the file has no spec here, null when a record does not resolve. */
function endsOf(file: number, firstField: Int32Array, ints: Float64Array, fromRecord: number): ResolvedEnds | null | undefined {
  const spec = specs.get(file);
  if (spec === undefined) return undefined;
  const records = recordsFrom(firstField, fromRecord);
  const startNodes = new Int32Array(allocate(4 * records), 0, records);
  const endNodes = new Int32Array(allocate(4 * records), 0, records);
  if (resolveEnds(firstField, ints, fromRecord, spec, windows, startNodes, endNodes)) return { fromRecord, startNodes, endNodes };
  keep([startNodes.buffer as SharedArrayBuffer, endNodes.buffer as SharedArrayBuffer]);
  return null;
}

/** Reads `job`'s range and tokenizes it. */
function parse(job: ParseJob): ParsedPiece {
  const length = job.end - job.start;
  const buf = Buffer.from(allocate(length), 0, length);
  // Opened per range (an open costs microseconds against milliseconds of reading and tokenizing), so a worker holds no descriptor between ranges.
  const fd = openSync(job.path, 'r');
  try {
    for (let done = 0; done < length; ) {
      const n = readSync(fd, buf, done, length - done, job.start + done);
      if (n === 0) throw new Error(`${job.path} is shorter than when the import started`);
      done += n;
    }
  } finally {
    closeSync(fd);
  }
  const out = new PieceBuilder(buf, length, Buffer.from(job.delimiter)[0]);
  const scanner = new CsvScanner(job.delimiter, job.path, (record) => out.add(record), { line: 1, offset: job.start });
  let consumed = 0;
  let error: ParsedPiece['error'];
  try {
    consumed = scanner.scan(buf, length, job.final);
  } catch (err) {
    if (!(err instanceof CsvSyntaxError)) throw err;
    error = { line: err.line, why: err.why };
  }
  out.firstField[out.rows] = out.fields;
  const firstField = out.firstField.subarray(0, out.rows + 1);
  const ints = out.ints.subarray(0, out.fields);
  // A file's first range opens with its header line, which is no relationship.
  const relEnds = endsOf(job.file, firstField, ints, job.start === 0 ? 1 : 0);
  return {
    id: job.id,
    file: job.file,
    bytes: buf,
    ascii: out.ascii,
    // Views of the builder's arrays (no copy).
    firstField,
    starts: out.starts.subarray(0, out.fields),
    ends: out.ends.subarray(0, out.fields),
    lines: out.lines.subarray(0, out.rows),
    ints,
    quotedAt: out.quotedAt,
    quotedText: out.quotedText,
    consumed,
    endLine: scanner.currentLine,
    error,
    ...(relEnds === undefined ? {} : { relEnds }),
  };
}

const port = parentPort;
if (port !== null) {
  port.on('message', (message: ParseJob | ResolveSetup | ResolveJob) => {
    if ('kind' in message && message.kind === 'resolve-setup') {
      windows = message.windows;
      for (const spec of message.specs) specs.set(spec.file, spec);
      return;
    }
    if (message.spare !== undefined) keep(message.spare);
    if ('kind' in message) {
      let relEnds: ResolvedEnds | null = null;
      try {
        relEnds = endsOf(message.file, message.firstField, message.ints, message.fromRecord) ?? null;
      } catch {
        // Out of memory or the like: the main thread reads the rows itself.
      }
      port.postMessage({ kind: 'resolved', id: message.id, relEnds } satisfies ResolvedAnswer);
      return;
    }
    if (message.fault === 'throw') throw new Error('a parse worker failed (test fault)');
    if (message.fault === 'exit') process.exit(3);
    try {
      port.postMessage(parse(message));
    } catch (err) {
      port.postMessage({ id: message.id, failed: err instanceof Error ? err.message : String(err) });
    }
  });
}
