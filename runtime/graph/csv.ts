/**
 * LOAD CSV: reads a local CSV file (a `file:///` URL or a path) into rows — lists of
 * strings, or maps keyed by the header line with WITH HEADERS. An unquoted empty field is
 * null, a quoted one the empty string. Which files may be read, and how, is the database's
 * `FileAccessPolicy` (file-access.ts): servers allow none, or only their import directory.
 */

import { resolve as resolvePath } from 'node:path';
import { CsvReader } from '../../src/engine/csv-reader.js';
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
/** A byte order mark at the start of the text is not data. */
const BOM = 0xfeff;

/** The rows LOAD CSV read, with the line each ends on (a quoted field may span lines) and the file they came from (`linenumber()`, `file()`). */
export interface CsvRows {
  rows: Value[];
  lines: number[];
  file: string;
}

export function loadCsv(url: Value, withHeaders: boolean, fieldTerminator: string | null, options: CsvOptions): CsvRows {
  if (typeof url !== 'string') throw new ValueTypeError(`LOAD CSV needs a string URL, got ${describe(url)}`, 'InvalidArgumentType');
  const text = (options.access ?? LOCAL).readText(url, 'LOAD CSV', options.checkDeadline);
  const file = resolvePath(url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url);
  const records: (string | null)[][] = [];
  const lines: number[] = [];
  try {
    const reader = CsvReader.forLoadCsv(
      fieldTerminator ?? ',',
      (fields, line) => {
        records.push(fields);
        lines.push(line);
      },
      file,
    );
    reader.push(text.charCodeAt(0) === BOM ? text.slice(1) : text);
    reader.end();
  } catch (err) {
    throw new ArgumentError(`LOAD CSV cannot parse ${url}: ${(err as Error).message}`, 'CsvParseFailed');
  }
  if (!withHeaders) return { rows: records, lines, file };
  const header = records[0];
  if (header === undefined) return { rows: [], lines: [], file };
  const keys = header.map((h) => h ?? '');
  const rows: Value[] = new Array<Value>(records.length - 1);
  for (let r = 1; r < records.length; r++) {
    const record = records[r];
    const row = new Map<string, Value>();
    for (let i = 0; i < keys.length; i++) row.set(keys[i], record[i] ?? null);
    rows[r - 1] = row;
  }
  return { rows, lines: lines.slice(1), file };
}
