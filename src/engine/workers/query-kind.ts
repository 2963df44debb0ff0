/**
 * Tells, from a query's text alone and without parsing it, where the router runs it: as a
 * read on a worker, as a write on a worker, or on the primary (schema commands, SHOW, and
 * calls of procedures that are not plain reads or read what only the primary holds). The
 * test is conservative: a keyword anywhere outside string literals, quoted names and comments
 * counts. A read taken for a write merely runs as a write; a write taken for a read is
 * refused by the worker and runs again as a write; a primary-only call the text hides is
 * refused by the worker (`PrimaryOnly`) and runs again on the primary.
 */

import type { ProcedureRegistry } from '../../../procedures/registry.js';
import { runsOnPrimary } from './protocol.js';

const WRITE_KEYWORD = /\b(CREATE|MERGE|SET|DELETE|REMOVE|INSERT|FOREACH)\b/i;
/** Schema commands and listings: the primary alone holds the whole schema (a replica has no vector and full-text indexes). */
const PRIMARY_KEYWORD = /\b(DROP|ALTER|SHOW)\b|\bCREATE\s+(OR\s+REPLACE\s+)?(INDEX|CONSTRAINT|VECTOR|FULLTEXT|RANGE|TEXT|POINT|LOOKUP|BTREE|DATABASE)\b/i;
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

/**
 * What makes a write more than a few CREATEs of given values: a clause that reads the graph or
 * repeats (MATCH, MERGE, UNWIND, FOREACH, CALL, LOAD CSV, WITH, UNION, changes to what was
 * matched), a subquery, or a list built by iteration (`IN`, `|` of a comprehension, range, reduce).
 */
const NOT_POINT_WRITE = /\b(MATCH|MERGE|UNWIND|FOREACH|CALL|LOAD|WITH|UNION|SET|DELETE|REMOVE|IN|EXISTS|COUNT|COLLECT|range|reduce)\b|\|/i;

/**
 * Whether `text` only creates entities from the values it gives (literals, parameters): such a
 * write costs little whatever the graph holds, so it runs on the primary rather than wait
 * for a worker while every worker is busy.
 */
export function isPointWrite(text: string): boolean {
  return pointWriteCode(codeOnly(text));
}

function pointWriteCode(code: string): boolean {
  return /\bCREATE\b/i.test(code) && !NOT_POINT_WRITE.test(code);
}

export type Placement = 'read' | 'write' | 'primary';

/** Where `text` runs, and for a write whether it is a point write (the text is blanked once for both). */
export function classify(text: string, procedures: ProcedureRegistry): { place: Placement; point: boolean } {
  const code = codeOnly(text);
  const place = placementOfCode(code, procedures);
  return { place, point: place === 'write' && pointWriteCode(code) };
}

/** Where `text` runs (see the module comment). */
export function placement(text: string, procedures: ProcedureRegistry): Placement {
  return placementOfCode(codeOnly(text), procedures);
}

function placementOfCode(code: string, procedures: ProcedureRegistry): Placement {
  if (PRIMARY_KEYWORD.test(code)) return 'primary';
  let writes = WRITE_KEYWORD.test(code);
  for (const m of code.matchAll(PROCEDURE_CALL)) {
    const def = procedures.get(m[1]);
    if (def === undefined) continue;
    if (runsOnPrimary(def)) return 'primary';
    if (def.mode !== 'read') writes = true;
  }
  return writes ? 'write' : 'read';
}
