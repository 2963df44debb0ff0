/**
 * How the CLI shows a query result: the SPEC's JSON result object (every cell as text,
 * via runtime/format's `cellText`), a readable table for terminals (cells in Cypher text
 * form via `formatValue`, fitted to the terminal width) and the footer line with the row
 * count, the time taken and what the query changed.
 */

import Table from 'cli-table3';
import { cellText, formatValue } from '../../runtime/format.js';
import type { QueryResult, QueryStats } from '../engine/types.js';

/** The SPEC's query result as the single-query CLI prints it. */
export interface JsonResult {
  columns: string[];
  rows: Record<string, string>[];
}

export function toJsonResult(result: QueryResult): JsonResult {
  const rows = result.records.map((record) => {
    // A null-prototype object: a column called `__proto__` stays an ordinary key.
    const row = Object.create(null) as Record<string, string>;
    result.columns.forEach((column, i) => {
      row[column] = cellText(record[i] ?? null);
    });
    return row;
  });
  return { columns: result.columns, rows };
}

export interface TableOptions {
  /** Terminal width in characters; undefined for no limit (output to a pipe or file). */
  width?: number;
  /** Colour the header (terminals only). */
  color?: boolean;
  /** Show at most this many rows (the footer says so); undefined for all. */
  maxRows?: number;
}

/** Fewer characters than this per column and wrapping stops being readable. */
const MIN_COLUMN_WIDTH = 8;

/**
 * Content widths per column so that the table fits `width`: narrow columns keep their
 * natural width, the wide ones share what is left.
 */
function fitColumns(natural: number[], width: number): number[] | undefined {
  const frame = natural.length * 3 + 1; // a border and a space either side of each column
  const budget = width - frame;
  if (natural.reduce((a, b) => a + b, 0) <= budget) return undefined;
  const fitted = [...natural];
  const order = natural.map((w, i) => i).sort((a, b) => natural[a] - natural[b]);
  let left = budget;
  order.forEach((col, k) => {
    const share = Math.max(MIN_COLUMN_WIDTH, Math.floor(left / (order.length - k)));
    fitted[col] = Math.min(natural[col], share);
    left -= fitted[col];
  });
  return fitted;
}

/** Characters that take two columns in a terminal (CJK, Hangul, full-width forms, most emoji). */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

/**
 * Terminal columns of the widest line of `text`. It may overestimate (combining marks
 * count as 1), never underestimate, so that a column sized by it never truncates.
 */
function textWidth(text: string): number {
  let widest = 0;
  for (const line of text.split('\n')) {
    let width = 0;
    for (const ch of line) width += WIDE.test(ch) ? 2 : 1;
    widest = Math.max(widest, width);
  }
  return widest;
}

/**
 * Cuts words longer than `width` into pieces on lines of their own, so that the table's
 * word wrapping (at spaces) never has to truncate one.
 */
function breakLongWords(text: string, width: number): string {
  return text.replace(/\S+/g, (word) => {
    if (textWidth(word) <= width) return word;
    const pieces: string[] = [];
    let piece = '';
    let used = 0;
    for (const ch of word) {
      const w = WIDE.test(ch) ? 2 : 1;
      if (used + w > width && piece !== '') {
        pieces.push(piece);
        piece = '';
        used = 0;
      }
      piece += ch;
      used += w;
    }
    pieces.push(piece);
    return pieces.join('\n');
  });
}

/**
 * cli-table3 takes time quadratic in the number of rows, so long results are drawn as
 * tables of this many rows with the same column widths, joined without their inner borders.
 */
const CHUNK_ROWS = 200;

/** The result as a boxed table; empty string when the query returns no columns. */
export function renderTable(result: QueryResult, options: TableOptions = {}): string {
  if (result.columns.length === 0) return '';
  const shown = options.maxRows === undefined ? result.records : result.records.slice(0, options.maxRows);
  const body = shown.map((record) => result.columns.map((_, i) => formatValue(record[i] ?? null)));
  const natural = result.columns.map((column, i) => {
    let widest = textWidth(column);
    for (const row of body) widest = Math.max(widest, textWidth(row[i]));
    return widest;
  });
  const fitted = options.width === undefined ? undefined : fitColumns(natural, options.width);
  const widths = fitted ?? natural;
  const rows = fitted ? body.map((row) => row.map((cell, i) => breakLongWords(cell, fitted[i]))) : body;
  // Rows are separated by lines only when cells wrap onto several lines.
  const compact = !fitted && !body.some((row) => row.some((c) => c.includes('\n')));
  const drawChunk = (chunk: string[][], withHead: boolean): string[] => {
    const table = new Table({
      ...(withHead ? { head: result.columns } : {}),
      style: { head: options.color ? ['cyan'] : [], border: [], compact },
      colWidths: widths.map((w) => w + 2),
      ...(fitted ? { wordWrap: true, wrapOnWordBoundary: true } : {}),
    });
    for (const row of chunk) table.push(row);
    return table.toString().split('\n');
  };
  const separator = '├' + widths.map((w) => '─'.repeat(w + 2)).join('┼') + '┤';
  const lines = drawChunk(rows.slice(0, CHUNK_ROWS), true);
  for (let start = CHUNK_ROWS; start < rows.length; start += CHUNK_ROWS) {
    lines.pop(); // bottom border of what is drawn so far
    const next = drawChunk(rows.slice(start, start + CHUNK_ROWS), false);
    next.shift(); // top border of the next piece
    if (!compact) lines.push(separator);
    for (const line of next) lines.push(line);
  }
  return lines.join('\n');
}

const STAT_LABELS: [keyof QueryStats, string, string][] = [
  ['nodesCreated', 'node created', 'nodes created'],
  ['nodesDeleted', 'node deleted', 'nodes deleted'],
  ['relationshipsCreated', 'relationship created', 'relationships created'],
  ['relationshipsDeleted', 'relationship deleted', 'relationships deleted'],
  ['labelsAdded', 'label added', 'labels added'],
  ['labelsRemoved', 'label removed', 'labels removed'],
  ['propertiesSet', 'property set', 'properties set'],
];

/** The non-zero update counters, e.g. `2 nodes created, 4 properties set`; empty when none. */
export function describeUpdates(stats: QueryStats): string {
  return STAT_LABELS.filter(([key]) => stats[key] > 0)
    .map(([key, one, many]) => `${stats[key]} ${stats[key] === 1 ? one : many}`)
    .join(', ');
}

/** A duration for people: `0.4 ms`, `12 ms`, `2.31 s`. */
export function formatDuration(ms: number): string {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** The line under a result: `3 rows, 1.2 ms`, after a write `…; 2 nodes created`. */
export function renderFooter(result: QueryResult, maxRows?: number): string {
  const n = result.records.length;
  const cut = maxRows !== undefined && n > maxRows && result.columns.length > 0 ? ` (first ${maxRows} shown)` : '';
  const line = `${n} ${n === 1 ? 'row' : 'rows'}${cut}, ${formatDuration(result.elapsedMs)}`;
  const updates = describeUpdates(result.stats);
  return updates === '' ? line : `${line}; ${updates}`;
}

/** Table (if any) and footer, as the REPL and the single-query command print them. */
export function renderResult(result: QueryResult, options: TableOptions = {}): string {
  const table = renderTable(result, options);
  return (table === '' ? '' : table + '\n') + renderFooter(result, options.maxRows);
}
