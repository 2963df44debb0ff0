/**
 * Neo4j 5's dynamic labels and relationship types at run time: what `$(e)` names (a string
 * or a list of strings), whether a node or relationship matches them (`$all`, the default,
 * or `$any`), and the one type a created relationship takes.
 */

import { Node, Rel } from '../../src/store/entities.js';
import { ArgumentError, ValueTypeError } from '../../src/errors.js';
import { describe } from '../types.js';
import type { Value } from '../values.js';

/** The names `$(v)` gives: a string, or a list of strings (neither null nor empty). */
export function dynamicNames(v: Value): string[] {
  const names = typeof v === 'string' ? [v] : Array.isArray(v) ? v : null;
  if (names === null || names.some((n) => typeof n !== 'string')) {
    throw new ValueTypeError(`A dynamic label or type must be a string or a list of strings, got ${describe(v)}`, 'InvalidArgumentType');
  }
  for (const n of names as string[]) {
    if (n.length === 0) throw new ArgumentError('A dynamic label or type must not be the empty string', 'InvalidArgumentValue');
  }
  return names as string[];
}

/** Static labels followed by those of each dynamic expression's value, without repeats. */
export function withDynamicLabels(fixed: readonly string[], dynamic: Value[]): string[] {
  const out = [...fixed];
  for (const v of dynamic) for (const n of dynamicNames(v)) if (!out.includes(n)) out.push(n);
  return out;
}

/** The single type of a relationship created with `[:$(v)]`. */
export function dynamicType(v: Value): string {
  const names = dynamicNames(v);
  if (names.length !== 1) throw new ArgumentError(`A relationship is created with exactly one type, got ${names.length}`, 'InvalidArgumentValue');
  return names[0];
}

/** Whether `e` (a node's labels, a relationship's type) carries every name of `v` (or one of them, with `any`). */
export function hasDynamic(e: Value, v: Value, any: boolean): boolean | null {
  if (e === null) return null;
  const names = dynamicNames(v);
  const has = e instanceof Node ? (n: string) => e.labels.includes(n) : e instanceof Rel ? (n: string) => e.type === n : null;
  if (has === null) throw new ValueTypeError(`Labels and types belong to nodes and relationships, not to ${describe(e)}`, 'InvalidArgumentType');
  return any ? names.some(has) : names.every(has);
}
