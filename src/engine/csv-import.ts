/**
 * CSV import in Neo4j admin-import header conventions (`id:ID(space)`, `:LABEL`,
 * `:START_ID(space)`, `:END_ID(space)`, `:TYPE`, `:IGNORE`, typed, temporal and array columns),
 * for `graphdb import` and for embedders (`importCsv`). Files are read as bytes in large
 * chunks (csv-scanner.ts) — node files first, then relationship files — and each row is
 * checked and appended to arrays and property columns (store/persist/bulk-append.ts), integers
 * and strings straight from the bytes, without per-row arrays or value objects. With
 * `threads` > 1 on inputs of some size, worker threads tokenize byte ranges of the files and
 * this thread replays their records, in file order, through the same row reader
 * (csv-parallel.ts), so the graph and the errors are the serial import's; with integer ids
 * the workers also resolve relationship ends against shared copies of the id spaces' windows
 * (`publishEnds`), and a range of a file without stored properties is appended as one run.
 * Nothing is written until every file is read,
 * so a bad row stops the import with nothing written (or is reported and skipped). Then
 * `commitAppended` writes it: a data directory gets a new store of record swapped in
 * atomically, an empty in-memory graph is bulk-loaded, and anything with indexes or
 * constraints (or an in-memory graph that is not empty) takes one write transaction.
 */

import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { FloatBox } from '../../runtime/scalars.js';
import { fromString, type TemporalKind } from '../../runtime/temporal/construct.js';
import { parseDuration } from '../../runtime/temporal/parse.js';
import { ArgumentError } from '../errors.js';
import { CLASS_KEY, CONFIDENCE_KEY, observationProblem } from '../observation/model.js';
import { TEXT as TEXT_KIND, type PropertyColumn } from '../store/columns/property-column.js';
import type { Value } from '../store/entities.js';
import { BulkAppender, commitAppended, type BulkPath } from '../store/persist/bulk-append.js';
import { loadLength } from '../store/columns/buffers.js';
import { chunkBoundaries, DEFAULT_CHUNK_BYTES, DEFAULT_MIN_PARALLEL_BYTES, ParsePool, readFileInPieces, type ParseJob, type PieceFile } from './csv-parallel.js';
import { windowNode, type EndsSpec, type ParallelImportTuning, type ParsedPiece, type ResolvedEnds, type SharedIdWindow } from './csv-parallel-piece.js';
import { CsvScanner, scanFile, type CsvRecord } from './csv-scanner.js';
import type { Database } from './database.js';

type ScalarType = 'int' | 'long' | 'float' | 'double' | 'boolean' | 'string' | TemporalKind | 'duration';

interface Column {
  name: string;
  kind: 'id' | 'label' | 'start' | 'end' | 'type' | 'property' | 'ignore';
  idSpace: string;
  type: ScalarType;
  array: boolean;
}

export interface ImportInput {
  kind: 'nodes' | 'relationships';
  /** Labels or the relationship type given on the command line (`--nodes=A:B`, `--relationships=T`). */
  defaults: string[];
  path: string;
  /** Column specs (`id:ID(Person)`, `age:int`, …) that replace the file's own first line, for files whose header is plain names. */
  header?: string[];
}

/** A row that cannot be imported, with its place (`file:line`). */
class BadRow extends Error {}

const SCALAR_TYPES = new Set<string>(['int', 'long', 'float', 'double', 'boolean', 'string', 'date', 'localtime', 'time', 'localdatetime', 'datetime', 'duration']);

function parseHeader(file: string, cells: string[], idType: IdType): Column[] {
  return cells.map((cell) => {
    const colon = cell.lastIndexOf(':');
    const name = colon < 0 ? cell : cell.slice(0, colon);
    const spec = colon < 0 ? 'string' : cell.slice(colon + 1);
    const spaced = /^(ID|START_ID|END_ID)(?:\((.*)\))?$/.exec(spec);
    const base: Column = { name, kind: 'property', idSpace: spaced?.[2] ?? '', type: 'string', array: false };
    if (spaced) return { ...base, kind: spaced[1] === 'ID' ? 'id' : spaced[1] === 'START_ID' ? 'start' : 'end', type: idType === 'integer' ? 'long' : 'string' };
    if (spec === 'LABEL') return { ...base, kind: 'label' };
    if (spec === 'TYPE') return { ...base, kind: 'type' };
    if (spec === 'IGNORE') return { ...base, kind: 'ignore' };
    const array = spec.endsWith('[]');
    const type = (array ? spec.slice(0, -2) : spec).toLowerCase();
    if (!SCALAR_TYPES.has(type)) throw new ArgumentError(`${file}:1: unsupported column type ${JSON.stringify(spec)} in ${JSON.stringify(cell)}`, 'InvalidImportFile');
    return { ...base, type: type as ScalarType, array };
  });
}

