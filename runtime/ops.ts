/**
 * Value operations generated code calls besides arithmetic and comparison: three-valued
 * boolean logic, WHERE truth, IN, string predicates, regular expressions, subscripts and
 * slices, property access, label checks and UNWIND's list coercion.
 */

import { compileRegex } from './regex.js';
import { ArgumentError, EntityNotFoundError, ValueTypeError } from '../src/errors.js';
import { Node, Rel } from '../src/store/entities.js';
import { FloatBox, type Value } from './values.js';
import { equals } from './compare.js';
import { describe, isExtendedValue } from './types.js';

// ---------------------------------------------------------------------------------------
// Boolean logic

function boolOperand(op: string, v: Value): boolean | null {
  if (v === null || typeof v === 'boolean') return v;
  throw new ValueTypeError(`${op} expects boolean operands, got ${describe(v)}`, 'InvalidArgumentType');
}

export function and(a: Value, b: Value): boolean | null {
  const x = boolOperand('AND', a);
  const y = boolOperand('AND', b);
  if (x === false || y === false) return false;
  if (x === null || y === null) return null;
  return true;
}

export function or(a: Value, b: Value): boolean | null {
  const x = boolOperand('OR', a);
  const y = boolOperand('OR', b);
  if (x === true || y === true) return true;
  if (x === null || y === null) return null;
  return false;
}

export function xor(a: Value, b: Value): boolean | null {
  const x = boolOperand('XOR', a);
  const y = boolOperand('XOR', b);
  if (x === null || y === null) return null;
  return x !== y;
}

export function not(a: Value): boolean | null {
  const x = boolOperand('NOT', a);
  return x === null ? null : !x;
}

/** WHERE filtering: only `true` passes (null and false do not). */
export function isTrue(v: Value): boolean {
  return v === true;
}

/** A predicate's value as a boolean or null; other types raise a type error. */
export function asBoolean(v: Value): boolean | null {
  if (v === null || typeof v === 'boolean') return v;
  throw new ValueTypeError(`Expected a boolean predicate, got ${describe(v)}`, 'InvalidArgumentType');
}

// ---------------------------------------------------------------------------------------
// Lists

/** `x IN list`, three-valued: true if some element equals x; null if none does but some comparison was null. */
export function inList(x: Value, list: Value): boolean | null {
  if (list === null) return null;
  if (!Array.isArray(list)) throw new ValueTypeError(`IN expects a list on the right, got ${describe(list)}`, 'InvalidArgumentType');
  if (list.length === 0) return false;
  if (x === null) return null;
  let unknown = false;
  if (typeof x === 'string' || typeof x === 'boolean') {
    for (let i = 0; i < list.length; i++) {
      const e = list[i];
      // A string or boolean equals only an identical primitive; any other non-null element is a definite no.
      if (e === x) return true;
      if (e === null) unknown = true;
    }
    return unknown ? null : false;
  }
  for (let i = 0; i < list.length; i++) {
    const r = equals(x, list[i]);
    if (r === true) return true;
    if (r === null) unknown = true;
  }
  return unknown ? null : false;
}

/** UNWIND's view of a value: a list as is, null as no rows, anything else as one row. */
export function unwindList(v: Value): readonly Value[] {
  if (Array.isArray(v)) return v;
  if (v === null) return EMPTY;
  return [v];
}
const EMPTY: readonly Value[] = Object.freeze([]);

function intIndex(v: Value, what: string): number | null {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'bigint') return v > 0n ? Number.MAX_SAFE_INTEGER : -Number.MAX_SAFE_INTEGER;
  if (v === null) return null;
  throw new ValueTypeError(`${what} must be an integer, got ${describe(v)}`, 'InvalidArgumentType');
}

/** `container[idx]`: list element (negative from the end; out of range → null), or map/node/relationship key. */
export function index(container: Value, idx: Value): Value {
  if (Array.isArray(container)) {
    if (typeof idx === 'number' && Number.isInteger(idx)) {
      const i = idx < 0 ? container.length + idx : idx;
      return i >= 0 && i < container.length ? container[i] : null;
    }
    if (idx === null) return null;
    if (typeof idx === 'bigint') return null;
    throw new ValueTypeError(`List index must be an integer, got ${describe(idx)}`, 'InvalidArgumentType');
  }
  if (container === null) return null;
  if (container instanceof Map || container instanceof Node || container instanceof Rel || isExtendedValue(container)) {
    if (idx === null) return null;
    if (typeof idx !== 'string') {
      throw new ValueTypeError(`Map key must be a string, got ${describe(idx)}`, 'MapElementAccessByNonString');
    }
    return property(container, idx);
  }
  throw new ValueTypeError(`Cannot index into ${describe(container)}`, 'InvalidArgumentType');
}

