/**
 * What the PG layer needs to know about query text without compiling it: how a Simple
 * Query message splits into statements at `;`, and how many positional parameters (`$1`,
 * `$2`, …) a statement uses. Both skip quoted strings, backtick-quoted names and comments
 * with the same lexical rules as the CLI's statement splitter.
 */

import { splitScript } from '../../cli/statement-splitter.js';

/** The statements of a Simple Query message, in order; empty ones dropped. */
export function splitStatements(text: string): string[] {
  return splitScript(text);
}

/** True when the text holds no statement at all (white space, `;`, comments). */
export function isEmptyQuery(text: string): boolean {
  return splitScript(text).length === 0;
}

/** Most parameters one statement may have (the protocol counts them in 16 bits). */
export const MAX_PARAMETERS = 32767;

/** The highest `$n` used in the query text (0 when none). */
export function maxPositionalParameter(text: string): number {
  let max = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    const next = text[i + 1];
    if (ch === "'" || ch === '"') {
      i++;
      while (i < n && text[i] !== ch) i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (ch === '`') {
      i = text.indexOf('`', i + 1);
      i = i < 0 ? n : i + 1;
    } else if (ch === '/' && next === '/') {
      i = text.indexOf('\n', i);
      if (i < 0) i = n;
    } else if (ch === '/' && next === '*') {
      i = text.indexOf('*/', i + 2);
      i = i < 0 ? n : i + 2;
    } else if (ch === '$' && next !== undefined && next >= '0' && next <= '9') {
      let j = i + 1;
      while (j < n && text[j] >= '0' && text[j] <= '9') j++;
      // Capped so that an absurd `$99999999999` cannot size anything; callers check the cap.
      max = Math.max(max, Math.min(Number(text.slice(i + 1, j)), MAX_PARAMETERS + 1));
      i = j;
    } else {
      i++;
    }
  }
  return max;
}

/** One line of query text for logs: line breaks folded, very long text shortened. */
export function oneLine(text: string, max = 4000): string {
  const flat = text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}… (${flat.length} characters)` : flat;
}