function convert(text: string, type: ScalarType): Value {
  switch (type) {
    case 'string':
      return text;
    case 'boolean':
      if (/^true$/i.test(text)) return true;
      if (/^false$/i.test(text)) return false;
      throw new BadRow(`${JSON.stringify(text)} is not a boolean`);
    case 'int':
    case 'long': {
      const digits = text.trim();
      if (!/^[+-]?\d+$/.test(digits)) throw new BadRow(`${JSON.stringify(text)} is not an integer`);
      // Most values fit a safe integer: only the rest pay for a BigInt.
      const n = Number(digits);
      if (!Number.isSafeInteger(n)) return BigInt(digits);
      return n === 0 ? 0 : n; // "-0" is the integer 0
    }
    case 'float':
    case 'double': {
      const n = Number(text);
      if (text.trim() === '' || Number.isNaN(n)) throw new BadRow(`${JSON.stringify(text)} is not a number`);
      // A float column stays float: 3.0 must not come back as the integer 3.
      return Number.isInteger(n) ? new FloatBox(n) : n;
    }
    case 'duration':
      try {
        return parseDuration(text.trim());
      } catch {
        throw new BadRow(`${JSON.stringify(text)} is not a duration`);
      }
    default:
      try {
        return fromString(type, text.trim(), BigInt(Date.now()) * 1_000_000n);
      } catch {
        throw new BadRow(`${JSON.stringify(text)} is not a ${type}`);
      }
  }
}

export type IdType = 'string' | 'integer';

export interface ImportOptions {
  delimiter?: string;
  arrayDelimiter?: string;
  /** Report (through `onSkip`) and skip bad rows instead of stopping. */
  skipBadRows?: boolean;
  /** How an `:ID` column's value is stored as a property: text (the default) or an integer. */
  idType?: IdType;
  onSkip?: (where: string, reason: string) => void;
  /** Called after each row with the rows so far and bytes read of all files (with several threads, bytes up to the end of the range being read). */
  onRow?: (rows: number, bytesDone: number, totalBytes: number) => void;
  /**
   * Threads the import reads with (csv-parallel.ts): 1 reads on the calling thread alone;
   * N > 1 starts N - 1 worker threads that tokenize ranges of the files while the calling
   * thread turns their records into rows. Default: one per core, at most
   * `MAX_DEFAULT_THREADS`. Inputs under `parallel.minBytes` in all (16 MiB) are always read
   * on the calling thread.
   */
  threads?: number;
  /** Tuning and tests of the parallel tokenizing (`ParallelImportTuning`). */
  parallel?: ParallelImportTuning;
}

/** Most threads the default `threads` counts (the calling thread included). */
export const MAX_DEFAULT_THREADS = 8;

/** A pool of parse workers with every range of the inputs queued, or undefined for a serial import (see `ImportOptions.threads`). */
function startParsePool(ordered: readonly ImportInput[], sizes: readonly number[], totalBytes: number, delimiter: string, options: ImportOptions): { pool: ParsePool; files: PieceFile[] } | undefined {
  const threads = Math.floor(options.threads ?? Math.min(availableParallelism(), MAX_DEFAULT_THREADS));
  const tuning = options.parallel ?? {};
  if (!(threads > 1) || totalBytes < (tuning.minBytes ?? DEFAULT_MIN_PARALLEL_BYTES) || delimiter.length !== 1) return undefined;
  const chunkBytes = tuning.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const files: PieceFile[] = [];
  const jobs: ParseJob[] = [];
  try {
    for (const [i, input] of ordered.entries()) {
      const cuts = chunkBoundaries(input.path, sizes[i], chunkBytes);
      files.push({ path: input.path, size: sizes[i], cuts, firstJob: jobs.length });
      for (let k = 0; k + 1 < cuts.length; k++) {
        const id = jobs.length;
        jobs.push({ id, file: i, path: input.path, start: cuts[k], end: cuts[k + 1], final: k + 2 === cuts.length, delimiter, fault: tuning.fault?.job === id ? tuning.fault.kind : undefined });
      }
    }
  } catch {
    return undefined; // a file that cannot be read: the serial path names it
  }
  const pool = ParsePool.start(Math.min(threads - 1, jobs.length));
  pool?.submit(jobs);
  return pool && { pool, files };
}

