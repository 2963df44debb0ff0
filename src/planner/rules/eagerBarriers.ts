/**
 * Rewrite rule: Eager barriers. openCypher evaluates clause by clause, so a write must not
 * be seen by reads of the same clause's input and every row's writes must be done before a
 * later clause reads; the planner inserts an `Eager` operator (materialise all rows) only
 * at those boundaries, and read-only pipelines stay fused.
 */

import type { Clause } from '../../frontend/ast.js';
import { uniq } from '../names.js';
import type { Scope } from '../plan.js';

export function isUpdating(c: Clause): boolean {
return (
  c.kind === 'Create' ||
  c.kind === 'Merge' ||
  c.kind === 'Set' ||
  c.kind === 'Remove' ||
  c.kind === 'Delete' ||
  c.kind === 'Foreach' ||
  (c.kind === 'SubqueryCall' && clauseMutates(c))
);
}
/** Whether a clause writes, looking inside subqueries and FOREACH bodies. */
export function clauseMutates(c: Clause): boolean {
if (c.kind === 'SubqueryCall') return c.query.parts.some((p) => p.clauses.some(clauseMutates));
if (c.kind === 'Foreach') return true;
return isUpdating(c);
}
/** The slots an Eager barrier carries across: every live binding. */
export function liveSlots(sc: Scope): string[] {
return uniq([...sc.values()]);
}