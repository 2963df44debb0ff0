/**
 * What the main thread and the parse workers of the parallel CSV import (csv-parallel.ts)
 * send each other: jobs (a byte range of a file), pieces (the range tokenized), the id
 * windows and end columns with which a worker resolves a relationship file's ends
 * (`resolveEnds`, shared by both sides), and the import's tuning knobs. Apart from
 * csv-parallel.ts so that a worker loads no more than it runs, and so that the package's
 * declarations of `importCsv` name no Node type.
 */

/** Knobs for tests and tuning (`ImportOptions.parallel`). */
export interface ParallelImportTuning {
  /** Bytes per range a worker tokenizes (default 8 MiB). */
  chunkBytes?: number;
  /** Below this many bytes in all the import is serial (default 16 MiB). */
  minBytes?: number;
  /** For tests: the worker given range `job` (0-based over all files) throws or exits. */
  fault?: { job: number; kind: 'throw' | 'exit' };
  /**
   * For tests and measurements: filled in by the import with the relationship rows whose ends
   * a worker resolved (`resolved`), of those the rows appended as whole runs (`inRuns`), and
   * the node rows appended a range at a time (`nodesInRuns`).
   */
  seen?: { resolved: number; inRuns: number; nodesInRuns: number };
}

/** One range for a worker to tokenize. `fault` makes the worker fail on it (tests). */
export interface ParseJob {
  id: number;
  /** The file's index among the import's inputs (node files first). */
  file: number;
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
  file: number;
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
  /**
   * The node ids of a relationship file's ends, where a worker resolved them: `null` when some
   * record would not resolve (the main thread then reads the piece's rows itself), absent when
   * no worker tried (the file's ends are not resolvable there, or the range was tokenized
   * before the node files were in).
   */
  relEnds?: ResolvedEnds | null;
}

/**
 * The ends of records `fromRecord …` of a piece (every record but the header, or all): their
 * start and end node ids.
 */
export interface ResolvedEnds {
  fromRecord: number;
  startNodes: Int32Array;
  endNodes: Int32Array;
}

/**
 * An id space's window of integer keys as the workers read it (a shared copy of the import's
 * `IdSpace` window, taken once the node files are read): key `k` is node id
 * `keys[k - base] - 1`, 0 meaning no node. Keys the space holds outside its window are not
 * here: a record with one does not resolve and goes to the main thread.
 */
export interface SharedIdWindow {
  base: number;
  keys: Int32Array;
}

/** Where a relationship file's ends are: its column count, and the column and window of each end. */
export interface EndsSpec {
  file: number;
  columns: number;
  startColumn: number;
  startWindow: number;
  endColumn: number;
  endWindow: number;
}

/** Sent to every worker once the node files are read: the windows and the relationship files they resolve. */
export interface ResolveSetup {
  kind: 'resolve-setup';
  windows: SharedIdWindow[];
  specs: EndsSpec[];
}

/** Resolves the ends of a piece tokenized before the setup reached its worker. */
export interface ResolveJob {
  kind: 'resolve';
  id: number;
  file: number;
  fromRecord: number;
  firstField: Int32Array;
  ints: Float64Array;
  spare?: SharedArrayBuffer[];
}

/** A worker's answer to a `ResolveJob`. */
export interface ResolvedAnswer {
  kind: 'resolved';
  id: number;
  relEnds: ResolvedEnds | null;
}

/**
 * The node id integer `key` has in an id space's window (`keys` from key `base` on: node id + 1,
 * 0 for none), or -1: the one reading of a window, by the import's `IdSpace` and by the workers.
 */
export function windowNode(keys: Int32Array, base: number, key: number): number {
  const at = key - base; // NaN for a field that is not a plain integer: no slot
  return at >= 0 && at < keys.length ? keys[at] - 1 : -1;
}

/** How many records of a piece with `firstField` (one entry past its last record) are from `fromRecord` on. */
export function recordsFrom(firstField: Int32Array, fromRecord: number): number {
  return Math.max(0, firstField.length - 1 - fromRecord);
}

/**
 * Writes the ends of records `fromRecord …` of a tokenized piece (`firstField`, the fields'
 * plain integers `ints`) into `startNodes` and `endNodes` (`recordsFrom` long); false when any
 * record has another column count than the file's or an end the windows do not hold: such a
 * piece the main thread reads row by row, with the serial path's errors. The keys are read
 * exactly as the row reader reads integer ids (`CsvRecord.plainInt`), so a resolved end is the
 * node the serial import would have found.
 */
export function resolveEnds(firstField: Int32Array, ints: Float64Array, fromRecord: number, spec: EndsSpec, windows: readonly SharedIdWindow[], startNodes: Int32Array, endNodes: Int32Array): boolean {
  const records = recordsFrom(firstField, fromRecord);
  const startWindow = windows[spec.startWindow];
  const endWindow = windows[spec.endWindow];
  for (let i = 0; i < records; i++) {
    const first = firstField[fromRecord + i];
    if (firstField[fromRecord + i + 1] - first !== spec.columns) return false;
    const start = windowNode(startWindow.keys, startWindow.base, ints[first + spec.startColumn]);
    const end = windowNode(endWindow.keys, endWindow.base, ints[first + spec.endColumn]);
    if (start < 0 || end < 0) return false;
    startNodes[i] = start;
    endNodes[i] = end;
  }
  return true;
}

/** The shared buffers a piece's arrays are views of. */
export function pieceBuffers(piece: ParsedPiece): SharedArrayBuffer[] {
  const views: ArrayBufferView[] = [piece.bytes, piece.firstField, piece.starts, piece.ends, piece.lines, piece.ints];
  if (piece.relEnds) views.push(piece.relEnds.startNodes, piece.relEnds.endNodes);
  return views.map((view) => view.buffer as SharedArrayBuffer);
}
