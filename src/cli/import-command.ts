/**
 * `graphdb import`: bulk-loads CSV files written in Neo4j admin-import header conventions
 * (`id:ID(space)`, `:LABEL`, `:START_ID(space)`, `:END_ID(space)`, `:TYPE`, typed and array
 * columns) into a data directory in one write transaction, so that an import is all or nothing.
 * Every file and row is validated before anything is written.
 */

import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { Command } from 'commander';
import { Database } from '../engine/database.js';
import type { Value } from '../store/entities.js';
import { CliUsageError } from './cli-error.js';
import type { CliIo } from './io.js';
import { writeLine } from './io.js';

type ScalarType = 'int' | 'long' | 'float' | 'double' | 'boolean' | 'string';

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

interface PlannedNode { key: string | null; labels: string[]; props: Map<string, Value> }
interface PlannedRel { type: string; start: string; end: string; props: Map<string, Value> }

/** A row that cannot be imported, with its place (`file:line`). */
class BadRow extends Error {}

const SCALAR_TYPES = new Set<string>(['int', 'long', 'float', 'double', 'boolean', 'string']);

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
      return n;
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

/** Validates every file, then writes everything in one transaction; returns the exit status. */
export async function runImport(inputs: InputFile[], options: ImportOptions, io: CliIo): Promise<number> {
  if (!options.dataDir) throw new CliUsageError('graphdb import needs --data-dir');
  if (inputs.length === 0) throw new CliUsageError('graphdb import needs at least one --nodes or --relationships file');
  const started = Date.now();
  const delimiter = options.delimiter ?? ',';
  const arrayDelimiter = options.arrayDelimiter ?? ';';
  const nodes: PlannedNode[] = [];
  const rels: PlannedRel[] = [];
  const keys = new Set<string>();
  let skipped = 0;
  let properties = 0;
  const bad = (where: string, reason: string): void => {
    if (!options.skipBadRows) throw new CliUsageError(`${where}: ${reason} (nothing was imported)`);
    writeLine(io.stderr, `skipped ${where}: ${reason}`);
    skipped++;
  };
  const relRows: { where: string; rel: PlannedRel }[] = [];
  for (const input of inputs) {
    let records: string[][];
    try {
      records = parse(readFileSync(input.path, 'utf8'), { delimiter, relax_column_count: true, skip_empty_lines: true }) as string[][];
    } catch (err) {
      throw new CliUsageError(`${input.path}: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (records.length === 0) throw new CliUsageError(`${input.path}: the file has no header`);
    const columns = parseHeader(input.path, records[0]!);
    for (let r = 1; r < records.length; r++) {
      const row = records[r]!;
      const where = `${input.path}:${r + 1}`;
      try {
        if (row.length !== columns.length) throw new BadRow(`expected ${columns.length} columns, found ${row.length}`);
        const props = new Map<string, Value>();
        const labels = [...input.defaults];
        let key: string | null = null;
        let type = input.kind === 'relationships' ? (input.defaults[0] ?? '') : '';
        let start = '';
        let end = '';
        columns.forEach((col, c) => {
          const text = row[c]!;
          if (col.kind === 'id') {
            key = `${col.idSpace}\u0000${text}`;
            if (col.name) props.set(col.name, text);
          } else if (col.kind === 'label') labels.push(...text.split(arrayDelimiter).filter(Boolean));
          else if (col.kind === 'type') type = text || type;
          else if (col.kind === 'start') start = `${col.idSpace}\u0000${text}`;
          else if (col.kind === 'end') end = `${col.idSpace}\u0000${text}`;
          else if (col.kind === 'property' && text !== '') {
            try {
              props.set(col.name, col.array ? text.split(arrayDelimiter).map((t) => convert(t, col.type)) : convert(text, col.type));
            } catch (err) {
              throw new BadRow(`column ${col.name}: ${(err as Error).message}`);
            }
          }
        });
        if (input.kind === 'nodes') {
          if (key !== null && keys.has(key)) throw new BadRow(`duplicate id ${JSON.stringify(String(key).split('\u0000')[1])}`);
          if (key !== null) keys.add(key);
          nodes.push({ key, labels, props });
        } else {
          if (!type) throw new BadRow('no relationship type (a :TYPE column or --relationships=TYPE)');
          if (!columns.some((c) => c.kind === 'start') || !columns.some((c) => c.kind === 'end')) throw new BadRow('missing :START_ID or :END_ID column');
          relRows.push({ where, rel: { type, start, end, props } });
        }
      } catch (err) {
        if (!(err instanceof BadRow)) throw err;
        bad(where, err.message);
      }
    }
  }
  for (const { where, rel } of relRows) {
    const missing = [rel.start, rel.end].find((k) => !keys.has(k));
    if (missing !== undefined) bad(where, `unknown ${missing === rel.start ? 'start' : 'end'} id ${JSON.stringify(missing.split('\u0000')[1])}`);
    else rels.push(rel);
  }
  const db = await Database.open({ dataDir: options.dataDir });
  try {
    db.writeTransaction((graph) => {
      const byKey = new Map<string, ReturnType<typeof graph.createNode>>();
      nodes.forEach((n, i) => {
        const node = graph.createNode(n.labels, n.props);
        properties += n.props.size;
        if (n.key !== null) byKey.set(n.key, node);
        if (io.stderr.isTTY && i % 10000 === 0) io.stderr.write(`\rnodes ${i}/${nodes.length}`);
      });
      for (const r of rels) {
        graph.createRel(r.type, byKey.get(r.start)!, byKey.get(r.end)!, r.props);
        properties += r.props.size;
      }
    });
  } finally {
    db.close();
  }
  const seconds = (Date.now() - started) / 1000;
  const rows = nodes.length + rels.length;
  writeLine(
    io.stdout,
    `Imported ${nodes.length} nodes, ${rels.length} relationships, ${properties} properties in ${seconds.toFixed(2)} s (${Math.round(rows / Math.max(seconds, 0.001))} rows/s)` +
      (skipped ? `; skipped ${skipped} bad rows` : ''),
  );
  return 0;
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
