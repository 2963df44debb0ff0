/**
 * Cypher comparison semantics:
 *
 * - `equals` — the `=` operator, three-valued: null when either side is null or when a
 *   list/map comparison cannot be decided because of a null inside; `1 = 1.0`; NaN equals
 *   nothing; nodes and relationships by id; paths by their elements.
 * - `compare` / `lt` `lte` `gt` `gte` — the ordering operators: numbers (exact across
 *   integer kinds and floats), strings by code point, booleans, lists lexicographically,
 *   extended values of one type; anything else is incomparable (null).
 * - `orderCompare` — the total order ORDER BY, min() and max() use (openCypher
 *   orderability): MAP < NODE < RELATIONSHIP < LIST < PATH < extended types < STRING <
 *   BOOLEAN < NUMBER < VECTOR < NULL, NaN after every other number.
 *
 * Grouping keys (equivalence rather than equality) live in groupkey.ts.
 */

import { Node, Rel } from '../src/store/entities.js';
import { FloatBox, Path, type ExtendedValue, type Value } from './values.js';
import { isExtendedValue } from './types.js';

// ---------------------------------------------------------------------------------------
// Strings

/** Maps a UTF-16 code unit so that unit order becomes code point order. */
function unitRank(c: number): number {
  if (c < 0xd800) return c;
  return c >= 0xe000 ? c - 0x800 : c + 0x2000;
}

/** Compares strings by Unicode code point (not UTF-16 unit, not locale). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      if (x < 0xd800 && y < 0xd800) return x - y;
      return unitRank(x) - unitRank(y);
    }
  }
  return a.length - b.length;
}

// ---------------------------------------------------------------------------------------
// Numbers

/** Numeric value of a Cypher number as number or bigint (FloatBox unwrapped). */
function numValue(v: number | bigint | FloatBox): number | bigint {
  return v instanceof FloatBox ? v.value : v;
}

function isNum(v: Value): v is number | bigint | FloatBox {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof FloatBox;
}

/** Exact comparison of two numbers; NaN when either is NaN (JS mixed number/bigint comparison is exact). */
function compareNumbers(a: number | bigint, b: number | bigint): number {
  if (a < b) return -1;
  if (a > b) return 1;
  // eslint-disable-next-line eqeqeq -- loose equality compares number with bigint exactly
  if (a == b) return 0;
  return NaN;
}

function numEquals(a: number | bigint, b: number | bigint): boolean {
  // eslint-disable-next-line eqeqeq -- loose equality compares number with bigint exactly
  return typeof a === typeof b ? a === b : a == b;
}

// ---------------------------------------------------------------------------------------
// Equality

/** Cypher `=`: true, false, or null when undecidable. */
export function equals(a: Value, b: Value): boolean | null {
  if (a === null || b === null) return null;
  if (typeof a === 'number') {
    if (typeof b === 'number') return a === b;
    if (b instanceof FloatBox) return a === b.value;
    if (typeof b === 'bigint') return numEquals(a, b);
    return false;
  }
  if (typeof a === 'string' || typeof a === 'boolean') return a === b;
  if (isNum(a)) return isNum(b) ? numEquals(numValue(a), numValue(b)) : false;
  if (Array.isArray(a)) return Array.isArray(b) ? listEquals(a, b) : false;
  if (a instanceof Map) return b instanceof Map ? mapEquals(a, b) : false;
  if (a instanceof Node) return b instanceof Node && a.id === b.id;
  if (a instanceof Rel) return b instanceof Rel && a.id === b.id;
  if (a instanceof Path) return b instanceof Path && pathEquals(a, b);
  if (a instanceof Float32Array) return b instanceof Float32Array && vectorEquals(a, b);
  if (isExtendedValue(a)) {
    return isExtendedValue(b) && a.cypherType === b.cypherType ? a.equalsValue(b) : false;
  }
  return false;
}

/** Cypher `<>`. */
export function notEquals(a: Value, b: Value): boolean | null {
  const r = equals(a, b);
  return r === null ? null : !r;
}

