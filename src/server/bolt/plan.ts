/**
 * EXPLAIN at the Bolt door as Neo4j answers it: no records, and the plan in the summary's
 * `plan` entry as nested operators (`operatorType`, `args`, `identifiers`, `children`), read
 * from the text tree graphdb's EXPLAIN returns (one `plan` cell, one operator per line,
 * children indented under `└─`). Drivers expose it as `summary.plan`.
 */

import type { QueryResult } from '../../engine/types.js';
import type { PackValue } from './packstream.js';

const EXPLAIN = /^\s*EXPLAIN\b/i;

interface Operator {
  depth: number;
  plan: Map<string, PackValue>;
  children: Map<string, PackValue>[];
}

/** The summary plan of an EXPLAIN result, or undefined when `text` is not an EXPLAIN. */
export function explainPlan(text: string, result: QueryResult): Map<string, PackValue> | undefined {
  if (!EXPLAIN.test(text) || result.columns.length !== 1 || result.records.length !== 1) return undefined;
  const cell = result.records[0][0];
  if (typeof cell !== 'string') return undefined;
  const stack: Operator[] = [];
  let root: Map<string, PackValue> | undefined;
  for (const line of cell.split('\n')) {
    const m = /^([\s│└├─]*)(\S+)\s*(.*)$/.exec(line);
    if (!m) continue;
    const depth = m[1].length;
    const [, , name, details] = m;
    const args = new Map<string, PackValue>([['Details', details.trim()]]);
    const estimate = /~(\d+) rows/.exec(details);
    if (estimate) args.set('EstimatedRows', Number(estimate[1]));
    const children: Map<string, PackValue>[] = [];
    const plan = new Map<string, PackValue>([['operatorType', `${name}@graphdb`], ['args', args], ['identifiers', []], ['children', children]]);
    while (stack.length > 0 && stack[stack.length - 1].depth >= depth) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(plan);
    else root ??= plan;
    stack.push({ depth, plan, children });
  }
  return root;
}
