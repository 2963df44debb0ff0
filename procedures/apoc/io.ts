/**
 * Files in and out: `apoc.load.json` / `jsonArray`, `apoc.import.csv` (neo4j-admin header
 * format: `id:ID`, `:LABEL`, `:START_ID`, `:END_ID`, `:TYPE`, `name:int`, `tags:string[]`)
 * and `apoc.export.json.all` / `json.query` / `csv.query`. Every path goes through the host's
 * file rule — the one LOAD CSV obeys — so an import root confines them and URLs with a
 * scheme other than file: are refused (no network). An export with no file name returns
 * its text in `data` instead of writing; an export creates a new file, replacing one that
 * exists only with `{overwrite: true}`, and never writes through a link or into a FIFO.
 */

import { createRequire } from 'node:module';

// csv-parse is required by the first CSV read, not on import.
const csv = (): typeof import('csv-parse/sync') => createRequire(import.meta.url)('csv-parse/sync') as typeof import('csv-parse/sync');
import { ArgumentError } from '../../src/errors.js';
import { Node, Rel } from '../../src/store/entities.js';
import { createNode, createRel } from '../../runtime/graph/writes.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import { jsonPath, jsonValue, parseJsonText, toJsonText } from '../../functions/apoc/json.js';
import type { ProcedureContext, ProcedureRegistry } from '../registry.js';
import { badArgument, field, hostOf, invalidArgument, mapOrEmpty, option, procedure, requiredString, withAccess } from '../define.js';

function readText(ctx: ProcedureContext, proc: string, arg: string, url: Value): string {
  return hostOf(ctx, proc).readText(requiredString(url, proc, arg), proc);
}

function loadJson(ctx: ProcedureContext, proc: string, url: Value, path: Value): Value {
  const text = readText(ctx, proc, 'url', url);
  // JSON Lines: one document per line.
  const trimmed = text.trim();
  const parsed = trimmed.startsWith('{') && trimmed.includes('\n{') ? trimmed.split(/\r?\n/).filter((l) => l.trim() !== '').map((l) => parseJsonText(l, proc)) : parseJsonText(text, proc);
  return typeof path === 'string' && path !== '' ? jsonPath(parsed, path) : parsed;
}

const EXPORT_OUT = [
  field('file', 'STRING'),
  field('source', 'STRING'),
  field('format', 'STRING'),
  field('nodes', 'INTEGER'),
  field('relationships', 'INTEGER'),
  field('properties', 'INTEGER'),
  field('time', 'INTEGER'),
  field('rows', 'INTEGER'),
  field('batchSize', 'INTEGER'),
  field('batches', 'INTEGER'),
  field('done', 'BOOLEAN'),
  field('data', 'STRING'),
];

interface ExportCounts {
  nodes: number;
  rels: number;
  props: number;
  rows: number;
}

/** Writes `text` to the file (or returns it as data when the file name is empty) and builds the result row. */
function finishExport(ctx: ProcedureContext, proc: string, file: Value, config: Value, source: string, format: string, text: string, counts: ExportCounts, started: number): Value[][] {
  let data: string | null = null;
  let name: string | null = null;
  const overwrite = option(mapOrEmpty(config, proc, 'config'), 'overwrite', false);
  if (typeof overwrite !== 'boolean') throw badArgument(proc, 'config', overwrite, 'a boolean overwrite');
  if (file === null || file === '') data = text;
  else {
    name = requiredString(file, proc, 'file');
    hostOf(ctx, proc).writeText(name, proc, text, overwrite);
  }
  return [[name, source, format, counts.nodes, counts.rels, counts.props, Math.round(performance.now() - started), counts.rows, 20000, 1, true, data]];
}

function countEntity(v: Value, c: ExportCounts, seen: Set<unknown>): void {
  if (Array.isArray(v)) for (const x of v) countEntity(x, c, seen);
  else if (v instanceof Node) {
    if (seen.has(v)) return;
    seen.add(v);
    c.nodes++;
    c.props += v.propertyMap().size;
  } else if (v instanceof Rel) {
    if (seen.has(v)) return;
    seen.add(v);
    c.rels++;
  }
}