/** The first line of `path` as cells, or undefined when it cannot be read as CSV from the first 64 KiB. */
function headerCells(path: string, delimiter: string): string[] | undefined {
  let cells: string[] | undefined;
  try {
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.allocUnsafe(64 << 10);
      const length = readSync(fd, buf, 0, buf.length, 0);
      const scanner = new CsvScanner(delimiter, path, (record) => {
        cells ??= Array.from({ length: record.count }, (_, i) => record.text(i));
      });
      scanner.scan(buf, length, length < buf.length);
    } finally {
      closeSync(fd);
    }
  } catch {
    // A syntax error after the first line, or a file that cannot be read: the row path reports it.
  }
  return cells;
}

/**
 * Gives the parse workers the windows of the id spaces and the end columns of every
 * relationship file whose ends are integer ids (see the module comment); returns each such
 * file's spec with its two spaces, for the row readers to check against their own header.
 */
function publishEnds(pool: ParsePool, ordered: readonly ImportInput[], idSpaces: Map<string, IdSpace>, delimiter: string): Map<number, PublishedEnds> {
  const published = new Map<number, PublishedEnds>();
  const windows: SharedIdWindow[] = [];
  const windowOf = new Map<IdSpace, number>();
  const windowIndex = (space: IdSpace): number | undefined => {
    if (!windowOf.has(space)) {
      const window = space.sharedWindow();
      if (window === undefined) return undefined;
      windowOf.set(space, windows.push(window) - 1);
    }
    return windowOf.get(space);
  };
  for (const [file, input] of ordered.entries()) {
    if (input.kind !== 'relationships') continue;
    const cells = input.header ?? headerCells(input.path, delimiter);
    let columns: Column[];
    try {
      columns = cells === undefined ? [] : parseHeader(input.path, cells, 'integer');
    } catch {
      continue; // the row reader reports the header's fault
    }
    const startColumn = columns.findIndex((col) => col.kind === 'start');
    const endColumn = columns.findIndex((col) => col.kind === 'end');
    const start = idSpaces.get(columns[startColumn]?.idSpace);
    const end = idSpaces.get(columns[endColumn]?.idSpace);
    if (start === undefined || end === undefined) continue;
    const startWindow = windowIndex(start);
    const endWindow = windowIndex(end);
    if (startWindow === undefined || endWindow === undefined) continue;
    published.set(file, { spec: { file, columns: columns.length, startColumn, startWindow, endColumn, endWindow }, start, end });
  }
  pool.publishEnds(windows, [...published.values()].map((p) => p.spec));
  return published;
}

/** A relationship file whose ends the workers resolve, with the id spaces of its two ends. */
interface PublishedEnds {
  spec: EndsSpec;
  start: IdSpace;
  end: IdSpace;
}

export interface ImportSummary {
  nodes: number;
  relationships: number;
  properties: number;
  skipped: number;
  /** How it was written (see the module comment). */
  path: BulkPath;
}

