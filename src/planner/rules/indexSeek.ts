/**
 * Rewrite rule: seeks instead of scans. A pattern node is found by `id(n) = e`
 * (NodeById), or through a property index by equality (inline map or WHERE) or by range
 * (WHERE comparisons), when the cost model says that is cheaper than its label scan.
 */

import type { Expr } from '../../frontend/ast.js';
import type { PatternNode, PendingPredicate, Seek, Statistics } from '../context.js';
import { freeVariables } from '../exprUtil.js';
import type { BoundExpr, Scope } from '../plan.js';

/**
 * The cheapest seek for `n` that the pending predicates allow: `id(n) = e` (one node), an
 * index equality on an inline property or a WHERE equality, or an index range from WHERE
 * comparisons. Value expressions must only read what is already bound.
 */
export function bestSeek(
  stats: Statistics,
  n: PatternNode,
  pending: PendingPredicate[],
  bound: ReadonlySet<string>,
): { seek: Seek; cost: number } | undefined {
  const ready = (needs: string[]) => needs.every((s) => s === n.slot || bound.has(s));
  const valueReady = (e: Expr, scope: Scope) =>
    [...freeVariables(e)].every((v) => {
      const slot = scope.get(v);
      return slot === undefined || (slot !== n.slot && bound.has(slot));
    });
  const labels = pending.flatMap((p) => (p.pred.kind === 'hasLabels' && p.pred.slot === n.slot ? p.pred.labels : []));
  let best: { seek: Seek; cost: number } | undefined;
  const consider = (seek: Seek, cost: number) => {
    if (!best || cost < best.cost) best = { seek, cost };
  };
  const rangeParts = new Map<string, { label: string; lower?: { bexpr: BoundExpr; inclusive: boolean }; upper?: { bexpr: BoundExpr; inclusive: boolean } }>();
  for (const p of pending) {
    if (!ready(p.needs)) continue;
    const pred = p.pred;
    if (pred.kind === 'propMap' && pred.slot === n.slot && pred.map.expr.kind === 'Map') {
      for (const en of pred.map.expr.entries) {
        if (!valueReady(en.value, pred.map.scope)) continue;
        for (const label of labels) {
          if (stats.hasIndex(label, en.key)) {
            const cost = Math.max(1, stats.labelCount(label) * stats.indexSelectivity(label, en.key));
            consider({ kind: 'index', label, key: en.key, equals: { expr: en.value, scope: pred.map.scope } }, cost);
          }
        }
      }
    }
    if (pred.kind !== 'expr') continue;
    const e = pred.bexpr.expr;
    const scope = pred.bexpr.scope;
    if (e.kind === 'Binary' && e.op === '=') {
      for (const [side, other] of [
        [e.left, e.right],
        [e.right, e.left],
      ]) {
        if (isIdOf(side, n, scope) && valueReady(other, scope)) consider({ kind: 'id', id: { expr: other, scope } }, 1);
        const key = propertyOf(side, n, scope);
        if (key !== undefined && valueReady(other, scope)) {
          for (const label of labels) {
            if (!stats.hasIndex(label, key)) continue;
            const cost = Math.max(1, stats.labelCount(label) * stats.indexSelectivity(label, key));
            consider({ kind: 'index', label, key, equals: { expr: other, scope } }, cost);
          }
        }
      }
    }
    if (e.kind === 'Binary' && (e.op === '<' || e.op === '<=' || e.op === '>' || e.op === '>=')) {
      for (const [side, other, flipped] of [
        [e.left, e.right, false],
        [e.right, e.left, true],
      ] as const) {
        const key = propertyOf(side, n, scope);
        if (key === undefined || !valueReady(other, scope)) continue;
        const label = labels.find((l) => stats.hasIndex(l, key));
        if (label === undefined) continue;
        const lowerOp = flipped ? e.op === '<' || e.op === '<=' : e.op === '>' || e.op === '>=';
        const inclusive = e.op === '<=' || e.op === '>=';
        const part = rangeParts.get(key) ?? { label };
        if (lowerOp) part.lower = { bexpr: { expr: other, scope }, inclusive };
        else part.upper = { bexpr: { expr: other, scope }, inclusive };
        rangeParts.set(key, part);
      }
    }
  }
  for (const [key, part] of rangeParts) {
    const fraction = part.lower && part.upper ? 0.1 : 0.3;
    consider({ kind: 'index', label: part.label, key, lower: part.lower, upper: part.upper }, Math.max(1, stats.labelCount(part.label) * fraction));
  }
  return best;
}
/** `id(n)` for the pattern node `n` (by its slot). */
function isIdOf(e: Expr, n: PatternNode, scope: Scope): boolean {
return (
  e.kind === 'FunctionCall' &&
  e.name.toLowerCase() === 'id' &&
  e.args.length === 1 &&
  e.args[0].kind === 'Var' &&
  scope.get(e.args[0].name) === n.slot
);
}
/** The key of `n.key` for the pattern node `n`, else undefined. */
function propertyOf(e: Expr, n: PatternNode, scope: Scope): string | undefined {
if (e.kind === 'Property' && e.object.kind === 'Var' && scope.get(e.object.name) === n.slot) return e.key;
return undefined;
}