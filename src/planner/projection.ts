/**
 * WITH and RETURN: projection items become slots (a variable passed through keeps its
 * slot); with aggregates the projection splits into grouping keys, aggregates and the
 * expressions computed around them after the aggregation; then DISTINCT, ORDER BY (which
 * may name projected expressions and aggregates again), SKIP and LIMIT.
 */

import type { Expr, Pos, Projection, ReturnItem } from '../frontend/ast.js';
import { QuerySemanticError } from '../errors.js';
import type { PlanContext } from './context.js';
import { containsAggregate, exprEquals, findAggregates, freeVariables, isAggregateCall, rewriteExpr } from './exprUtil.js';
import { HIDDEN, isHiddenName, uniq } from './names.js';
import type { BoundExpr, PlanOp, Scope } from './plan.js';

export function planProjection(
  pl: PlanContext,
  p: Projection & { pos: Pos },
  input: PlanOp,
  scope: Scope,
  isReturn: boolean,
): { op: PlanOp; scope: Scope; columns: string[]; projected: { name: string; slot: string; expr: Expr }[] } {
  const items: ReturnItem[] = [];
  if (p.star) {
    const names = [...scope.keys()].filter((n) => !isHiddenName(n)).sort();
    if (isReturn && names.length === 0 && p.items.length === 0) {
      throw new QuerySemanticError(
        `${isReturn ? 'RETURN' : 'WITH'} * is not allowed when there are no variables in scope`,
        'NoVariablesInScope',
        p.pos,
      );
    }
    for (const name of names) items.push({ expr: { kind: 'Var', name, pos: p.pos }, alias: name, text: name, pos: p.pos });
  }
  items.push(...p.items);
  const columns = items.map((it) => it.alias ?? it.text);
  const seen = new Set<string>();
  for (let i = 0; i < columns.length; i++) {
    if (seen.has(columns[i])) {
      throw new QuerySemanticError(
        `Multiple result columns with the same name \`${columns[i]}\` are not supported`,
        'ColumnNameConflict',
        items[i].pos,
      );
    }
    seen.add(columns[i]);
  }
  if (!isReturn) {
    for (const it of items) {
      if (it.alias === undefined && it.expr.kind !== 'Var') {
        throw new QuerySemanticError('Expression in WITH must be aliased (use AS)', 'NoExpressionAlias', it.pos);
      }
    }
  }

  const aggregating = items.some((it) => containsAggregate(it.expr));
  let op = input;
  const newScope = new Map<string, string>();
  const projected: { name: string; slot: string; expr: Expr }[] = [];

  if (!aggregating) {
    const projItems: { slot: string; bexpr: BoundExpr }[] = [];
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      const name = columns[i];
      let slot: string;
      if (it.expr.kind === 'Var' && scope.has(it.expr.name)) {
        slot = scope.get(it.expr.name) as string;
      } else {
        slot = pl.newSlot(name);
        projItems.push({ slot, bexpr: { expr: it.expr, scope } });
      }
      newScope.set(name, slot);
      projected.push({ name, slot, expr: it.expr });
    }
    if (projItems.length) op = { op: 'Project', input: op, items: projItems };
  } else {
    const groups: { slot: string; bexpr: BoundExpr }[] = [];
    const aggregates: { slot: string; name: string; args: BoundExpr[]; distinct: boolean }[] = [];
    const aggSlots: { expr: Expr; slot: string }[] = [];
    const post: { slot: string; bexpr: BoundExpr }[] = [];
    const aggScope = new Map<string, string>();
    const aggVar = (e: Expr): Expr => {
      let found = aggSlots.find((a) => exprEquals(a.expr, e));
      if (!found) {
        const slot = pl.newSlot('agg');
        found = { expr: e, slot };
        aggSlots.push(found);
        if (e.kind === 'CountStar') {
          aggregates.push({ slot, name: 'count(*)', args: [], distinct: false });
        } else if (e.kind === 'FunctionCall') {
          for (const a of e.args) {
            if (containsAggregate(a)) {
              throw new QuerySemanticError('Can\'t use aggregate functions inside of aggregate functions', 'NestedAggregation', a.pos);
            }
          }
          aggregates.push({
            slot,
            name: e.name.toLowerCase(),
            args: e.args.map((a) => ({ expr: a, scope })),
            distinct: e.distinct,
          });
        }
      }
      const hidden = HIDDEN + found.slot;
      aggScope.set(hidden, found.slot);
      return { kind: 'Var', name: hidden, pos: e.pos };
    };
    const groupItems: { name: string; slot: string; expr: Expr }[] = [];
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      const name = columns[i];
      if (!containsAggregate(it.expr)) {
        const slot = it.expr.kind === 'Var' && scope.has(it.expr.name) ? (scope.get(it.expr.name) as string) : pl.newSlot(name);
        groups.push({ slot, bexpr: { expr: it.expr, scope } });
        groupItems.push({ name, slot, expr: it.expr });
        newScope.set(name, slot);
        projected.push({ name, slot, expr: it.expr });
      }
    }
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      const name = columns[i];
      if (containsAggregate(it.expr)) {
        // Non-aggregate parts of an aggregating expression must be grouping keys.
        const rewritten = rewriteExpr(it.expr, (x) => {
          if (isAggregateCall(x)) return aggVar(x);
          const g = groupItems.find((gi) => exprEquals(gi.expr, x));
          if (g) {
            const hidden = HIDDEN + g.slot;
            aggScope.set(hidden, g.slot);
            return { kind: 'Var', name: hidden, pos: x.pos };
          }
          return undefined;
        });
        for (const v of freeVariables(rewritten)) {
          if (!isHiddenName(v) && scope.has(v)) {
            throw new QuerySemanticError(
              `Aggregation column contains implicit grouping expressions: variable \`${v}\` is neither a grouping key nor aggregated`,
              'AmbiguousAggregationExpression',
              it.pos,
            );
          }
        }
        let slot: string;
        if (rewritten.kind === 'Var' && isHiddenName(rewritten.name)) {
          slot = aggScope.get(rewritten.name) as string;
        } else {
          slot = pl.newSlot(name);
          post.push({ slot, bexpr: { expr: rewritten, scope: aggScope } });
        }
        newScope.set(name, slot);
        projected.push({ name, slot, expr: it.expr });
      }
    }
    op = { op: 'Aggregate', input: op, groups, aggregates };
    if (post.length) op = { op: 'Project', input: op, items: post };
    // ORDER BY may mention aggregates again: resolve them to the same slots.
    if (p.orderBy) {
      for (const s of p.orderBy) {
        for (const a of findAggregates(s.expr)) {
          if (!aggSlots.some((x) => exprEquals(x.expr, a)) && !projected.some((pr) => exprEquals(pr.expr, a))) {
            throw new QuerySemanticError(
              'Aggregation in ORDER BY must also be projected',
              'InvalidAggregation',
              s.pos,
            );
          }
        }
      }
    }
  }

  if (p.distinct) op = { op: 'Distinct', input: op, slots: projected.map((x) => x.slot) };

  if (p.orderBy && p.orderBy.length) {
    const limited = p.distinct || aggregating;
    const sortScope = new Map<string, string>(limited ? [] : scope);
    for (const [k, v] of newScope) sortScope.set(k, v);
    const keys = p.orderBy.map((s) => {
      const expr = rewriteProjected(s.expr, projected, newScope, sortScope);
      if (limited) {
        for (const v of freeVariables(expr)) {
          if (!sortScope.has(v) && scope.has(v)) {
            throw new QuerySemanticError(
              `In a ${isReturn ? 'RETURN' : 'WITH'} with DISTINCT or an aggregation, ORDER BY can only use projected expressions: \`${v}\` is not projected`,
              aggregating ? 'UndefinedVariable' : 'UndefinedVariable',
              s.pos,
            );
          }
        }
      }
      return { bexpr: { expr, scope: sortScope as Scope }, descending: s.descending };
    });
    const carry = uniq([...projected.map((x) => x.slot), ...(limited ? [] : [...scope.values()])]);
    const topK = p.limit
      ? { skip: p.skip ? constantCount(p.skip, 'SKIP') : undefined, limit: constantCount(p.limit, 'LIMIT') }
      : undefined;
    op = { op: 'Sort', input: op, keys, carry, topK };
  }
  if (p.skip) op = { op: 'Skip', input: op, count: constantCount(p.skip, 'SKIP') };
  if (p.limit) op = { op: 'Limit', input: op, count: constantCount(p.limit, 'LIMIT') };
  return { op, scope: newScope, columns, projected };
}
function constantCount(e: Expr, what: string): BoundExpr {
  const vars = freeVariables(e);
  if (vars.size > 0) {
    throw new QuerySemanticError(
      `It is not allowed to refer to variables in ${what}`,
      'NonConstantExpression',
      e.pos,
    );
  }
  return { expr: e, scope: new Map() };
}
/**
 * Replaces sub-expressions of `e` that equal a projected item's expression by a reference
 * to that item's slot (registered in `into` under a hidden name), so ORDER BY and WITH …
 * WHERE can name projected expressions after DISTINCT or aggregation.
 */
export function rewriteProjected(
e: Expr,
projected: { slot: string; expr: Expr }[],
newScope: Scope,
into: Map<string, string>,
): Expr {
return rewriteExpr(e, (x) => {
  const pr = projected.find((q) => exprEquals(q.expr, x));
  if (pr && !(x.kind === 'Var' && newScope.has(x.name))) {
    const hidden = HIDDEN + pr.slot;
    into.set(hidden, pr.slot);
    return { kind: 'Var', name: hidden, pos: x.pos };
  }
  return undefined;
});
}