function listEquals(a: Value[], b: Value[]): boolean | null {
  if (a.length !== b.length) return false;
  let unknown = false;
  for (let i = 0; i < a.length; i++) {
    const r = equals(a[i], b[i]);
    if (r === false) return false;
    if (r === null) unknown = true;
  }
  return unknown ? null : true;
}

function mapEquals(a: Map<string, Value>, b: Map<string, Value>): boolean | null {
  if (a.size !== b.size) return false;
  for (const k of a.keys()) if (!b.has(k)) return false;
  let unknown = false;
  for (const [k, v] of a) {
    const r = equals(v, b.get(k) as Value);
    if (r === false) return false;
    if (r === null) unknown = true;
  }
  return unknown ? null : true;
}

function pathEquals(a: Path, b: Path): boolean {
  if (a.rels.length !== b.rels.length) return false;
  for (let i = 0; i < a.nodes.length; i++) if (a.nodes[i].id !== b.nodes[i].id) return false;
  for (let i = 0; i < a.rels.length; i++) if (a.rels[i].id !== b.rels[i].id) return false;
  return true;
}

function vectorEquals(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// ---------------------------------------------------------------------------------------
// Ordering operators

/**
 * Comparison for `< <= > >=`: negative, zero or positive; NaN when the values are
 * comparable but unordered (a NaN is involved: every operator is false); null when
 * incomparable (every operator is null).
 */
export function compare(a: Value, b: Value): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : a === b ? 0 : NaN;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (a === null || b === null) return null;
  if (isNum(a)) return isNum(b) ? compareNumbers(numValue(a), numValue(b)) : null;
  if (typeof a === 'boolean') return typeof b === 'boolean' ? (a === b ? 0 : a ? 1 : -1) : null;
  if (Array.isArray(a)) return Array.isArray(b) ? compareLists(a, b) : null;
  if (isExtendedValue(a)) {
    if (!isExtendedValue(b) || a.cypherType !== b.cypherType) return null;
    return a.compareValue(b) ?? null;
  }
  return null;
}

function compareLists(a: Value[], b: Value[]): number | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compare(a[i], b[i]);
    if (c === null) return null;
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

export function lt(a: Value, b: Value): boolean | null {
  if (typeof a === 'number' && typeof b === 'number') return a < b;
  const c = compare(a, b);
  return c === null ? null : c < 0;
}

export function lte(a: Value, b: Value): boolean | null {
  if (typeof a === 'number' && typeof b === 'number') return a <= b;
  const c = compare(a, b);
  return c === null ? null : c <= 0;
}

export function gt(a: Value, b: Value): boolean | null {
  if (typeof a === 'number' && typeof b === 'number') return a > b;
  const c = compare(a, b);
  return c === null ? null : c > 0;
}

export function gte(a: Value, b: Value): boolean | null {
  if (typeof a === 'number' && typeof b === 'number') return a >= b;
  const c = compare(a, b);
  return c === null ? null : c >= 0;
}

// ---------------------------------------------------------------------------------------
// Orderability (ORDER BY, min, max)

/** Order of extended types among themselves (Neo4j's orderability); unknown types sort after, by name. */
const EXTENDED_ORDER: Record<string, number> = {
  POINT: 0,
  DATE_TIME: 1,
  DATETIME: 1,
  'ZONED DATETIME': 1,
  ZONED_DATETIME: 1,
  LOCAL_DATE_TIME: 2,
  LOCALDATETIME: 2,
  'LOCAL DATETIME': 2,
  LOCAL_DATETIME: 2,
  DATE: 3,
  TIME: 4,
  'ZONED TIME': 4,
  ZONED_TIME: 4,
  LOCAL_TIME: 5,
  LOCALTIME: 5,
  'LOCAL TIME': 5,
  DURATION: 6,
};

const R_MAP = 0;
const R_NODE = 1;
const R_REL = 2;
const R_LIST = 3;
const R_PATH = 4;
const R_EXT = 5;
const R_STRING = 6;
const R_BOOLEAN = 7;
const R_NUMBER = 8;
const R_VECTOR = 9;
const R_NULL = 10;

