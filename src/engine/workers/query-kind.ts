/**
 * Tells, from a query's text alone and without parsing it, whether it may write or call a
 * procedure that must run on the primary, so that the router can send it there at once and
 * a session's queries keep their order (a write sent before a read is applied before the read
 * starts). The test is conservative: a write keyword anywhere outside string literals, quoted
 * names and comments counts, and so does a CALL of a procedure that is not a plain read. A
 * read it takes for a write merely runs on the primary; a write it misses is refused by the
 * worker and then runs on the primary.
 */

import type { ProcedureRegistry } from '../../../procedures/registry.js';
import { runsOnPrimary } from './protocol.js';

const WRITE_KEYWORD = /\b(CREATE|MERGE|SET|DELETE|REMOVE|DROP|INSERT|FOREACH|ALTER|SHOW)\b/i;
const PROCEDURE_CALL = /\bCALL\s+([A-Za-z_][\w.]*)/gi;

/** The text with string literals, backquoted names and comments blanked out (same length). */
export function codeOnly(text: string): string {
  const parts: string[] = [];
  let copied = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    let end = -1;
    if (c === 0x27 || c === 0x22 || c === 0x60) {
      end = i + 1;
      while (end < n && text.charCodeAt(end) !== c) end += text.charCodeAt(end) === 0x5c && c !== 0x60 ? 2 : 1;
      end = Math.min(end + 1, n);
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2f) {
      end = text.indexOf('\n', i);
      if (end < 0) end = n;
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a) {
      end = text.indexOf('*/', i + 2);
      end = end < 0 ? n : end + 2;
    }
    if (end < 0) {
      i++;
      continue;
    }
    parts.push(text.slice(copied, i), ' '.repeat(end - i));
    copied = i = end;
  }
  if (copied === 0) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}

/** Whether `text` may need the primary: it may write, or it calls a procedure that is not a plain read (or one the worker cannot answer). */
export function mayNeedPrimary(text: string, procedures: ProcedureRegistry): boolean {
  const code = codeOnly(text);
  if (WRITE_KEYWORD.test(code)) return true;
  for (const m of code.matchAll(PROCEDURE_CALL)) {
    const def = procedures.get(m[1]);
    if (def !== undefined && runsOnPrimary(def)) return true;
  }
  return false;
}
