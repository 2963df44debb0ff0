/**
 * Generic walks over AST expressions that the planner needs: the free variables an
 * expression reads, structural equality (ignoring positions), rewriting sub-expressions,
 * splitting conjunctions, and finding aggregate calls.
 */

import type { Expr, PathPattern, Query, MapProjectionItem } from '../frontend/ast.js';
import { AGGREGATE_FUNCTIONS, exprChildren, patternExprs } from '../frontend/semanticHelpers.js';

/** Lower-cased names of the aggregating functions (the semantic checker's list). */
export const AGGREGATE_NAMES = AGGREGATE_FUNCTIONS;

export function isAggregateCall(e: Expr): boolean {
  return e.kind === 'CountStar' || (e.kind === 'FunctionCall' && AGGREGATE_NAMES.has(e.name.toLowerCase()));
}

/**
 * Child expressions of `e` evaluated in the same scope as `e` itself: the semantic
 * checker's `exprChildren`, minus the bodies that introduce variables of their own
 * (comprehensions, quantifiers, reduce, pattern expressions, subqueries).
 */
function sameScopeChildren(e: Expr): Expr[] {
  switch (e.kind) {
    case 'ListComprehension':
    case 'Quantifier':
      return [e.source];
    case 'Reduce':
      return [e.init, e.source];
    case 'PatternComprehension':
    case 'PatternPredicate':
    case 'ExistsSubquery':
    case 'CountSubquery':
    case 'CollectSubquery':
      return [];
    default:
      return exprChildren(e);
  }
}

export function patternVariables(p: PathPattern): string[] {
  const out: string[] = [];
  if (p.variable) out.push(p.variable);
  if (p.start.variable) out.push(p.start.variable);
  for (const s of p.steps) {
    if ('rel' in s) {
      if (s.rel.variable) out.push(s.rel.variable);
    } else {
      out.push(...patternVariables(s.group.path));
    }
    if (s.node.variable) out.push(s.node.variable);
  }
  return out;
}

/** Variables a whole query reads from outside itself (approximate: every name it mentions that it does not bind first). */
function queryFreeVars(q: Query, bound: Set<string>, out: Set<string>): void {
  for (const part of q.parts) {
    const local = new Set(bound);
    for (const c of part.clauses) {
      const exprs: Expr[] = [];
      const introduced: string[] = [];
      switch (c.kind) {
        case 'Match':
          for (const p of c.patterns) {
            exprs.push(...patternExprs(p), ...patternRefs(p, local));
            introduced.push(...patternVariables(p));
          }
          if (c.where) exprs.push(c.where);
          break;
        case 'Unwind':
          exprs.push(c.expr);
          break;
        case 'With':
        case 'Return':
          for (const it of c.items) exprs.push(it.expr);
          break;
        default:
          break;
      }
      for (const e of exprs) collectFreeVars(e, local, out);
      for (const v of introduced) local.add(v);
      if (c.kind === 'Unwind') local.add(c.variable);
      if (c.kind === 'With' || c.kind === 'Return') for (const it of c.items) local.add(it.alias ?? it.text);
    }
  }
}

/** Pattern variables that refer to an outer binding are reads of it. */
function patternRefs(p: PathPattern, bound: Set<string>): Expr[] {
  return patternVariables(p)
    .filter((v) => !bound.has(v))
    .map((name) => ({ kind: 'Var', name, pos: p.pos }) as Expr);
}

function collectFreeVars(e: Expr, bound: Set<string>, out: Set<string>): void {
  switch (e.kind) {
    case 'Var':
      if (!bound.has(e.name)) out.add(e.name);
      return;
    case 'ListComprehension':
    case 'Quantifier': {
      collectFreeVars(e.source, bound, out);
      const inner = new Set(bound).add(e.variable);
      if (e.where) collectFreeVars(e.where, inner, out);
      if (e.kind === 'ListComprehension' && e.projection) collectFreeVars(e.projection, inner, out);
      return;
    }
    case 'Reduce': {
      collectFreeVars(e.init, bound, out);
      collectFreeVars(e.source, bound, out);
      collectFreeVars(e.expr, new Set(bound).add(e.accumulator).add(e.variable), out);
      return;
    }
    case 'MapProjection':
      collectFreeVars(e.object, bound, out);
      for (const it of e.items) {
        if (it.kind === 'LiteralEntry') collectFreeVars(it.value, bound, out);
        if (it.kind === 'VariableSelector' && !bound.has(it.name)) out.add(it.name);
      }
      return;
    case 'PatternComprehension':
    case 'PatternPredicate': {
      const inner = new Set(bound);
      for (const v of patternVariables(e.pattern)) {
        // A pattern variable that is not yet bound is introduced by the pattern; one that is bound outside is read.
        inner.add(v);
        if (!bound.has(v)) out.add(v);
      }
      for (const x of patternExprs(e.pattern)) collectFreeVars(x, inner, out);
      if (e.kind === 'PatternComprehension') {
        if (e.where) collectFreeVars(e.where, inner, out);
        collectFreeVars(e.projection, inner, out);
      }
      return;
    }
    case 'ExistsSubquery':
    case 'CountSubquery': {
      const inner = new Set(bound);
      if (e.patterns) {
        for (const p of e.patterns) {
          for (const v of patternVariables(p)) {
            inner.add(v);
            if (!bound.has(v)) out.add(v);
          }
          for (const x of patternExprs(p)) collectFreeVars(x, inner, out);
        }
        if (e.where) collectFreeVars(e.where, inner, out);
      }
      if (e.query) queryFreeVars(e.query, bound, out);
      return;
    }
    case 'CollectSubquery':
      queryFreeVars(e.query, bound, out);
      return;
    default:
      for (const c of sameScopeChildren(e)) collectFreeVars(c, bound, out);
  }
}

