/**
 * Small shared pieces of planning: the hidden-name convention for planner-made variables,
 * scope extension, and reading plain label and type lists out of label expressions.
 */

import type { Expr, LabelExpr } from '../frontend/ast.js';
import type { Scope } from './plan.js';

/** Prefix of planner-made names; a space cannot occur in a user's unquoted name, and we never print these. */
export const HIDDEN = ' ';

export function isHiddenName(name: string): boolean {
  return name.startsWith(HIDDEN);
}

export function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

export function withBinding(sc: Scope, name: string, slot: string): Scope {
  const m = new Map(sc);
  m.set(name, slot);
  return m;
}

export function flip(d: 'out' | 'in' | 'both'): 'out' | 'in' | 'both' {
  return d === 'out' ? 'in' : d === 'in' ? 'out' : 'both';
}

/** The names of a label expression that is only `Label`s joined by `joiner`; undefined otherwise. */
function flatLabelList(e: LabelExpr, joiner: 'And' | 'Or'): string[] | undefined {
  if (e.kind === 'Label') return [e.name];
  if (e.kind !== joiner) return undefined;
  const out: string[] = [];
  for (const it of e.items) {
    const names = flatLabelList(it, joiner);
    if (!names) return undefined;
    out.push(...names);
  }
  return out;
}

/**
 * `:A:$(e):B` as its plain labels and the expressions of its dynamic ones; undefined when the
 * expression is not a conjunction of those (`$any` included: it cannot create or set).
 */
export function labelsWithDynamic(e: LabelExpr): { labels: string[]; dynamic: Expr[] } | undefined {
  const items = e.kind === 'And' ? e.items : [e];
  const labels: string[] = [];
  const dynamic: Expr[] = [];
  for (const it of items) {
    if (it.kind === 'Label') labels.push(it.name);
    else if (it.kind === 'Dynamic' && !it.any) dynamic.push(it.expr);
    else return undefined;
  }
  return { labels, dynamic };
}

/** `:A:B` as a list of labels; undefined when the expression is not a plain conjunction. */
export function simpleLabels(e: LabelExpr): string[] | undefined {
  return flatLabelList(e, 'And');
}

/** `:A|B` as a list of types; undefined when the expression is not a plain disjunction. */
export function simpleTypeList(e: LabelExpr): string[] | undefined {
  return flatLabelList(e, 'Or');
}