/**
 * `list[from..to]`; pass `undefined` for an omitted bound. A null bound or list gives null.
 * Negative bounds count from the end; bounds are clamped.
 */
export function slice(list: Value, from: Value | undefined, to: Value | undefined): Value {
  if (list === null) return null;
  if (!Array.isArray(list)) throw new ValueTypeError(`Cannot slice ${describe(list)}`, 'InvalidArgumentType');
  const n = list.length;
  let start = 0;
  let end = n;
  if (from !== undefined) {
    const f = intIndex(from, 'Slice bound');
    if (f === null) return null;
    start = f < 0 ? Math.max(0, n + f) : Math.min(f, n);
  }
  if (to !== undefined) {
    const t = intIndex(to, 'Slice bound');
    if (t === null) return null;
    end = t < 0 ? Math.max(0, n + t) : Math.min(t, n);
  }
  return end > start ? list.slice(start, end) : [];
}

// ---------------------------------------------------------------------------------------
// Properties and labels

/** Extended values with named components (`date.year`) implement this. */
export interface PropertyAccessible {
  getProperty(key: string): Value | undefined;
}

function deleted(kind: string, id: number): EntityNotFoundError {
  return new EntityNotFoundError(`The ${kind} with id ${id} has been deleted`, 'DeletedEntityAccess');
}

/** `v.key`: a node's, relationship's or map's entry (missing → null); null → null. */
export function property(v: Value, key: string): Value {
  if (v instanceof Node || v instanceof Rel) {
    if (v.deleted) throw deleted(v instanceof Node ? 'node' : 'relationship', v.id);
    const p = v.prop(key);
    return p === undefined ? null : p;
  }
  if (v instanceof Map) {
    const p = v.get(key);
    return p === undefined ? null : p;
  }
  if (v === null) return null;
  if (isExtendedValue(v) && typeof (v as unknown as PropertyAccessible).getProperty === 'function') {
    const p = (v as unknown as PropertyAccessible).getProperty(key);
    if (p !== undefined) return p;
    throw new ArgumentError(`${v.cypherType} has no component '${key}'`, 'InvalidArgumentValue');
  }
  throw new ValueTypeError(`Cannot read property '${key}' of ${describe(v)}`, 'InvalidArgumentType');
}

/** `n:A:B` (all labels) on a node, `r:T` on a relationship; null → null. */
export function hasLabels(v: Value, labels: readonly string[]): boolean | null {
  if (v instanceof Node) {
    for (let i = 0; i < labels.length; i++) if (!v.labels.includes(labels[i])) return false;
    return true;
  }
  if (v instanceof Rel) {
    for (let i = 0; i < labels.length; i++) if (v.type !== labels[i]) return false;
    return true;
  }
  if (v === null) return null;
  throw new ValueTypeError(`Label check needs a node or relationship, got ${describe(v)}`, 'InvalidArgumentType');
}

/** `n:A|B` (any label) on a node, `r:T|U` on a relationship; null → null. */
export function hasAnyLabel(v: Value, labels: readonly string[]): boolean | null {
  if (v instanceof Node) {
    for (let i = 0; i < labels.length; i++) if (v.labels.includes(labels[i])) return true;
    return false;
  }
  if (v instanceof Rel) return labels.includes(v.type);
  if (v === null) return null;
  throw new ValueTypeError(`Label check needs a node or relationship, got ${describe(v)}`, 'InvalidArgumentType');
}

// ---------------------------------------------------------------------------------------
// Strings

export function startsWith(s: Value, prefix: Value): boolean | null {
  return typeof s === 'string' && typeof prefix === 'string' ? s.startsWith(prefix) : null;
}

export function endsWith(s: Value, suffix: Value): boolean | null {
  return typeof s === 'string' && typeof suffix === 'string' ? s.endsWith(suffix) : null;
}

export function contains(s: Value, part: Value): boolean | null {
  return typeof s === 'string' && typeof part === 'string' ? s.includes(part) : null;
}

/** `s =~ pattern`: whole-string match; null unless both are strings. */
export function regexMatch(s: Value, pattern: Value): boolean | null {
  if (typeof s !== 'string' || typeof pattern !== 'string') return null;
  return compileRegex(pattern).test(s);
}

// ---------------------------------------------------------------------------------------
// Misc

/** `v IS NULL`. */
export function isNull(v: Value): boolean {
  return v === null;
}

/** A value as a JS number index for SKIP/LIMIT-like uses: FloatBox-aware. */
export function toNumberOrNull(v: Value): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof FloatBox) return v.value;
  return null;
}
