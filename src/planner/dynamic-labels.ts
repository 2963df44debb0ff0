/**
 * Dynamic labels and types in a MATCH (`(n:$(e))`, `()-[r:$any(e)]->()`): before the
 * pattern is planned, each `$(…)` is taken out of its element's label expression and becomes
 * a predicate on the element (`n WHERE <n has the names e gives>`), checked by the
 * `hasDynamic` runtime helper; an anonymous element gets a hidden variable to check. Plain
 * labels beside it keep driving label scans.
 */

import type { Expr, LabelExpr, NodePattern, PathPattern, RelPattern } from '../frontend/ast.js';
import { QuerySemanticError } from '../errors.js';

function containsDynamic(e: LabelExpr | undefined): boolean {
  if (e === undefined) return false;
  switch (e.kind) {
    case 'Dynamic':
      return true;
    case 'And':
    case 'Or':
      return e.items.some(containsDynamic);
    case 'Not':
      return containsDynamic(e.item);
    default:
      return false;
  }
}

/** Whether any element of `patterns` has a `$(…)` label or type. */
export function hasDynamicLabels(patterns: PathPattern[]): boolean {
  return patterns.some((p) => containsDynamic(p.start.labels) || p.steps.some((s) => containsDynamic(s.node.labels) || ('rel' in s && containsDynamic(s.rel.types))));
}

/** The plain part of `e` and the dynamic checks it leaves; only a conjunction at the top may hold `$(…)`. */
function split(e: LabelExpr, pos: Expr['pos']): { rest?: LabelExpr; dynamic: Extract<LabelExpr, { kind: 'Dynamic' }>[] } {
  const items = e.kind === 'And' ? e.items : [e];
  const rest: LabelExpr[] = [];
  const dynamic: Extract<LabelExpr, { kind: 'Dynamic' }>[] = [];
  for (const it of items) {
    if (it.kind === 'Dynamic') dynamic.push(it);
    else if (containsDynamic(it)) throw new QuerySemanticError('A dynamic label or type cannot be combined with !, | or parentheses; use $any(…) for alternatives', 'InvalidLabelExpression', pos);
    else rest.push(it);
  }
  return { rest: rest.length === 0 ? undefined : rest.length === 1 ? rest[0] : { kind: 'And', items: rest }, dynamic };
}

function withChecks<T extends NodePattern | RelPattern>(el: T, labels: LabelExpr | undefined, hidden: () => string): { el: T; rest?: LabelExpr } {
  if (!containsDynamic(labels)) return { el, rest: labels };
  const { rest, dynamic } = split(labels as LabelExpr, el.pos);
  const variable = el.variable ?? hidden();
  const pos = el.pos;
  let where: Expr | undefined = el.where;
  for (const d of dynamic) {
    const check: Expr = { kind: 'FunctionCall', name: ' hasDynamic', distinct: false, args: [{ kind: 'Var', name: variable, pos }, d.expr, { kind: 'Literal', value: d.any, pos }], pos };
    where = where === undefined ? check : { kind: 'Binary', op: 'and', left: where, right: check, pos };
  }
  return { el: { ...el, variable, where }, rest };
}

/** `patterns` with every `$(…)` turned into an element predicate (the same array when there is none). */
export function plainPatterns(patterns: PathPattern[], hidden: () => string): PathPattern[] {
  if (!hasDynamicLabels(patterns)) return patterns;
  const node = (n: NodePattern): NodePattern => {
    const { el, rest } = withChecks(n, n.labels, hidden);
    const { labels: _labels, ...others } = el;
    return rest === undefined ? others : { ...others, labels: rest };
  };
  return patterns.map((p) => ({
    ...p,
    start: node(p.start),
    steps: p.steps.map((s) => {
      if (!('rel' in s)) return { ...s, node: node(s.node) };
      if (s.rel.length !== undefined && containsDynamic(s.rel.types)) {
        throw new QuerySemanticError('A dynamic relationship type cannot be used on a variable-length relationship', 'InvalidLabelExpression', s.rel.pos);
      }
      const { el, rest } = withChecks(s.rel, s.rel.types, hidden);
      const { types: _types, ...others } = el;
      return { rel: rest === undefined ? others : { ...others, types: rest }, node: node(s.node) };
    }),
  }));
}