/** Imports `inputs` into `db` (see the module comment). A bad row not skipped throws ArgumentError (`InvalidImportRow`) naming `file:line`. */
export async function importCsv(db: Database, inputs: readonly ImportInput[], options: ImportOptions = {}): Promise<ImportSummary> {
  const delimiter = options.delimiter ?? ',';
  const arrayDelimiter = options.arrayDelimiter ?? ';';
  const idType = options.idType ?? 'string';
  const ordered = [...inputs.filter((i) => i.kind === 'nodes'), ...inputs.filter((i) => i.kind === 'relationships')];
  let totalBytes = 0;
  const sizes: number[] = [];
  for (const input of ordered) {
    try {
      sizes.push(statSync(input.path).size);
      totalBytes += sizes[sizes.length - 1];
    } catch (err) {
      throw new ArgumentError(`${input.path}: ${(err as Error).message}`, 'InvalidImportFile');
    }
  }
  const appender = new BulkAppender(db.graph);
  // Where each appended node came from, kept only where a constraint can refuse one (so the error names its file and line).
  const places = db.schema.listConstraints().length > 0 ? new NodePlaces() : undefined;
  const idSpaces = new Map<string, IdSpace>();
  let bytesBefore = 0;
  let rows = 0;
  let skipped = 0;
  const pool = startParsePool(ordered, sizes, totalBytes, delimiter, options);
  const seen = options.parallel?.seen;
  let endsOf: Map<number, PublishedEnds> | undefined;
  try {
    for (const [index, input] of ordered.entries()) {
      if (pool !== undefined && endsOf === undefined && idType === 'integer' && input.kind === 'relationships') endsOf = publishEnds(pool.pool, ordered, idSpaces, delimiter);
      let reader: RowReader | undefined;
      // How far into the file the tokenizing is (for onRow).
      let progress: { bytesRead: number } = { bytesRead: 0 };
      const onRecord = (record: CsvRecord): void => {
        // The first record is the header: the file's own, or replaced by `input.header`.
        if (reader === undefined) {
          const own = Array.from({ length: record.count }, (_, i) => record.text(i));
          reader = new RowReader(input, parseHeader(input.path, input.header ?? own, idType), arrayDelimiter, idSpaces, appender, idType === 'integer');
          const published = endsOf?.get(index);
          if (published !== undefined) reader.trustResolvedEnds(published);
          return;
        }
        if (seen !== undefined && record.startNode >= 0) seen.resolved++;
        try {
          reader.add(record);
          if (places !== undefined && input.kind === 'nodes') places.note(appender.nodeCount - 1, input.path, record.line);
        } catch (err) {
          if (!(err instanceof BadRow)) throw err;
          const where = `${input.path}:${record.line}`;
          if (!options.skipBadRows) throw new ArgumentError(`${where}: ${err.message} (nothing was imported)`, 'InvalidImportRow');
          options.onSkip?.(where, err.message);
          skipped++;
        }
        options.onRow?.(++rows, bytesBefore + progress.bytesRead, totalBytes);
      };
      // A whole range at once: relationships whose ends a worker resolved, of a file without
      // stored properties, or node rows column by column (where no row needs its place noted).
      const onRun = (piece: ParsedPiece, from: number): boolean => {
        if (reader === undefined) return false;
        const count = piece.firstField.length - 1 - from;
        if (piece.relEnds) {
          if (!reader.addRun(piece.relEnds)) return false;
          if (seen !== undefined) {
            seen.resolved += count;
            seen.inRuns += count;
          }
        } else if (places !== undefined || !reader.addNodeRun(piece, from)) return false;
        else if (seen !== undefined) seen.nodesInRuns += count;
        const onRow = options.onRow;
        if (onRow === undefined) rows += count;
        else for (let i = 0; i < count; i++) onRow(++rows, bytesBefore + progress.bytesRead, totalBytes);
        return true;
      };
      try {
        if (pool !== undefined) await readFileInPieces(pool.pool, pool.files[index], delimiter, progress, onRecord, onRun);
        else {
          const scanner = new CsvScanner(delimiter, input.path, onRecord);
          progress = scanner;
          await scanFile(input.path, scanner);
        }
      } catch (err) {
        if (err instanceof ArgumentError) throw err;
        throw new ArgumentError(`${input.path}: ${err instanceof Error ? err.message : String(err)}`, 'InvalidImportFile');
      }
      if (reader === undefined) throw new ArgumentError(`${input.path}: the file has no header`, 'InvalidImportFile');
      bytesBefore += progress.bytesRead;
    }
  } finally {
    await pool?.pool.close();
  }
  const summary = { nodes: appender.nodeCount, relationships: appender.relCount, properties: appender.properties, skipped };
  return { ...summary, path: await commitAppended(db, appender, undefined, places && ((i) => places.at(i))) };
}

/** The file and line of each appended node: a line per node, the files as runs of node indexes (files are read one after another). */
class NodePlaces {
  private lines = new Int32Array(1024);
  private readonly files: { from: number; path: string }[] = [];

