/**
 * CSV import in Neo4j admin-import header conventions (`id:ID(space)`, `:LABEL`,
 * `:START_ID(space)`, `:END_ID(space)`, `:TYPE`, `:IGNORE`, typed, temporal and array columns),
 * for `graphdb import` and for embedders (`importCsv`). Files are streamed row by row — node
 * files first, then relationship files — and each row is checked and appended to arrays and
 * property columns (store/persist/bulk-append.ts); nothing is written until every file is read,
 * so a bad row stops the import with nothing written (or is reported and skipped). Then:
 * a data directory gets a new store of record swapped in atomically (`commitBulk`), an empty
 * in-memory graph is bulk-loaded, and anything with indexes or constraints (or an in-memory
 * graph that is not empty) takes one write transaction.
 */

import { createReadStream, statSync } from 'node:fs';
import { parse } from 'csv-parse';
import { FloatBox } from '../../runtime/scalars.js';
import { fromString, type TemporalKind } from '../../runtime/temporal/construct.js';
import { parseDuration } from '../../runtime/temporal/parse.js';
import { ArgumentError } from '../errors.js';
import type { Value } from '../store/entities.js';
import { BulkAppender, commitBulk, commitInTransaction } from '../store/persist/bulk-append.js';
import { schemaDefinition } from '../store/persist/schema-def.js';
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

export type IdType = 'string' | 'integer';

export interface ImportOptions {
  delimiter?: string;
  arrayDelimiter?: string;
  /** Report (through `onSkip`) and skip bad rows instead of stopping. */
  skipBadRows?: boolean;
  /** How an `:ID` column's value is stored as a property: text (the default) or an integer. */
  idType?: IdType;
  onSkip?: (where: string, reason: string) => void;
  /** Called after each row with the rows so far and bytes read of all files. */
  onRow?: (rows: number, bytesDone: number, totalBytes: number) => void;
}

export interface ImportSummary {
  nodes: number;
  relationships: number;
  properties: number;
  skipped: number;
  /** How it was written (see the module comment). */
  path: 'store' | 'memory' | 'transaction';
}

/** Imports `inputs` into `db` (see the module comment). A bad row not skipped throws ArgumentError (`InvalidImportRow`) naming `file:line`. */
export async function importCsv(db: Database, inputs: readonly ImportInput[], options: ImportOptions = {}): Promise<ImportSummary> {
  const delimiter = options.delimiter ?? ',';
  const arrayDelimiter = options.arrayDelimiter ?? ';';
  const idType = options.idType ?? 'string';
  const ordered = [...inputs.filter((i) => i.kind === 'nodes'), ...inputs.filter((i) => i.kind === 'relationships')];
  let totalBytes = 0;
  for (const input of ordered) {
    try {
      totalBytes += statSync(input.path).size;
    } catch (err) {
      throw new ArgumentError(`${input.path}: ${(err as Error).message}`, 'InvalidImportFile');
    }
  }
  const appender = new BulkAppender(db.graph);
  const idOf = new Map<string, number>();
  let bytesBefore = 0;
  let rows = 0;
  let skipped = 0;
  for (const input of ordered) {
    const stream = createReadStream(input.path);
    const parser = stream.pipe(parse({ delimiter, relax_column_count: true, skip_empty_lines: true }));
    let columns: Column[] | undefined;
    let replaceHeader = input.header !== undefined;
    // Rows are handled in 'data' events, which the parser emits as it reaches each record's
    // end, so `parser.info.lines` is that record's last line (a quoted field may span lines).
    const onRecord = (record: string[]): void => {
      if (columns === undefined || replaceHeader) {
        columns = parseHeader(input.path, input.header ?? record, idType);
        replaceHeader = false;
        return;
      }
      try {
        addRow(input, columns, record, arrayDelimiter, appender, idOf);
      } catch (err) {
        if (!(err instanceof BadRow)) throw err;
        const where = `${input.path}:${parser.info.lines}`;
        if (!options.skipBadRows) throw new ArgumentError(`${where}: ${err.message} (nothing was imported)`, 'InvalidImportRow');
        options.onSkip?.(where, err.message);
        skipped++;
      }
      options.onRow?.(++rows, bytesBefore + stream.bytesRead, totalBytes);
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
      if (err instanceof ArgumentError) throw err;
      throw new ArgumentError(`${input.path}: ${err instanceof Error ? err.message : String(err)}`, 'InvalidImportFile');
    } finally {
      stream.destroy();
    }
    if (columns === undefined) throw new ArgumentError(`${input.path}: the file has no header`, 'InvalidImportFile');
    bytesBefore += stream.bytesRead;
  }
  const summary = { nodes: appender.nodeCount, relationships: appender.relCount, properties: appender.properties, skipped };
  if (db.storage !== undefined) return { ...summary, path: commitBulk(db, appender, undefined) };
  const schema = schemaDefinition(db.schema);
  const plain = schema.indexes.length === 0 && schema.constraints.length === 0 && (schema.extensions?.length ?? 0) === 0;
  if (plain && db.graph.nodeCount === 0 && db.graph.relCount === 0 && !db.graph.inTransaction) {
    db.graph.bulkLoad(appender.union());
    return { ...summary, path: 'memory' };
  }
  commitInTransaction(db, appender);
  return { ...summary, path: 'transaction' };
}

/** Validates one data row and appends it; a problem throws BadRow. */
function addRow(input: ImportInput, columns: Column[], row: string[], arrayDelimiter: string, appender: BulkAppender, idOf: Map<string, number>): void {
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
      if (col.name) {
        try {
          props.push([col.name, convert(text, col.type)]);
        } catch (err) {
          throw new BadRow(`column ${col.name}: ${(err as Error).message}`);
        }
      }
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

