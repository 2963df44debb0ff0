/**
 * LOAD CSV: reads a local CSV file (a `file:///` URL or a path) into rows — lists of
 * strings, or maps keyed by the header line with WITH HEADERS. An unquoted empty field is
 * null, a quoted one the empty string. Which files may be read, and how, is the database's
 * `FileAccessPolicy` (file-access.ts): servers allow none, or only their import directory.
 */

import { resolve as resolvePath } from 'node:path';
import { parse } from 'csv-parse/sync';
import { ArgumentError, ValueTypeError } from '../../src/errors.js';
import type { Value } from '../values.js';
import { describe } from '../types.js';
import { FileAccessPolicy } from './file-access.js';

export interface CsvOptions {
  /** Which files LOAD CSV may read; undefined: any local file (embedded use). */
  access?: FileAccessPolicy;
  /** Throws when the query is past its time limit; called while a file is read. */
  checkDeadline?: () => void;
}

const LOCAL = FileAccessPolicy.local();

/** The rows LOAD CSV read, with the line each ends on (a quoted field may span lines) and the file they came from (`linenumber()`, `file()`). */
export interface CsvRows {
  rows: Value[];
  lines: number[];
  file: string;
}

export function loadCsv(url: Value, withHeaders: boolean, fieldTerminator: string | null, options: CsvOptions): CsvRows {
  if (typeof url !== 'string') throw new ValueTypeError(`LOAD CSV needs a string URL, got ${describe(url)}`, 'InvalidArgumentType');
  const text = (options.access ?? LOCAL).readText(url, 'LOAD CSV', options.checkDeadline);
  let parsed: { record: (string | null)[]; info: { lines: number } }[];
  try {
    parsed = parse(text, {
      delimiter: fieldTerminator ?? ',',
      relax_column_count: true,
      bom: true,
      skip_empty_lines: true,
      info: true,
      cast: (value, context) => (value === '' && !context.quoting ? null : value),
    }) as unknown as { record: (string | null)[]; info: { lines: number } }[];
  } catch (err) {
    throw new ArgumentError(`LOAD CSV cannot parse ${url}: ${(err as Error).message}`, 'CsvParseFailed');
  }
  const file = resolvePath(url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url);
  const lines = parsed.map((p) => p.info.lines);
  if (!withHeaders) return { rows: parsed.map((p) => p.record), lines, file };
  const [header, ...rows] = parsed.map((p) => p.record);
  if (header === undefined) return { rows: [], lines: [], file };
  return { rows: rows.map((r) => new Map<string, Value>(header.map((h, i) => [h ?? '', r[i] ?? null]))), lines: lines.slice(1), file };
}
