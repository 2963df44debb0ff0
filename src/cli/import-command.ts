/**
 * `graphdb import`: bulk-loads CSV files written in Neo4j admin-import header conventions
 * (`id:ID(space)`, `:LABEL`, `:START_ID(space)`, `:END_ID(space)`, `:TYPE`, typed, temporal
 * and array columns) into a data directory, all or nothing. Files are streamed row by row
 * (node files first, then relationship files) into arrays and property columns
 * (store/persist/bulk-append.ts), which are written as a new store of record in one atomic
 * step; a bad row stops the import before anything is written (or is reported and skipped
 * with --skip-bad-rows). On a terminal a progress line shows rows, rows/s and the ETA.
 */

import { createReadStream, statSync } from 'node:fs';
import { parse } from 'csv-parse';
import { Command } from 'commander';
import { Database } from '../engine/database.js';
import { FloatBox } from '../../runtime/scalars.js';
import { fromString, type TemporalKind } from '../../runtime/temporal/construct.js';
import { parseDuration } from '../../runtime/temporal/parse.js';
import type { Value } from '../store/entities.js';
import { BulkAppender, commitBulk } from '../store/persist/bulk-append.js';
import { CliUsageError } from './cli-error.js';
import type { CliIo } from './io.js';
import { writeLine } from './io.js';

type ScalarType = 'int' | 'long' | 'float' | 'double' | 'boolean' | 'string' | TemporalKind | 'duration';

interface Column {
  name: string;
  kind: 'id' | 'label' | 'start' | 'end' | 'type' | 'property' | 'ignore';
  idSpace: string;
  type: ScalarType;
  array: boolean;
}

interface InputFile {
  kind: 'nodes' | 'relationships';
  /** Labels or the relationship type given on the command line (`--nodes=A:B`, `--relationships=T`). */
  defaults: string[];
  path: string;
}

/** A row that cannot be imported, with its place (`file:line`). */
class BadRow extends Error {}

const SCALAR_TYPES = new Set<string>(['int', 'long', 'float', 'double', 'boolean', 'string', 'date', 'localtime', 'time', 'localdatetime', 'datetime', 'duration']);