function orderRank(v: Value): number {
  if (v === null) return R_NULL;
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return R_NUMBER;
    case 'string':
      return R_STRING;
    case 'boolean':
      return R_BOOLEAN;
    default:
      break;
  }
  if (v instanceof FloatBox) return R_NUMBER;
  if (Array.isArray(v)) return R_LIST;
  if (v instanceof Map) return R_MAP;
  if (v instanceof Node) return R_NODE;
  if (v instanceof Rel) return R_REL;
  if (v instanceof Path) return R_PATH;
  if (v instanceof Float32Array) return R_VECTOR;
  return R_EXT;
}

function orderNumbers(a: number | bigint, b: number | bigint): number {
  const aNaN = typeof a === 'number' && a !== a;
  const bNaN = typeof b === 'number' && b !== b;
  if (aNaN || bNaN) return aNaN === bNaN ? 0 : aNaN ? 1 : -1;
  // eslint-disable-next-line eqeqeq -- exact number/bigint comparison
  return a < b ? -1 : a == b ? 0 : 1;
}

function orderExtended(a: ExtendedValue, b: ExtendedValue): number {
  if (a.cypherType !== b.cypherType) {
    const ra = EXTENDED_ORDER[a.cypherType] ?? 100;
    const rb = EXTENDED_ORDER[b.cypherType] ?? 100;
    if (ra !== rb) return ra - rb;
    return compareStrings(a.cypherType, b.cypherType);
  }
  const c = a.compareValue(b);
  if (c !== undefined && c === c) return c;
  return compareStrings(a.hashKey(), b.hashKey());
}

function orderLists(a: readonly Value[], b: readonly Value[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = orderCompare(a[i], b[i]);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

function orderMaps(a: Map<string, Value>, b: Map<string, Value>): number {
  const ka = [...a.keys()].sort(compareStrings);
  const kb = [...b.keys()].sort(compareStrings);
  const n = Math.min(ka.length, kb.length);
  for (let i = 0; i < n; i++) {
    const c = compareStrings(ka[i], kb[i]);
    if (c !== 0) return c;
    const d = orderCompare(a.get(ka[i]) as Value, b.get(kb[i]) as Value);
    if (d !== 0) return d;
  }
  return ka.length - kb.length;
}

function orderPaths(a: Path, b: Path): number {
  const n = Math.min(a.rels.length, b.rels.length);
  for (let i = 0; i < n; i++) {
    const c = a.nodes[i].id - b.nodes[i].id;
    if (c !== 0) return c;
    const d = a.rels[i].id - b.rels[i].id;
    if (d !== 0) return d;
  }
  if (a.rels.length !== b.rels.length) return a.rels.length - b.rels.length;
  return a.nodes[n].id - b.nodes[n].id;
}

/**
 * The total order of ORDER BY (ascending): negative when `a` sorts before `b`. Values of
 * different types sort by type; null sorts last (so first when descending).
 */
export function orderCompare(a: Value, b: Value): number {
  if (typeof a === 'number' && typeof b === 'number') {
    if (a < b) return -1;
    if (a > b) return 1;
    if (a === b) return 0;
    return orderNumbers(a, b);
  }
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  const ra = orderRank(a);
  const rb = orderRank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case R_NULL:
      return 0;
    case R_NUMBER:
      return orderNumbers(numValue(a as number), numValue(b as number));
    case R_BOOLEAN:
      return a === b ? 0 : a ? 1 : -1;
    case R_LIST:
      return orderLists(a as Value[], b as Value[]);
    case R_MAP:
      return orderMaps(a as Map<string, Value>, b as Map<string, Value>);
    case R_NODE:
      return (a as Node).id - (b as Node).id;
    case R_REL:
      return (a as Rel).id - (b as Rel).id;
    case R_PATH:
      return orderPaths(a as Path, b as Path);
    case R_VECTOR:
      return orderLists(Array.from(a as Float32Array), Array.from(b as Float32Array));
    default:
      if (isExtendedValue(a) && isExtendedValue(b)) return orderExtended(a, b);
      return 0;
  }
}

/** Descending ORDER BY: the reverse of `orderCompare` (null first). */
export function orderCompareDesc(a: Value, b: Value): number {
  return orderCompare(b, a);
}
