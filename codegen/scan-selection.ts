/**
 * Which plan shapes let a label scan hand its per-row work to a column kernel
 * (runtime/graph/column-scan.ts), decided from the plan alone:
 *
 * - `rangePredicates`: the leading conjuncts of a Filter right above the scan that compare one
 *   property of the scanned node with a literal or a parameter (`n.k >= $lo AND n.k < 10`);
 *   only the leading ones, so the predicates after them still run in their written order on
 *   the rows that pass.
 * - `topKColumn`: a top-k Sort fed only by projections of a label scan, whose first key is a
 *   property of the scanned node. Every projected item and sort key must be a reference, a
 *   literal, a parameter or a property of the scanned node — expressions that cannot fail —
 *   because the rows the kernel drops are never projected.
 */

import type { Expr } from '../src/frontend/ast.js';
import type { BoundExpr, PlanOp, Predicate, Scope } from '../src/planner/plan.js';
import { RANGE_GT, RANGE_GTE, RANGE_LT, RANGE_LTE } from '../runtime/graph/column-scan.js';

const RANGE_OPS: Record<string, number> = { '<': RANGE_LT, '<=': RANGE_LTE, '>': RANGE_GT, '>=': RANGE_GTE };
/** The comparison seen from the other side (`5 < n.k` is `n.k > 5`). */
const FLIPPED: Record<number, number> = { [RANGE_LT]: RANGE_GT, [RANGE_LTE]: RANGE_GTE, [RANGE_GT]: RANGE_LT, [RANGE_GTE]: RANGE_LTE };

/** The key of `e` when it reads a property of the node in `slot` (`n.key`, `n` bound to `slot`). */
function propertyOf(e: Expr, scope: Scope, slot: string): string | undefined {
  return e.kind === 'Property' && e.object.kind === 'Var' && scope.get(e.object.name) === slot ? e.key : undefined;
}

function isConstant(e: Expr): boolean {
  return e.kind === 'Literal' || e.kind === 'Param';
}

/** The range comparisons on one key of the node in `slot` that lead `predicates` (at least one), or undefined. */
export function rangePredicates(predicates: readonly Predicate[], slot: string): { key: string; count: number; ops: number[]; bounds: BoundExpr[] } | undefined {
  let key: string | undefined;
  const ops: number[] = [];
  const bounds: BoundExpr[] = [];
  for (const p of predicates) {
    if (p.kind !== 'expr' || p.bexpr.expr.kind !== 'Binary' || RANGE_OPS[p.bexpr.expr.op] === undefined) break;
    const { left, right, op } = p.bexpr.expr;
    const scope = p.bexpr.scope;
    const onLeft = propertyOf(left, scope, slot);
    const onRight = propertyOf(right, scope, slot);
    const k = onLeft !== undefined && isConstant(right) ? onLeft : onRight !== undefined && isConstant(left) ? onRight : undefined;
    if (k === undefined || (key !== undefined && k !== key)) break;
    key = k;
    ops.push(onLeft !== undefined ? RANGE_OPS[op] : FLIPPED[RANGE_OPS[op]]);
    bounds.push({ expr: onLeft !== undefined ? right : left, scope });
  }
  return key === undefined ? undefined : { key, count: ops.length, ops, bounds };
}

/** A projection that cannot fail: a reference, a constant, or a property of the node in `slot`. */
function cannotFail(b: BoundExpr, slot: string): boolean {
  return b.expr.kind === 'Var' || isConstant(b.expr) || propertyOf(b.expr, b.scope, slot) !== undefined;
}

/** The label scan and the property key of `sort`'s first key, when a column kernel may pick its candidates. */
export function topKColumn(sort: Extract<PlanOp, { op: 'Sort' }>): { scan: PlanOp; key: string } | undefined {
  const projections: Extract<PlanOp, { op: 'Project' }>[] = [];
  let op = sort.input;
  while (op.op === 'Project') {
    projections.push(op);
    op = op.input;
  }
  if (op.op !== 'NodeScan' || op.label === undefined) return undefined;
  const slot = op.slot;
  if (!projections.every((p) => p.items.every((it) => cannotFail(it.bexpr, slot)))) return undefined;
  if (!sort.keys.every((k) => cannotFail(k.bexpr, slot))) return undefined;
  // The first key, seen through the projections that named it (slots are bound once).
  let first: BoundExpr = sort.keys[0].bexpr;
  for (const p of projections) {
    if (first.expr.kind !== 'Var') break;
    const named = first.scope.get(first.expr.name);
    const item = p.items.find((it) => it.slot === named);
    if (item !== undefined) first = item.bexpr;
  }
  const key = propertyOf(first.expr, first.scope, slot);
  return key === undefined ? undefined : { scan: op, key };
}
