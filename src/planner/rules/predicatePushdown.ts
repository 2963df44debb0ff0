/**
 * Rewrite rule: predicate push-down. WHERE conjuncts and inline property maps become
 * pending predicates that record the slots they need; the optimizer driver places each one
 * right after the operator that binds the last of them.
 */

import type { Expr } from '../../frontend/ast.js';
import { step } from '../../../runtime/governor.js';
import { QuerySemanticError } from '../../errors.js';
import type { PendingPredicate } from '../context.js';
import { conjuncts, containsAggregate, freeVariables } from '../exprUtil.js';
import type { Predicate, Scope } from '../plan.js';

/** Removes and returns, in their original order, the pending predicates whose slots are all bound. */
export function takeReadyPredicates(pending: PendingPredicate[], boundSlots: ReadonlySet<string>): Predicate[] {
  const ready: Predicate[] = [];
  for (let i = pending.length - 1; i >= 0; i--) {
    step(); // planning a long pattern is quadratic here: the query deadline bounds it
    if (pending[i].needs.every((s) => boundSlots.has(s))) {
      ready.unshift(pending[i].pred);
      pending.splice(i, 1);
    }
  }
  return ready;
}

export function addPropertyPredicates(
  slot: string,
  props: Expr,
  outer: Scope,
  sc: Map<string, string>,
  pending: PendingPredicate[],
): void {
  // Property values are evaluated in the scope outside the pattern (plus what the pattern binds before).
  const scope = new Map(sc);
  const needs = [slot, ...[...freeVariables(props)].map((v) => scope.get(v)).filter((s): s is string => !!s)];
  void outer;
  pending.push({ pred: { kind: 'propMap', slot, map: { expr: props, scope } }, needs });
}
export function exprPredicates(where: Expr, sc: Map<string, string>): PendingPredicate[] {
  return conjuncts(where).map((expr) => {
    if (containsAggregate(expr)) {
      throw new QuerySemanticError('Invalid use of aggregating function in this context', 'InvalidAggregation', expr.pos);
    }
    const scope = new Map(sc);
    const needs = [...freeVariables(expr)].map((v) => scope.get(v)).filter((s): s is string => !!s);
    return { pred: { kind: 'expr', bexpr: { expr, scope } } as Predicate, needs };
  });
}