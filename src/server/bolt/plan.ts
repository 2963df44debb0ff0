/**
 * EXPLAIN and PROFILE at the Bolt door as Neo4j answers them. EXPLAIN: no records, and the
 * plan in the summary's `plan` entry as nested operators (`operatorType`, `args`,
 * `identifiers`, `children`); PROFILE: the query's own records, and the same tree in
 * `profile` with each operator's `rows`. Both are read from the text tree graphdb's
 * EXPLAIN/PROFILE answer (one operator per line, children indented under `└─`, PROFILE's
 * `[rows: n]` at a line's end and a closing line with the total time). graphdb fuses its
 * operators into one loop, so it knows rows per operator but not their database hits or time:
 * `dbHits` is 0 and only the root has a `time` (the whole run, in nanoseconds as Neo4j gives it).
 * Drivers expose them as `summary.plan` and `summary.profile`.
 */

import type { QueryResult } from '../../engine/types.js';
import type { PackValue } from './packstream.js';

const EXPLAIN = /^\s*EXPLAIN\b/i;
export const PROFILE = /^\s*PROFILE\b/i;

interface Operator {
  depth: number;
  plan: Map<string, PackValue>;
  children: Map<string, PackValue>[];
}

/** The operator lines of a plan text: name, details and PROFILE's rows, with their depth. */
export interface PlanLine {
  depth: number;
  name: string;
  details: string;
  rows?: number;
}

export function planLines(text: string): PlanLine[] {
  const lines: PlanLine[] = [];
  for (const line of text.split('\n')) {
    const m = /^([\s│└├─]*)(\S+)\s*(.*)$/.exec(line);
    // The closing line of PROFILE ("n result rows in t ms ...") is no operator.
    if (!m || /^\d+$/.test(m[2])) continue;
    let details = m[3].trim();
    let rows: number | undefined;
    const counted = /\s*\[rows: (\d+)\]$/.exec(details);
    if (counted) {
      rows = Number(counted[1]);
      details = details.slice(0, counted.index).trim();
    }
    lines.push({ depth: m[1].length, name: m[2], details, rows });
  }
  return lines;
}

function tree(text: string, profiled: boolean, totalMs: number): Map<string, PackValue> | undefined {
  const stack: Operator[] = [];
  let root: Map<string, PackValue> | undefined;
  for (const { depth, name, details, rows } of planLines(text)) {
    const args = new Map<string, PackValue>([['Details', details]]);
    const estimate = /~(\d+) rows/.exec(details);
    if (estimate) args.set('EstimatedRows', Number(estimate[1]));
    const children: Map<string, PackValue>[] = [];
    const plan = new Map<string, PackValue>([['operatorType', `${name}@graphdb`], ['args', args], ['identifiers', []], ['children', children]]);
    if (profiled) {
      plan.set('rows', rows ?? 0);
      plan.set('dbHits', 0);
    }
    while (stack.length > 0 && stack[stack.length - 1].depth >= depth) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(plan);
    else if (root === undefined) {
      root = plan;
      if (profiled) plan.set('time', Math.round(totalMs * 1e6));
    }
    stack.push({ depth, plan, children });
  }
  return root;
}

/** The summary plan of an EXPLAIN result, or undefined when `text` is not an EXPLAIN. */
export function explainPlan(text: string, result: QueryResult): Map<string, PackValue> | undefined {
  const cell = explainText(text, result);
  return cell === undefined ? undefined : tree(cell, false, 0);
}

/** The plan text of an EXPLAIN result (its one cell). */
export function explainText(text: string, result: QueryResult): string | undefined {
  if (!EXPLAIN.test(text) || result.columns.length !== 1 || result.records.length !== 1) return undefined;
  const cell = result.records[0][0];
  return typeof cell === 'string' ? cell : undefined;
}

/** The summary profile of a PROFILE run with its rows kept (`QueryResult.profile`). */
export function profilePlan(result: QueryResult): Map<string, PackValue> | undefined {
  return result.profile === undefined ? undefined : tree(result.profile, true, result.elapsedMs);
}