  note(index: number, path: string, line: number): void {
    if (this.files.length === 0 || this.files[this.files.length - 1].path !== path) this.files.push({ from: index, path });
    if (index >= this.lines.length) {
      const grown = new Int32Array(Math.max(index + 1, this.lines.length * 2));
      grown.set(this.lines);
      this.lines = grown;
    }
    this.lines[index] = line;
  }

  at(index: number): string | undefined {
    let file: string | undefined;
    for (const f of this.files) if (f.from <= index) file = f.path;
    return file === undefined || index >= this.lines.length ? undefined : `${file}:${this.lines[index]}`;
  }
}

/** An id as its space maps it. */
type IdKey = string | number;

/** Smallest window of integer ids an id space keeps in an array. */
const MIN_WINDOW = 1024;

/**
 * The ids of one id space (`ID(Person)`) mapped to node ids. Integer ids mostly run in a
 * dense range per space, so they sit in a typed array over a window of keys (node id + 1,
 * 0 for none) that grows while it stays at most four times the ids it holds; every other key
 * (text, or an integer far outside the window) goes to a map.
 */
class IdSpace {
  private base = 0;
  private window = new Int32Array(0);
  private count = 0;
  private readonly others = new Map<IdKey, number>();

  get(key: IdKey): number | undefined {
    if (typeof key === 'number') {
      const id = windowNode(this.window, this.base, key);
      if (id >= 0) return id;
    }
    return this.others.size === 0 ? undefined : this.others.get(key);
  }

  has(key: IdKey): boolean {
    return this.get(key) !== undefined;
  }

  /** A copy of the window in shared memory, for the parse workers (csv-parallel-piece.ts `SharedIdWindow`); undefined while it is empty. */
  sharedWindow(): SharedIdWindow | undefined {
    if (this.window.length === 0) return undefined;
    const keys = new Int32Array(new SharedArrayBuffer(this.window.byteLength));
    keys.set(this.window);
    return { base: this.base, keys };
  }

  set(key: IdKey, id: number): void {
    this.count++;
    if (typeof key === 'number' && this.windowFor(key)) this.window[key - this.base] = id + 1;
    else this.others.set(key, id);
  }

  /** Whether `key` has a slot in the window, growing it if that keeps it dense enough. */
  private windowFor(key: number): boolean {
    if (this.window.length === 0) {
      this.base = key;
      this.window = new Int32Array(MIN_WINDOW);
      return true;
    }
    const at = key - this.base;
    if (at < 0) return false;
    if (at < this.window.length) return true;
    const limit = Math.max(MIN_WINDOW, 4 * this.count);
    if (at >= limit) return false;
    const length = Math.min(limit, Math.max(at + 1, this.window.length * 2));
    // Within its buffer the window only widens its view; past it, the new buffer is a
    // reservation (`loadLength`) so that, once large, it is a mapping of its own, unmapped
    // when the import ends instead of left resident in the allocator's heap.
    const buffer = this.window.buffer as ArrayBuffer;
    if (length * 4 <= buffer.byteLength) {
      this.window = new Int32Array(buffer, 0, length);
      return true;
    }
    const grown = new Int32Array(new ArrayBuffer(loadLength(length, 4) * 4), 0, length);
    grown.set(this.window);
    this.window = grown;
    return true;
  }
}

/** How a row reader takes a field: not at all, as a plain integer, as a string, or through `convert`. */
const SKIP = 0;
const INTEGER = 1;
const STRING = 2;
const CONVERT = 3;

/** What a field of the current row left to store: nothing, `numbers[c]`, its bytes as a string, or `values[c]`. */
const ABSENT = 0;
const HAS_NUMBER = 1;
const HAS_TEXT = 2;
const HAS_VALUE = 3;

/**
 * Appends the data rows of one file, with everything about its header worked out once:
 * which column is the id, labels, type or an end, the target property column of each
 * property column, how each field is read, and the id space maps. A row is checked whole
 * before anything of it is appended, so a skipped row leaves no trace. Integers and strings
 * go from the record's bytes to the columns without a value object (a `TEXT` column takes
 * ASCII bytes as they are); every other type goes through `convert`.
 */