function csvCell(v: Value): string {
  if (v === null) return '';
  const js = jsonValue(v);
  const s = typeof js === 'string' ? js : typeof js === 'object' ? JSON.stringify(js) : String(js);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A typed cell of apoc.import.csv: `name:int`, `tags:string[]` (elements split on `;`). */
function convertCell(raw: string, type: string, proc: string): Value {
  const isArray = type.endsWith('[]');
  const base = isArray ? type.slice(0, -2) : type;
  const one = (s: string): Value => {
    switch (base) {
      case '':
      case 'string':
        return s;
      case 'int':
      case 'long':
      case 'short':
      case 'byte': {
        if (!/^-?\d+$/.test(s.trim())) throw new ArgumentError(`${proc}: '${s}' is not an integer (column type ${type})`, 'InvalidCsvValue');
        const n = BigInt(s.trim());
        return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
      }
      case 'float':
      case 'double': {
        const x = Number(s);
        if (s.trim() === '' || Number.isNaN(x)) throw new ArgumentError(`${proc}: '${s}' is not a number (column type ${type})`, 'InvalidCsvValue');
        return Number.isInteger(x) ? new FloatBox(x) : x;
      }
      case 'boolean':
        return s.trim().toLowerCase() === 'true';
      default:
        throw new ArgumentError(`${proc}: unknown column type '${type}'`, 'InvalidCsvHeader');
    }
  };
  return isArray ? raw.split(';').map(one) : one(raw);
}

function readCsv(ctx: ProcedureContext, proc: string, spec: Value, delimiter: string): { header: string[]; rows: string[][]; spec: Map<string, Value> } {
  const m = mapOrEmpty(spec, proc, 'nodes');
  const text = readText(ctx, proc, 'fileName', m.get('fileName') ?? null);
  let records: string[][];
  try {
    records = csv().parse(text, { delimiter, relax_column_count: true, bom: true }) as string[][];
  } catch (err) {
    throw new ArgumentError(`${proc}: ${(err as Error).message}`, 'InvalidCsv');
  }
  const [header = [], ...rows] = records;
  return { header, rows, spec: m };
}

function columnsOf(header: string[]): { name: string; type: string }[] {
  return header.map((h) => {
    const i = h.lastIndexOf(':');
    return i < 0 ? { name: h, type: '' } : { name: h.slice(0, i), type: h.slice(i + 1).replace(/\(.*\)$/, '').toLowerCase() };
  });
}

export function registerApocIo(registry: ProcedureRegistry): void {
  registry.register(
    procedure(
      'apoc.load.json',
      'read',
      'Reads a local JSON (or JSON Lines) file: one row per object (per element of a top-level array), optionally below a $.path.',
      [field('urlOrKeyOrBinary', 'ANY'), field('path', 'STRING', ''), field('config', 'MAP', new Map())],
      [field('value', 'MAP')],
      (ctx, [url, path]) => {
        const v = loadJson(ctx, 'apoc.load.json', url, path);
        const items = Array.isArray(v) ? v : [v];
        return items.filter((x) => x instanceof Map).map((x) => [x]);
      },
    ),
  );
  registry.register(
    procedure('apoc.load.jsonArray', 'read', 'Reads a local JSON file holding an array: one row per element, optionally below a $.path.', [field('url', 'STRING'), field('path', 'STRING', ''), field('config', 'MAP', new Map())], [field('value', 'ANY')], (ctx, [url, path]) => {
      const v = loadJson(ctx, 'apoc.load.jsonArray', url, path);
      if (!Array.isArray(v)) throw invalidArgument('apoc.load.jsonArray', 'url', 'names a file that does not hold a JSON array');
      return v.map((x) => [x]);
    }),
  );
  registry.register(
    procedure(
      'apoc.import.csv',
      'write',
      'Imports nodes and relationships from CSV files in neo4j-admin header format ({fileName, labels} and {fileName, type} maps; config: delimiter).',
      [field('nodes', 'LIST<MAP>'), field('rels', 'LIST<MAP>'), field('config', 'MAP')],
      EXPORT_OUT,
      (ctx, [nodes, rels, config]) => {
        const started = performance.now();
        const proc = 'apoc.import.csv';
        const cfg = mapOrEmpty(config, proc, 'config');
        const delimiter = option(cfg, 'delimiter', ',');
        if (typeof delimiter !== 'string' || delimiter.length !== 1) throw invalidArgument(proc, 'config', 'has a delimiter that is not one character');
        const byId = new Map<string, Node>();
        const counts: ExportCounts = { nodes: 0, rels: 0, props: 0, rows: 0 };
        for (const spec of (nodes ?? []) as Value[]) {
          const { header, rows, spec: m } = readCsv(ctx, proc, spec, delimiter);
          const cols = columnsOf(header);
          const fixedLabels = (m.get('labels') ?? []) as Value[];
          for (const row of rows) {
            ctx.checkDeadline();
            const labels = fixedLabels.filter((l): l is string => typeof l === 'string');
            const props = new Map<string, Value>();
            let id: string | undefined;
            cols.forEach((c, i) => {
              const raw = row[i] ?? '';
              if (c.type === 'id') {
                id = raw;
                if (c.name !== '') props.set(c.name, raw);
              } else if (c.type === 'label') labels.push(...raw.split(';').filter((l) => l !== ''));
              else if (raw !== '' && c.type !== 'ignore') props.set(c.name, convertCell(raw, c.type, proc));
            });
            const n = createNode(ctx.graph, labels, props, false);
            if (id !== undefined) byId.set(id, n);
            counts.nodes++;
            counts.props += props.size;
            counts.rows++;
          }
        }
        for (const spec of (rels ?? []) as Value[]) {
          const { header, rows, spec: m } = readCsv(ctx, proc, spec, delimiter);
          const cols = columnsOf(header);
          for (const row of rows) {
            ctx.checkDeadline();
            let start: Node | undefined;
            let end: Node | undefined;
            let type = typeof m.get('type') === 'string' ? (m.get('type') as string) : '';
            const props = new Map<string, Value>();
            cols.forEach((c, i) => {
              const raw = row[i] ?? '';
              if (c.type === 'start_id') start = byId.get(raw);
              else if (c.type === 'end_id') end = byId.get(raw);
              else if (c.type === 'type') type = raw;
              else if (raw !== '' && c.type !== 'ignore') props.set(c.name, convertCell(raw, c.type, proc));
            });
            if (!start || !end) throw invalidArgument(proc, 'rels', `has a row (${row.join(delimiter)}) whose start or end id was not imported`);
            if (type === '') throw invalidArgument(proc, 'rels', 'has a row without a relationship type (no :TYPE column and no type in the map)');
            createRel(ctx.graph, type, start, end, props, false);
            counts.rels++;
            counts.props += props.size;
            counts.rows++;
          }
        }
        return [[null, 'file', 'csv', counts.nodes, counts.rels, counts.props, Math.round(performance.now() - started), counts.rows, 20000, 1, true, null]];
      },
    ),
  );
  registry.register(
    withAccess('files', procedure('apoc.export.json.all', 'read', 'Writes the whole graph as JSON Lines (one node or relationship per line); with an empty file name returns the text in data.', [field('file', 'STRING'), field('config', 'MAP', new Map())], EXPORT_OUT, (ctx, [file, config]) => {
      const started = performance.now();
      const lines: string[] = [];
      const counts: ExportCounts = { nodes: 0, rels: 0, props: 0, rows: 0 };
      for (const n of ctx.graph.allNodes()) {
        lines.push(toJsonText(n));
        counts.nodes++;
        counts.props += n.propertyMap().size;
      }
      for (const r of ctx.graph.allRels()) {
        lines.push(toJsonText(r));
        counts.rels++;
        counts.props += r.propertyMap().size;
      }
      counts.rows = lines.length;
      ctx.checkDeadline();
      return finishExport(ctx, 'apoc.export.json.all', file, config, `database: nodes(${counts.nodes}), rels(${counts.rels})`, 'json', lines.join('\n') + (lines.length ? '\n' : ''), counts, started);
    })),
  );
  registry.register(
    withAccess('files', procedure('apoc.export.json.query', 'read', 'Writes the rows of a read query as JSON Lines (one object per row); with an empty file name returns the text in data.', [field('query', 'STRING'), field('file', 'STRING'), field('config', 'MAP', new Map())], EXPORT_OUT, (ctx, [query, file, config]) => {
      const started = performance.now();
      const cfg = mapOrEmpty(config, 'apoc.export.json.query', 'config');
      const r = hostOf(ctx, 'apoc.export.json.query').runNested(requiredString(query, 'apoc.export.json.query', 'query'), mapOrEmpty(option(cfg, 'params', new Map()), 'apoc.export.json.query', 'config'), false);
      const counts: ExportCounts = { nodes: 0, rels: 0, props: 0, rows: r.records.length };
      const seen = new Set<unknown>();
      const lines = r.records.map((row) => {
        row.forEach((v) => countEntity(v, counts, seen));
        return toJsonText(new Map(r.columns.map((c, i) => [c, row[i]])));
      });
      return finishExport(ctx, 'apoc.export.json.query', file, config, `statement: cols(${r.columns.length})`, 'json', lines.join('\n') + (lines.length ? '\n' : ''), counts, started);
    })),
  );
  registry.register(
    withAccess('files', procedure('apoc.export.csv.query', 'read', 'Writes the rows of a read query as CSV with a header line; with an empty file name returns the text in data.', [field('query', 'STRING'), field('file', 'STRING'), field('config', 'MAP', new Map())], EXPORT_OUT, (ctx, [query, file, config]) => {
      const started = performance.now();
      const cfg = mapOrEmpty(config, 'apoc.export.csv.query', 'config');
      const delimiter = option(cfg, 'delim', ',');
      if (typeof delimiter !== 'string') throw badArgument('apoc.export.csv.query', 'config', delimiter, 'a string delim');
      const r = hostOf(ctx, 'apoc.export.csv.query').runNested(requiredString(query, 'apoc.export.csv.query', 'query'), mapOrEmpty(option(cfg, 'params', new Map()), 'apoc.export.csv.query', 'config'), false);
      const counts: ExportCounts = { nodes: 0, rels: 0, props: 0, rows: r.records.length };
      const seen = new Set<unknown>();
      const lines = [r.columns.map((c) => csvCell(c)).join(delimiter)];
      for (const row of r.records) {
        row.forEach((v) => countEntity(v, counts, seen));
        lines.push(row.map(csvCell).join(delimiter));
      }
      return finishExport(ctx, 'apoc.export.csv.query', file, config, `statement: cols(${r.columns.length})`, 'csv', lines.join('\n') + '\n', counts, started);
    })),
  );
}