/**
 * Names an expression reads from its scope. Pattern variables inside pattern expressions
 * count as reads (the caller intersects with what is actually in scope).
 */
export function freeVariables(e: Expr): Set<string> {
  const out = new Set<string>();
  collectFreeVars(e, new Set(), out);
  return out;
}

/** Splits `a AND b AND c` into its conjuncts. */
export function conjuncts(e: Expr): Expr[] {
  if (e.kind === 'Binary' && e.op === 'and') return [...conjuncts(e.left), ...conjuncts(e.right)];
  return [e];
}

/** Structural equality of expressions, ignoring source positions. */
export function exprEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b) return false;
  if (typeof a !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => exprEquals(x, b[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) {
    if (k === 'pos') continue;
    if (k === 'name' && ao.kind === 'FunctionCall' && typeof ao[k] === 'string' && typeof bo[k] === 'string') {
      if ((ao[k] as string).toLowerCase() !== (bo[k] as string).toLowerCase()) return false;
      continue;
    }
    if (!exprEquals(ao[k], bo[k])) return false;
  }
  return true;
}

/**
 * Rewrites an expression bottom-up-on-demand: `fn` is tried on each node first; when it
 * returns an expression that replaces the node, otherwise the node's children are rewritten.
 * Does not descend into nested scopes' bodies for names they shadow (callers only rewrite
 * structural matches and aggregate calls, which is safe).
 */
export function rewriteExpr(e: Expr, fn: (x: Expr) => Expr | undefined): Expr {
  const replaced = fn(e);
  if (replaced) return replaced;
  const r = (x: Expr) => rewriteExpr(x, fn);
  switch (e.kind) {
    case 'Literal':
    case 'Param':
    case 'Var':
    case 'CountStar':
      return e;
    case 'Property':
      return { ...e, object: r(e.object) };
    case 'Index':
      return { ...e, object: r(e.object), index: r(e.index) };
    case 'Slice':
      return { ...e, object: r(e.object), from: e.from && r(e.from), to: e.to && r(e.to) };
    case 'List':
      return { ...e, items: e.items.map(r) };
    case 'Map':
      return { ...e, entries: e.entries.map((en) => ({ key: en.key, value: r(en.value) })) };
    case 'MapProjection':
      return {
        ...e,
        object: r(e.object),
        items: e.items.map((it): MapProjectionItem => (it.kind === 'LiteralEntry' ? { ...it, value: r(it.value) } : it)),
      };
    case 'Unary':
      return { ...e, operand: r(e.operand) };
    case 'Binary':
      return { ...e, left: r(e.left), right: r(e.right) };
    case 'ComparisonChain':
      return { ...e, operands: e.operands.map(r) };
    case 'IsNull':
    case 'LabelCheck':
    case 'TypePredicate':
      return { ...e, operand: r(e.operand) };
    case 'FunctionCall':
      return { ...e, args: e.args.map(r) };
    case 'Case':
      return {
        ...e,
        test: e.test && r(e.test),
        whens: e.whens.map((w) => ({ when: r(w.when), then: r(w.then) })),
        else: e.else && r(e.else),
      };
    case 'ListComprehension':
      return { ...e, source: r(e.source), where: e.where && r(e.where), projection: e.projection && r(e.projection) };
    case 'Quantifier':
      return { ...e, source: r(e.source), where: e.where && r(e.where) };
    case 'Reduce':
      return { ...e, init: r(e.init), source: r(e.source), expr: r(e.expr) };
    case 'PatternComprehension':
      return { ...e, where: e.where && r(e.where), projection: r(e.projection) };
    default:
      return e;
  }
}

/** Aggregate calls in `e`, outermost first, not descending into an aggregate's own arguments. */
export function findAggregates(e: Expr): Expr[] {
  const found: Expr[] = [];
  const visit = (x: Expr): void => {
    if (isAggregateCall(x)) {
      found.push(x);
      return;
    }
    if (x.kind === 'ListComprehension' || x.kind === 'Quantifier') {
      visit(x.source);
      if (x.where) visit(x.where);
      if (x.kind === 'ListComprehension' && x.projection) visit(x.projection);
      return;
    }
    if (x.kind === 'Reduce') {
      visit(x.init);
      visit(x.source);
      visit(x.expr);
      return;
    }
    for (const c of sameScopeChildren(x)) visit(c);
  };
  visit(e);
  return found;
}

export function containsAggregate(e: Expr): boolean {
  return findAggregates(e).length > 0;
}