class RowReader {
  private readonly actions: Uint8Array;
  /**
   * Columns stored under a key the observation model constrains (`observation_class`,
   * `confidence`): their values are checked as a query's write is (src/observation), here
   * where the file and line are known, so that every load path — store swap, in-memory bulk
   * load, transaction — refuses what CREATE refuses.
   */
  private readonly observed: Uint8Array;
  /** Per column, what the row being added holds (`ABSENT` …). */
  private readonly held: Uint8Array;
  private readonly numbers: Float64Array;
  private readonly values: (Value | undefined)[];
  private readonly targets: (PropertyColumn | undefined)[];
  private readonly spaces: (IdSpace | undefined)[];
  private readonly labelColumn: number;
  private readonly typeColumn: number;
  private readonly idColumn: number;
  private readonly startColumn: number;
  private readonly endColumn: number;
  /** Whether any field is stored as a property (most relationship files have none). */
  private readonly stored: boolean;
  private readonly defaultType: string;
  /** The last `:LABEL` text and the labels it gave (the same array for a run of equal texts). */
  private lastLabelText: string | undefined;
  private lastLabels: string[];
  /**
   * Whether whole ranges of this node file can be appended column by column (`addNodeRun`):
   * no `:LABEL` column, integer ids (or none), and only plain integer and string properties
   * that no observation check reads.
   */
  private readonly nodeRuns: boolean;
  /** Whether a record's ends as a parse worker resolved them (`CsvRecord.startNode`) are this file's: see `trustResolvedEnds`. */
  private resolvedEnds = false;

  constructor(
    private readonly input: ImportInput,
    private readonly columns: Column[],
    private readonly arrayDelimiter: string,
    idSpaces: Map<string, IdSpace>,
    private readonly appender: BulkAppender,
    private readonly integerIds: boolean,
  ) {
    const nodes = input.kind === 'nodes';
    const space = (name: string): IdSpace => {
      let map = idSpaces.get(name);
      if (map === undefined) idSpaces.set(name, (map = new IdSpace()));
      return map;
    };
    this.targets = columns.map((col) => (col.kind === 'property' || (col.kind === 'id' && col.name !== '') ? (nodes ? appender.nodeColumn(col.name) : appender.relColumn(col.name)) : undefined));
    this.observed = Uint8Array.from(columns, (col, c) => (this.targets[c] !== undefined && (col.name === CLASS_KEY || col.name === CONFIDENCE_KEY) ? 1 : 0));
    this.actions = Uint8Array.from(columns, (col, c) => {
      if (this.targets[c] === undefined) return SKIP;
      // A checked column needs the value itself, not its bytes.
      if (col.array || this.observed[c] === 1) return CONVERT;
      return col.type === 'int' || col.type === 'long' ? INTEGER : col.type === 'string' ? STRING : CONVERT;
    });
    this.stored = this.actions.some((action) => action !== SKIP);
    this.defaultType = input.defaults[0] ?? '';
    this.held = new Uint8Array(columns.length);
    this.numbers = new Float64Array(columns.length);
    this.values = new Array<Value | undefined>(columns.length);
    this.spaces = columns.map((col) => (col.kind === 'id' || col.kind === 'start' || col.kind === 'end' ? space(col.idSpace) : undefined));
    const find = (kind: Column['kind']): number => columns.findIndex((col) => col.kind === kind);
    this.labelColumn = find('label');
    this.typeColumn = find('type');
    this.idColumn = nodes ? find('id') : -1;
    this.startColumn = find('start');
    this.endColumn = find('end');
    this.lastLabels = input.defaults;
    this.nodeRuns = nodes && this.labelColumn < 0 && (this.idColumn < 0 || integerIds) && this.actions.every((action) => action === SKIP || action === INTEGER || action === STRING);
  }

