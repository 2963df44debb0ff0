/**
 * Grouping keys: one primitive per value such that two values get the same key exactly
 * when they are equivalent for grouping, DISTINCT and UNION (null is equivalent to null,
 * `1` to `1.0`, lists and maps structurally, nodes and relationships by id). Keys are
 * meant for a JS `Map`/`Set` (SameValueZero, so NaN groups with NaN).
 *
 * Primitives are their own key (no allocation): numbers, booleans, null, and strings (a
 * string beginning with U+0000 is escaped so it cannot collide with a composite key).
 * Composite values get a string key beginning with U+0000.
 */

import { Node, Rel } from '../src/store/entities.js';
import { FloatBox, Path, type Value } from './values.js';
import { isExtendedValue } from './types.js';

/** Nodes and relationships are canonical objects, so they serve as their own keys. */
export type GroupKey = string | number | bigint | boolean | null | Node | Rel;

const TAG = '\u0000';
const TWO_POW_53 = 9007199254740992;

function floatKey(x: number): number | bigint {
  return Number.isInteger(x) && Math.abs(x) >= TWO_POW_53 ? BigInt(x) : x;
}

export function groupKey(v: Value): GroupKey {
  switch (typeof v) {
    case 'number':
      return v;
    case 'string':
      return v.length === 0 || v.charCodeAt(0) !== 0 ? v : TAG + 's' + v;
    case 'boolean':
    case 'bigint':
      return v;
    default:
      break;
  }
  if (v === null) return null;
  if (v instanceof FloatBox) return floatKey(v.value);
  if (v instanceof Node || v instanceof Rel) return v;
  return TAG + composite(v);
}

/** A key for a row of values (several grouping columns, a DISTINCT row). */
export function rowKey(values: readonly Value[]): GroupKey {
  if (values.length === 1) return groupKey(values[0]);
  let s = TAG + 'r';
  for (const v of values) s += part(v) + ',';
  return s;
}

function part(v: Value): string {
  switch (typeof v) {
    case 'number':
      return 'd' + String(v);
    case 'bigint':
      return 'd' + v.toString();
    case 'string':
      return 's' + JSON.stringify(v);
    case 'boolean':
      return v ? 't' : 'f';
    default:
      break;
  }
  if (v === null) return 'n';
  if (v instanceof FloatBox) {
    const k = floatKey(v.value);
    return 'd' + k.toString();
  }
  return composite(v);
}

function composite(v: Value): string {
  if (Array.isArray(v)) {
    let s = '[';
    for (const x of v) s += part(x) + ',';
    return s + ']';
  }
  if (v instanceof Map) {
    const keys = [...v.keys()].sort();
    let s = '{';
    for (const k of keys) s += JSON.stringify(k) + ':' + part(v.get(k) as Value) + ',';
    return s + '}';
  }
  if (v instanceof Node) return 'N' + v.id;
  if (v instanceof Rel) return 'R' + v.id;
  if (v instanceof Path) {
    let s = 'P' + v.nodes[0].id;
    for (let i = 0; i < v.rels.length; i++) s += '/' + v.rels[i].id + '/' + v.nodes[i + 1].id;
    return s;
  }
  if (v instanceof Float32Array) return 'V' + Array.from(v).join(',');
  if (isExtendedValue(v)) return 'X' + v.cypherType + ':' + v.hashKey();
  return '?';
}
