/**
 * Small, reusable questions about AST expressions that the semantic checker asks and the
 * planner asks again: is this an aggregate, does this expression contain one, which
 * sub-expressions does a node have, are two expressions the same (ignoring positions).
 * Nothing here throws except `semantic`, the one way the checker's rules (in `semantic*.ts`)
 * raise their errors.
 */

import type { Expr, PathPattern, NodePattern, RelPattern, Pos } from './ast.js';
import { QuerySemanticError } from '../errors.js';
import { AGGREGATE_NAME_SET } from '../../functions/aggregates.js';

/** Lower-cased names of the aggregating functions (openCypher's and APOC's), from the aggregate registry. */
export const AGGREGATE_FUNCTIONS: ReadonlySet<string> = AGGREGATE_NAME_SET;

/** Functions whose result differs call by call; they may not feed an aggregate. */
export const NON_DETERMINISTIC_FUNCTIONS: ReadonlySet<string> = new Set(['rand', 'randomuuid']);

/** True when `name` (any case, no namespace) names an aggregating function. */
export function isAggregateFunctionName(name: string): boolean {
  return AGGREGATE_FUNCTIONS.has(name.toLowerCase());
}

/** True when the expression itself is an aggregate call: `count(*)`, `sum(x)`, `collect(DISTINCT y)`, … */
export function isAggregate(expr: Expr): boolean {
  if (expr.kind === 'CountStar') return true;
  return expr.kind === 'FunctionCall' && isAggregateFunctionName(expr.name);
}

/** Expressions held by the elements of a pattern: property maps and element predicates. */
export function patternExprs(pattern: PathPattern): Expr[] {
  const out: Expr[] = [];
  const element = (el: NodePattern | RelPattern): void => {
    if (el.properties) out.push(el.properties);
    if (el.where) out.push(el.where);
  };
  element(pattern.start);
  for (const step of pattern.steps) {
    if ('rel' in step) element(step.rel);
    else {
      out.push(...patternExprs(step.group.path));
      if (step.group.where) out.push(step.group.where);
    }
    element(step.node);
  }
  return out;
}

/**
 * The direct sub-expressions of `expr`, including those inside comprehension bodies and the
 * patterns of pattern predicates and comprehensions, but not those inside the nested query
 * of an EXISTS / COUNT / COLLECT subquery (which is a query of its own).
 */
export function exprChildren(expr: Expr): Expr[] {
  switch (expr.kind) {
    case 'Literal':
    case 'Param':
    case 'Var':
    case 'CountStar':
      return [];
    case 'Property':
      return [expr.object];
    case 'Index':
      return [expr.object, expr.index];
    case 'Slice':
      return [expr.object, ...(expr.from ? [expr.from] : []), ...(expr.to ? [expr.to] : [])];
    case 'List':
      return expr.items;
    case 'Map':
      return expr.entries.map((e) => e.value);
    case 'MapProjection': {
      const out: Expr[] = [expr.object];
      for (const item of expr.items) if (item.kind === 'LiteralEntry') out.push(item.value);
      return out;
    }
    case 'Unary':
      return [expr.operand];
    case 'Binary':
      return [expr.left, expr.right];
    case 'ComparisonChain':
      return expr.operands;
    case 'IsNull':
    case 'LabelCheck':
    case 'TypePredicate':
      return [expr.operand];
    case 'FunctionCall':
      return expr.args;
    case 'Case': {
      const out: Expr[] = [];
      if (expr.test) out.push(expr.test);
      for (const w of expr.whens) out.push(w.when, w.then);
      if (expr.else) out.push(expr.else);
      return out;
    }
    case 'ListComprehension':
      return [expr.source, ...(expr.where ? [expr.where] : []), ...(expr.projection ? [expr.projection] : [])];
    case 'Quantifier':
      return [expr.source, ...(expr.where ? [expr.where] : [])];
    case 'Reduce':
      return [expr.init, expr.source, expr.expr];
    case 'PatternComprehension':
      return [...patternExprs(expr.pattern), ...(expr.where ? [expr.where] : []), expr.projection];
    case 'PatternPredicate':
      return patternExprs(expr.pattern);
    case 'ExistsSubquery':
    case 'CountSubquery': {
      const out: Expr[] = [];
      for (const p of expr.patterns ?? []) out.push(...patternExprs(p));
      if (expr.where) out.push(expr.where);
      return out;
    }
    case 'CollectSubquery':
      return [];
  }
}

/** True when `expr` or any sub-expression (outside nested subquery bodies) is an aggregate. */
export function containsAggregate(expr: Expr): boolean {
  if (isAggregate(expr)) return true;
  return exprChildren(expr).some(containsAggregate);
}

/** Calls `visit` on `expr` and every sub-expression, outside nested subquery bodies; stop descending when it returns false. */
export function walkExpr(expr: Expr, visit: (e: Expr) => boolean | void): void {
  if (visit(expr) === false) return;
  for (const child of exprChildren(expr)) walkExpr(child, visit);
}

/** Structural equality of two AST values, ignoring source positions: `a.x + 1` equals `a.x+1`. */
export function exprEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => exprEquals(item, b[i]));
  }
  if (Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const key of keys) {
    if (key === 'pos') continue;
    if (!exprEquals(ra[key], rb[key])) return false;
  }
  return true;
}

/** Throws the QuerySemanticError with the TCK's `detail` code. */
export function semantic(detail: string, message: string, pos: Pos): never {
  throw new QuerySemanticError(message, detail, pos);
}
