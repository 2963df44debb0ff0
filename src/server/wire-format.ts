/**
 * The JSON shapes HTTP and TCP (and MCP's query tools) send: the SPEC's query result
 * (`columns`, and `rows` as objects keyed by column name with every cell a string) and the
 * error object (`{error: true, code, message}`). Any thrown value becomes an error object;
 * engine errors keep their own code, anything unexpected is INTERNAL_ERR.
 */

import { cellText } from '../../runtime/format.js';
import type { QueryResult } from '../engine/types.js';
import { GraphDbError } from '../errors.js';

export interface ResultBody {
  columns: string[];
  rows: Record<string, string>[];
}

export interface ErrorBody {
  error: true;
  code: string;
  message: string;
}

/** Rows as objects keyed by column name; every cell rendered as text (SPEC "Query result"). */
export function resultRows(result: Pick<QueryResult, 'columns' | 'records'>): Record<string, string>[] {
  const { columns, records } = result;
  const rows: Record<string, string>[] = new Array(records.length);
  for (let r = 0; r < records.length; r++) {
    const record = records[r];
    // A null-prototype object: a column called `__proto__` stays an ordinary key.
    const row = Object.create(null) as Record<string, string>;
    for (let c = 0; c < columns.length; c++) row[columns[c]] = cellText(record[c]);
    rows[r] = row;
  }
  return rows;
}

export function resultBody(result: Pick<QueryResult, 'columns' | 'records'>): ResultBody {
  return { columns: result.columns, rows: resultRows(result) };
}

/** A column name JSON.stringify would put before the others in a row object (an array index): such rows take the general path. */
const INDEX_LIKE = /^\d+$/;

/**
 * `JSON.stringify(resultBody(result))`, character for character, written straight from the
 * records: the row objects resultRows builds have a null prototype, which puts them in V8's
 * slow dictionary mode, and stringifying them cost more than a point lookup. Column names
 * that repeat or look like array indexes (which JSON.stringify orders first) take the
 * general path. Throws a RangeError when the text would be too long, as JSON.stringify does.
 */
export function resultJson(result: Pick<QueryResult, 'columns' | 'records'>): string {
  const { columns, records } = result;
  const shape = rowShape(columns);
  if (shape === undefined) return JSON.stringify(resultBody(result));
  const { head, keys } = shape;
  let out = head;
  for (let r = 0; r < records.length; r++) {
    const record = records[r];
    if (r > 0) out += ',';
    if (keys.length === 0) out += '{';
    for (let c = 0; c < keys.length; c++) out += keys[c] + JSON.stringify(cellText(record[c]));
    out += '}';
  }
  return out + ']}';
}

/** The text before the rows and each cell's key text (with its `{` or `,`), for a column list. */
interface RowShape {
  head: string;
  keys: string[];
}

/** The last column list's shape: a query answered on the main thread hands back the same array each run. */
let lastShape: { columns: readonly string[]; shape: RowShape | undefined } | undefined;

function rowShape(columns: readonly string[]): RowShape | undefined {
  if (lastShape?.columns === columns) return lastShape.shape;
  let shape: RowShape | undefined = { head: '{"columns":' + JSON.stringify(columns) + ',"rows":[', keys: new Array<string>(columns.length) };
  for (let c = 0; c < columns.length; c++) {
    const name = columns[c];
    if (INDEX_LIKE.test(name) || columns.indexOf(name) !== c) {
      shape = undefined;
      break;
    }
    shape.keys[c] = (c === 0 ? '{' : ',') + JSON.stringify(name) + ':';
  }
  lastShape = { columns, shape };
  return shape;
}

/** A door-level error (bad request, limit) in the SPEC's error shape. */
export function errorBody(code: string, message: string): ErrorBody {
  return { error: true, code, message };
}

/** Any thrown value as the SPEC's error object. */
export function toErrorBody(err: unknown): ErrorBody {
  if (err instanceof GraphDbError) return errorBody(err.code, err.message);
  if (err instanceof RangeError && /string length|allocation/i.test(err.message)) {
    return errorBody('LIMIT_EXCEEDED', 'The result is too large to send; narrow the query or add LIMIT');
  }
  const message = err instanceof Error ? err.message : String(err);
  return errorBody('INTERNAL_ERR', `Internal error: ${message}`);
}
