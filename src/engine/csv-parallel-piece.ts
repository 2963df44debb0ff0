/**
 * What the main thread and the parse workers of the parallel CSV import (csv-parallel.ts)
 * send each other: jobs (a byte range of a file) and pieces (the range tokenized), and the
 * import's tuning knobs. Apart from csv-parallel.ts so that a worker loads no more than it
 * runs, and so that the package's declarations of `importCsv` name no Node type.
 */

/** Knobs for tests and tuning (`ImportOptions.parallel`). */
export interface ParallelImportTuning {
  /** Bytes per range a worker tokenizes (default 8 MiB). */
  chunkBytes?: number;
  /** Below this many bytes in all the import is serial (default 16 MiB). */
  minBytes?: number;
  /** For tests: the worker given range `job` (0-based over all files) throws or exits. */
  fault?: { job: number; kind: 'throw' | 'exit' };
}

/** One range for a worker to tokenize. `fault` makes the worker fail on it (tests). */
export interface ParseJob {
  id: number;
  path: string;
  start: number;
  end: number;
  /** The range ends the file (the last record may lack a line break). */
  final: boolean;
  delimiter: string;
  fault?: 'throw' | 'exit';
  /** Buffers of replayed pieces, given back for the worker to fill again. */
  spare?: SharedArrayBuffer[];
}

/** A tokenized range: its bytes and its records as field offsets into them. */
export interface ParsedPiece {
  id: number;
  bytes: Uint8Array;
  /** No byte of the range is above 127. */
  ascii: boolean;
  /** Record r's fields are `starts/ends[firstField[r], firstField[r + 1])`. */
  firstField: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
  /** Each record's line, counted from 1 at the range's start. */
  lines: Int32Array;
  /** Each field as `CsvRecord.plainInt` reads it (NaN where it is not a plain integer), so the main thread does not. */
  ints: Float64Array;
  /** Quoted fields (by index into `starts`, ascending) and their unescaped text. */
  quotedAt: number[];
  quotedText: string[];
  /** Bytes of the range up to the end of its last whole record. */
  consumed: number;
  /** The line (from 1 at the range's start) after the last whole record. */
  endLine: number;
  /** A syntax error after the records given, at a line counted as `lines` are. */
  error?: { line: number; why: string };
}

/** The shared buffers a piece's arrays are views of. */
export function pieceBuffers(piece: ParsedPiece): SharedArrayBuffer[] {
  return [piece.bytes, piece.firstField, piece.starts, piece.ends, piece.lines, piece.ints].map((view) => view.buffer as SharedArrayBuffer);
}