  /**
   * Appends node records `from …` of a tokenized range column by column — the ids, the id
   * space entries, then each property column over all the rows — when every row is one the
   * row path takes without a question: the file's column count, a plain integer (or nothing)
   * in every integer column, no quoted integer, an id key that is a plain integer, new, and
   * larger than the row's before (so no duplicate within the range). False, appending
   * nothing, otherwise: the row path then reads the range with its errors. Each column is
   * set in the order of ids as the row path sets it, so the columns come out the same.
   */
  addNodeRun(piece: ParsedPiece, from: number): boolean {
    if (!this.nodeRuns) return false;
    const { firstField, starts, ends, ints } = piece;
    const { actions, columns, idColumn } = this;
    const width = columns.length;
    const rows = firstField.length - 1 - from;
    const quoted = piece.quotedAt.length === 0 ? undefined : new Map(piece.quotedAt.map((at, i) => [at, piece.quotedText[i]]));
    const space = idColumn >= 0 ? this.spaces[idColumn]! : undefined;
    let lastKey = -Infinity;
    for (let r = from; r < from + rows; r++) {
      const first = firstField[r];
      if (firstField[r + 1] - first !== width) return false;
      for (let c = 0; c < width; c++) {
        if (actions[c] !== INTEGER && c !== idColumn) continue;
        const at = first + c;
        if (quoted?.has(at)) return false;
        // NaN: empty (a property left out) or not a plain integer (the row path's question).
        if (ints[at] !== ints[at] && (starts[at] !== ends[at] || columns[c].kind !== 'property')) return false;
      }
      if (space !== undefined) {
        const key = ints[first + idColumn];
        if (!(key > lastKey) || space.has(key)) return false;
        lastKey = key;
      }
    }
    const appender = this.appender;
    const firstId = appender.appendNodes(this.input.defaults, rows);
    if (space !== undefined) for (let i = 0; i < rows; i++) space.set(ints[firstField[from + i] + idColumn], firstId + i);
    const buf = Buffer.from(piece.bytes.buffer, piece.bytes.byteOffset, piece.bytes.byteLength);
    const encoding = piece.ascii ? 'latin1' : 'utf8';
    for (let c = 0; c < width; c++) {
      const target = this.targets[c];
      if (target === undefined || actions[c] === SKIP) continue;
      let set = 0;
      if (actions[c] === INTEGER) {
        for (let i = 0; i < rows; i++) {
          const n = ints[firstField[from + i] + c];
          if (n !== n) continue;
          target.set(firstId + i, n === 0 ? 0 : n); // "-0" is the integer 0
          set++;
        }
      } else {
        for (let i = 0; i < rows; i++) {
          const at = firstField[from + i] + c;
          const text = quoted?.get(at);
          if (text !== undefined) {
            if (text === '' && columns[c].kind === 'property') continue;
            target.set(firstId + i, text);
          } else if (starts[at] === ends[at] && columns[c].kind === 'property') continue;
          else if (piece.ascii && target.kind === TEXT_KIND) target.setTextBytes(firstId + i, buf, starts[at], ends[at]);
          else target.set(firstId + i, buf.toString(encoding, starts[at], ends[at]));
          set++;
        }
      }
      appender.properties += set;
    }
    return true;
  }

  /**
   * Takes the ends the parse workers resolve for this file, once their spec is seen to be
   * this reader's own header's (same columns, same end columns and id spaces).
   */
  trustResolvedEnds(published: PublishedEnds): void {
    const { spec } = published;
    this.resolvedEnds = this.integerIds && this.input.kind === 'relationships' && spec.columns === this.columns.length && spec.startColumn === this.startColumn && spec.endColumn === this.endColumn && this.spaces[this.startColumn] === published.start && this.spaces[this.endColumn] === published.end;
  }

  /**
   * Appends a run of rows whose ends a worker resolved, when nothing else of the rows is read:
   * no stored property, no `:TYPE` column, a default type. False (nothing appended) otherwise.
   */
  addRun(ends: ResolvedEnds): boolean {
    if (!this.resolvedEnds || this.stored || this.typeColumn >= 0 || this.defaultType === '') return false;
    this.appender.appendRels(this.defaultType, ends.startNodes, ends.endNodes);
    return true;
  }

  /** The key of field `c` in its id space: with integer ids the number (a cheaper map key, and `07` is `7`), else the text. */
  private keyOf(record: CsvRecord, c: number): IdKey {
    if (!this.integerIds) return record.text(c);
    const plain = record.plainInt(c);
    if (plain === plain) return plain;
    const text = record.text(c);
    const n = Number(text);
    return Number.isSafeInteger(n) && text.trim() !== '' ? n : text;
  }

