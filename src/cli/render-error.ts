/**
 * How the CLI shows a failed query to a person: the error code and message and, for an
 * error with a position in the query, the offending line with a caret under the column.
 * (The `--json` mode prints the SPEC's error object instead: `GraphDbError.toJSON()`.)
 */

import type { GraphDbError } from '../errors.js';

export function renderError(err: GraphDbError, query?: string): string {
  const lines = [`${err.code}: ${err.message}`];
  const pos = err.position;
  if (query !== undefined && pos !== undefined) {
    const line = query.split(/\r?\n/)[pos.line - 1];
    if (line !== undefined && pos.column >= 1 && pos.column <= line.length + 1) {
      lines.push(`  ${line}`, `  ${' '.repeat(pos.column - 1)}^`);
    }
  }
  return lines.join('\n');
}
