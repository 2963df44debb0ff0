/**
 * The parse thread of the parallel CSV import (csv-parallel.ts explains the design): it reads
 * one byte range of a file at a time, tokenizes it with the import's own scanner
 * (`CsvScanner`, so the dialect and the syntax errors are the serial path's), and posts back a
 * `ParsedPiece`: the range's bytes and every record as field offsets into them, lines relative
 * to the range's first line, quoted fields as their unescaped text. The bytes and offset
 * arrays are transferred, not copied. It decides nothing about rows (types, ids, columns):
 * the main thread replays the records through the serial path's row reader.
 */

import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { CsvScanner, CsvSyntaxError, type CsvRecord } from './csv-scanner.js';
import type { ParseJob, ParsedPiece } from './csv-parallel.js';

/** A growable Int32Array. */
class Ints {
  array: Int32Array;
  length = 0;

  constructor(capacity: number) {
    this.array = new Int32Array(Math.max(16, capacity));
  }

  push(value: number): void {
    if (this.length === this.array.length) {
      const grown = new Int32Array(this.array.length * 2);
      grown.set(this.array);
      this.array = grown;
    }
    this.array[this.length++] = value;
  }

  /** The entries in an array of their own length (what is transferred). */
  take(): Int32Array {
    return this.length === this.array.length ? this.array : this.array.slice(0, this.length);
  }
}

/** The records of one range, as `ParsedPiece` wants them. */
class PieceBuilder {
  /** Per record, its first field's index in `starts`/`ends` (and one past the last record). */
  readonly firstField: Ints;
  readonly starts: Ints;
  readonly ends: Ints;
  readonly lines: Ints;
  readonly quotedAt: number[] = [];
  readonly quotedText: string[] = [];
  ascii = true;

  constructor(bytes: number) {
    // A guess at records and fields from the size (about 16 bytes a field), grown as needed.
    this.firstField = new Ints(bytes >> 6);
    this.starts = new Ints(bytes >> 4);
    this.ends = new Ints(bytes >> 4);
    this.lines = new Ints(bytes >> 6);
  }

  add(record: CsvRecord): void {
    this.ascii = record.ascii;
    const first = this.starts.length;
    this.firstField.push(first);
    this.lines.push(record.line);
    for (let i = 0; i < record.count; i++) {
      this.starts.push(record.starts[i]);
      this.ends.push(record.ends[i]);
      if (record.isQuoted(i)) {
        this.quotedAt.push(first + i);
        this.quotedText.push(record.quoted[i]!);
      }
    }
  }
}

/** Reads `job`'s range and tokenizes it. */
function parse(job: ParseJob, fds: Map<string, number>): { piece: ParsedPiece; transfer: ArrayBuffer[] } {
  let fd = fds.get(job.path);
  if (fd === undefined) fds.set(job.path, (fd = openSync(job.path, 'r')));
  const length = job.end - job.start;
  const bytes = new ArrayBuffer(length);
  const buf = Buffer.from(bytes);
  for (let done = 0; done < length; ) {
    const n = readSync(fd, buf, done, length - done, job.start + done);
    if (n === 0) throw new Error(`${job.path} is shorter than when the import started`);
    done += n;
  }
  const out = new PieceBuilder(length);
  const scanner = new CsvScanner(job.delimiter, job.path, (record) => out.add(record), { line: 1, offset: job.start });
  let consumed = 0;
  let error: ParsedPiece['error'];
  try {
    consumed = scanner.scan(buf, length, job.final);
  } catch (err) {
    if (!(err instanceof CsvSyntaxError)) throw err;
    error = { line: err.line, why: err.why };
  }
  out.firstField.push(out.starts.length);
  const piece: ParsedPiece = {
    id: job.id,
    bytes,
    ascii: out.ascii,
    firstField: out.firstField.take(),
    starts: out.starts.take(),
    ends: out.ends.take(),
    lines: out.lines.take(),
    quotedAt: out.quotedAt,
    quotedText: out.quotedText,
    consumed,
    endLine: scanner.currentLine,
    error,
  };
  return { piece, transfer: [bytes, piece.firstField.buffer as ArrayBuffer, piece.starts.buffer as ArrayBuffer, piece.ends.buffer as ArrayBuffer, piece.lines.buffer as ArrayBuffer] };
}

const port = parentPort;
if (port !== null) {
  const fds = new Map<string, number>();
  port.on('message', (message: ParseJob | 'close') => {
    if (message === 'close') {
      for (const fd of fds.values()) closeSync(fd);
      fds.clear();
      port.close();
      return;
    }
    if (message.fault === 'throw') throw new Error('a parse worker failed (test fault)');
    if (message.fault === 'exit') process.exit(3);
    try {
      const { piece, transfer } = parse(message, fds);
      port.postMessage(piece, transfer);
    } catch (err) {
      port.postMessage({ id: message.id, failed: err instanceof Error ? err.message : String(err) });
    }
  });
}
