/**
 * LOAD CSV: reads a local CSV file (a `file:///` URL or a path) into rows — lists of
 * strings, or maps keyed by the header line with WITH HEADERS. An unquoted empty field is
 * null, a quoted one the empty string. When the database has an import root, paths must
 * resolve inside it, so a server cannot be made to read arbitrary files.
 */

import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { ArgumentError, ValueTypeError } from '../../src/errors.js';
import type { Value } from '../values.js';
import { describe } from '../types.js';

export interface CsvOptions {
  /** Directory every LOAD CSV path must stay inside; undefined allows any local file. */
  importRoot?: string;
}

function localPath(url: string, options: CsvOptions): string {
  let path: string;
  if (/^file:/i.test(url)) {
    try {
      path = fileURLToPath(url);
    } catch {
      throw new ArgumentError(`LOAD CSV cannot read ${url}: not a valid file URL`, 'InvalidCsvUrl');
    }
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    throw new ArgumentError(`LOAD CSV reads local files only (file:///…), not ${url}`, 'InvalidCsvUrl');
  } else {
    path = url;
  }
  if (options.importRoot !== undefined) {
    const root = resolve(options.importRoot);
    const full = resolve(root, isAbsolute(path) ? `.${path}` : path);
    const rel = relative(root, full);
    if (rel.startsWith('..') || isAbsolute(rel)) {
      throw new ArgumentError(`LOAD CSV path ${url} is outside the import directory`, 'InvalidCsvUrl');
    }
    return full;
  }
  return resolve(path);
}

export function loadCsv(url: Value, withHeaders: boolean, fieldTerminator: string | null, options: CsvOptions): Value[] {
  if (typeof url !== 'string') throw new ValueTypeError(`LOAD CSV needs a string URL, got ${describe(url)}`, 'InvalidArgumentType');
  const path = localPath(url, options);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ArgumentError(`LOAD CSV cannot read ${url}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 'CsvReadFailed');
  }
  let records: (string | null)[][];
  try {
    records = parse(text, {
      delimiter: fieldTerminator ?? ',',
      relax_column_count: true,
      bom: true,
      skip_empty_lines: true,
      cast: (value, context) => (value === '' && !context.quoting ? null : value),
    }) as (string | null)[][];
  } catch (err) {
    throw new ArgumentError(`LOAD CSV cannot parse ${url}: ${(err as Error).message}`, 'CsvParseFailed');
  }
  if (!withHeaders) return records;
  const [header, ...rows] = records;
  if (header === undefined) return [];
  return rows.map((r) => new Map<string, Value>(header.map((h, i) => [h ?? '', r[i] ?? null])));
}