  /** Reads the fields of `record` into `held`/`numbers`/`values`; a field that does not convert throws BadRow. */
  private read(record: CsvRecord): void {
    const { columns, actions, held } = this;
    for (let c = 0; c < columns.length; c++) {
      held[c] = ABSENT;
      const action = actions[c];
      if (action === SKIP) continue;
      const col = columns[c];
      if (col.kind === 'property' && record.isEmpty(c)) continue;
      if (action === INTEGER) {
        const n = record.plainInt(c);
        if (n === n) {
          this.numbers[c] = n === 0 ? 0 : n; // "-0" is the integer 0
          held[c] = HAS_NUMBER;
          continue;
        }
      } else if (action === STRING && !record.isQuoted(c)) {
        held[c] = HAS_TEXT;
        continue;
      }
      const text = record.text(c);
      let value: Value;
      try {
        value = col.array ? text.split(this.arrayDelimiter).map((t) => convert(t, col.type)) : convert(text, col.type);
      } catch (err) {
        throw new BadRow(`column ${col.name}: ${(err as Error).message}`);
      }
      if (this.observed[c] === 1) {
        const problem = observationProblem(col.name, value);
        if (problem) throw new BadRow(`column ${col.name}: ${problem.why} (as a query's write would be refused)`);
      }
      this.values[c] = value;
      held[c] = HAS_VALUE;
    }
  }

  /** Checks one data row and appends it; a problem throws BadRow. */
  add(record: CsvRecord): void {
    const { columns } = this;
    if (record.count !== columns.length) throw new BadRow(`expected ${columns.length} columns, found ${record.count}`);
    if (this.stored) this.read(record);
    const appender = this.appender;
    let id: number;
    if (this.input.kind === 'nodes') {
      const labels = this.labelColumn >= 0 ? this.labelsOf(record.text(this.labelColumn)) : this.input.defaults;
      const key = this.idColumn >= 0 ? this.keyOf(record, this.idColumn) : undefined;
      const space = this.idColumn >= 0 ? this.spaces[this.idColumn]! : undefined;
      if (key !== undefined && space!.has(key)) throw new BadRow(`duplicate id ${JSON.stringify(key)}`);
      id = appender.appendNode(labels);
      if (key !== undefined) space!.set(key, id);
    } else {
      const type = (this.typeColumn >= 0 ? record.text(this.typeColumn) : '') || this.defaultType;
      if (!type) throw new BadRow('no relationship type (a :TYPE column or --relationships=TYPE)');
      if (this.startColumn < 0 || this.endColumn < 0) throw new BadRow('missing :START_ID or :END_ID column');
      if (this.resolvedEnds && record.startNode >= 0) id = appender.appendRel(type, record.startNode, record.endNode);
      else {
        const startKey = this.keyOf(record, this.startColumn);
        const endKey = this.keyOf(record, this.endColumn);
        const start = this.spaces[this.startColumn]!.get(startKey);
        const end = this.spaces[this.endColumn]!.get(endKey);
        if (start === undefined) throw new BadRow(`unknown start id ${JSON.stringify(startKey)}`);
        if (end === undefined) throw new BadRow(`unknown end id ${JSON.stringify(endKey)}`);
        id = appender.appendRel(type, start, end);
      }
    }
    if (this.stored) this.store(record, id);
  }

  /** Sets the fields `read` held as properties of entity `id`. */
  private store(record: CsvRecord, id: number): void {
    const { held, targets } = this;
    for (let c = 0; c < held.length; c++) {
      switch (held[c]) {
        case ABSENT:
          continue;
        case HAS_NUMBER:
          targets[c]!.set(id, this.numbers[c]);
          break;
        case HAS_TEXT: {
          const target = targets[c]!;
          if (record.ascii && target.kind === TEXT_KIND) target.setTextBytes(id, record.buf, record.fieldStart(c), record.fieldEnd(c));
          else target.set(id, record.text(c));
          break;
        }
        default:
          targets[c]!.set(id, this.values[c]!);
          this.values[c] = undefined;
      }
      this.appender.properties++;
    }
  }

  /** The input's labels with those of a `:LABEL` field added (the same array while the field repeats). */
  private labelsOf(text: string): string[] {
    if (text === this.lastLabelText) return this.lastLabels;
    const labels = [...this.input.defaults];
    for (const label of text.split(this.arrayDelimiter)) if (label && !labels.includes(label)) labels.push(label);
    this.lastLabelText = text;
    this.lastLabels = labels;
    return labels;
  }
}