function parseHeader(file: string, cells: string[]): Column[] {
  return cells.map((cell) => {
    const colon = cell.lastIndexOf(':');
    const name = colon < 0 ? cell : cell.slice(0, colon);
    const spec = colon < 0 ? 'string' : cell.slice(colon + 1);
    const spaced = /^(ID|START_ID|END_ID)(?:\((.*)\))?$/.exec(spec);
    const base: Column = { name, kind: 'property', idSpace: spaced?.[2] ?? '', type: 'string', array: false };
    if (spaced) return { ...base, kind: spaced[1] === 'ID' ? 'id' : spaced[1] === 'START_ID' ? 'start' : 'end' };
    if (spec === 'LABEL') return { ...base, kind: 'label' };
    if (spec === 'TYPE') return { ...base, kind: 'type' };
    if (spec === 'IGNORE') return { ...base, kind: 'ignore' };
    const array = spec.endsWith('[]');
    const type = (array ? spec.slice(0, -2) : spec).toLowerCase();
    if (!SCALAR_TYPES.has(type)) throw new CliUsageError(`${file}:1: unsupported column type ${JSON.stringify(spec)} in ${JSON.stringify(cell)}`);
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
      if (!/^[+-]?\d+$/.test(text.trim())) throw new BadRow(`${JSON.stringify(text)} is not an integer`);
      const big = BigInt(text.trim());
      return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
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

export interface ImportOptions {
  dataDir?: string;
  delimiter?: string;
  arrayDelimiter?: string;
  skipBadRows?: boolean;
}

/** Reads the `--nodes[=L]`/`--relationships[=T]` file arguments in command-line order. */
export function collectInputs(argv: readonly string[]): InputFile[] {
  const inputs: InputFile[] = [];
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(nodes|relationships)(?:=(.*))?$/.exec(argv[i]!);
    if (!m) continue;
    const path = argv[++i];
    if (path === undefined || path.startsWith('--')) throw new CliUsageError(`--${m[1]} needs a CSV file`);
    inputs.push({ kind: m[1] as InputFile['kind'], defaults: m[2] ? m[2].split(':').filter(Boolean) : [], path });
  }
  return inputs;
}

/** Rows, rows/s and (from bytes read) the ETA on one terminal line, at most 5 times a second. */
class ImportProgress {
  private readonly started = Date.now();
  private shown = 0;
  private rows = 0;

  constructor(
    private readonly io: CliIo,
    private readonly totalBytes: number,
  ) {}

  row(bytesDone: number): void {
    this.rows++;
    if (!this.io.stderr.isTTY || (this.rows & 1023) !== 0) return;
    const now = Date.now();
    if (now - this.shown < 200) return;
    this.shown = now;
    const seconds = (now - this.started) / 1000;
    const share = this.totalBytes > 0 ? Math.min(1, bytesDone / this.totalBytes) : 0;
    const eta = share > 0 ? seconds * (1 / share - 1) : 0;
    this.io.stderr.write(`\r${this.rows.toLocaleString('en-US')} rows, ${Math.round(this.rows / Math.max(seconds, 0.001)).toLocaleString('en-US')} rows/s, ${(share * 100).toFixed(0)}%, ETA ${eta.toFixed(0)} s   `);
  }

  done(): void {
    if (this.io.stderr.isTTY && this.shown > 0) this.io.stderr.write('\r\x1b[K');
  }
}

/** Parses every file into the appender (node files first), then writes it all at once; returns the exit status. */
export async function runImport(inputs: InputFile[], options: ImportOptions, io: CliIo): Promise<number> {
  if (!options.dataDir) throw new CliUsageError('graphdb import needs --data-dir');
  if (inputs.length === 0) throw new CliUsageError('graphdb import needs at least one --nodes or --relationships file');
  const started = Date.now();
  const delimiter = options.delimiter ?? ',';
  const arrayDelimiter = options.arrayDelimiter ?? ';';
  const ordered = [...inputs.filter((i) => i.kind === 'nodes'), ...inputs.filter((i) => i.kind === 'relationships')];
  let totalBytes = 0;
  for (const input of ordered) {
    try {
      totalBytes += statSync(input.path).size;
    } catch (err) {
      throw new CliUsageError(`${input.path}: ${(err as Error).message}`);
    }
  }
  const db = await Database.open({ dataDir: options.dataDir, storage: { snapshotOnClose: false } });
  try {
    const appender = new BulkAppender(db.graph);
    const idOf = new Map<string, number>();
    const progress = new ImportProgress(io, totalBytes);
    let bytesBefore = 0;
    let skipped = 0;
    const bad = (where: string, reason: string): void => {
      if (!options.skipBadRows) throw new CliUsageError(`${where}: ${reason} (nothing was imported)`);
      writeLine(io.stderr, `skipped ${where}: ${reason}`);
      skipped++;
    };
    for (const input of ordered) {
      const stream = createReadStream(input.path);
      const parser = stream.pipe(parse({ delimiter, relax_column_count: true, skip_empty_lines: true }));
      let columns: Column[] | undefined;
      // Rows are handled in 'data' events, which the parser emits as it reaches each record's
      // end, so `parser.info.lines` is that record's last line (a quoted field may span lines).
      const onRecord = (record: string[]): void => {
        if (columns === undefined) {
          columns = parseHeader(input.path, record);
          return;
        }
        try {
          addRow(input, columns, record, arrayDelimiter, appender, idOf);
        } catch (err) {
          if (!(err instanceof BadRow)) throw err;
          bad(`${input.path}:${parser.info.lines}`, err.message);
        }
        progress.row(bytesBefore + stream.bytesRead);
      };
      try {
        await new Promise<void>((resolve, reject) => {
          parser.on('data', (record: string[]) => {
            try {
              onRecord(record);
            } catch (err) {
              parser.destroy();
              reject(err);
            }
          });
          parser.on('end', resolve);
          parser.on('error', reject);
          stream.on('error', reject);
        });
      } catch (err) {
        if (err instanceof CliUsageError) throw err;
        throw new CliUsageError(`${input.path}: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        stream.destroy();
      }
      if (columns === undefined) throw new CliUsageError(`${input.path}: the file has no header`);
      bytesBefore += stream.bytesRead;
    }
    progress.done();
    commitBulk(db, options.dataDir, appender, undefined);
    const seconds = (Date.now() - started) / 1000;
    const rows = appender.nodeCount + appender.relCount;
    writeLine(
      io.stdout,
      `Imported ${appender.nodeCount} nodes, ${appender.relCount} relationships, ${appender.properties} properties in ${seconds.toFixed(2)} s (${Math.round(rows / Math.max(seconds, 0.001))} rows/s)` +
        (skipped ? `; skipped ${skipped} bad rows` : ''),
    );
    return 0;
  } finally {
    db.close();
  }
}

/** Validates one data row and appends it; a problem throws BadRow. */
function addRow(input: InputFile, columns: Column[], row: string[], arrayDelimiter: string, appender: BulkAppender, idOf: Map<string, number>): void {
  if (row.length !== columns.length) throw new BadRow(`expected ${columns.length} columns, found ${row.length}`);
  const props: [string, Value][] = [];
  const labels = [...input.defaults];
  let key: string | null = null;
  let type = input.kind === 'relationships' ? (input.defaults[0] ?? '') : '';
  let start: string | undefined;
  let end: string | undefined;
  for (let c = 0; c < columns.length; c++) {
    const col = columns[c];
    const text = row[c];
    if (col.kind === 'id') {
      key = `${col.idSpace}\u0000${text}`;
      if (col.name) props.push([col.name, text]);
    } else if (col.kind === 'label') {
      for (const label of text.split(arrayDelimiter)) if (label && !labels.includes(label)) labels.push(label);
    } else if (col.kind === 'type') type = text || type;
    else if (col.kind === 'start') start = `${col.idSpace}\u0000${text}`;
    else if (col.kind === 'end') end = `${col.idSpace}\u0000${text}`;
    else if (col.kind === 'property' && text !== '') {
      try {
        props.push([col.name, col.array ? text.split(arrayDelimiter).map((t) => convert(t, col.type)) : convert(text, col.type)]);
      } catch (err) {
        throw new BadRow(`column ${col.name}: ${(err as Error).message}`);
      }
    }
  }
  if (input.kind === 'nodes') {
    if (key !== null && idOf.has(key)) throw new BadRow(`duplicate id ${JSON.stringify(String(key).split('\u0000')[1])}`);
    const id = appender.addNode(labels, props);
    if (key !== null) idOf.set(key, id);
    return;
  }
  if (!type) throw new BadRow('no relationship type (a :TYPE column or --relationships=TYPE)');
  if (start === undefined || end === undefined) throw new BadRow('missing :START_ID or :END_ID column');
  const startId = idOf.get(start);
  const endId = idOf.get(end);
  if (startId === undefined) throw new BadRow(`unknown start id ${JSON.stringify(start.split('\u0000')[1])}`);
  if (endId === undefined) throw new BadRow(`unknown end id ${JSON.stringify(end.split('\u0000')[1])}`);
  appender.addRel(type, startId, endId, props);
}

/** Registers `graphdb import` on the program. */
export function registerImportCommand(program: Command, io: CliIo, setStatus: (status: number) => void): void {
  program
    .command('import')
    .description('bulk-load CSV files (Neo4j admin-import headers) into --data-dir, all or nothing')
    .option('--delimiter <char>', 'field delimiter (default ,)')
    .option('--array-delimiter <char>', 'delimiter inside array columns and :LABEL (default ;)')
    .option('--skip-bad-rows', 'report and skip bad rows instead of importing nothing')
    .allowUnknownOption(true)
    .allowExcessArguments(true)
    .addHelpText('after', '\nFiles: --nodes[=Label[:Label2]] <file> and --relationships[=TYPE] <file> (repeatable).\nExample:\n  graphdb import --data-dir db --nodes=Person people.csv --relationships=KNOWS knows.csv\n')
    .action(async (_options: unknown, command: Command) => {
      const opts = command.optsWithGlobals<ImportOptions>();
      setStatus(await runImport(collectInputs(command.args), opts, io));
    });
}
