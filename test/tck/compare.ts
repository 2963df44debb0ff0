/**
 * Comparing engine results with the TCK's expected tables: structural value matching
 * (`matchValue`), whole-result comparison in order or as a multiset of rows
 * (`compareResult`), and a TCK-style printer for engine values (`formatValue`) used in
 * failure reasons.
 *
 * Matching rules:
 * - integers and floats are different things: `1` never matches `1.0`;
 * - floats match exactly (NaN matches NaN; 0.0 matches -0.0);
 * - strings match exactly; the TCK has no temporal literals and writes temporal results as
 *   strings (`'1984-10-11'`, `'PT1H'`), so an engine DATE, LOCAL TIME, ZONED TIME,
 *   LOCAL DATETIME, ZONED DATETIME or DURATION matches an expected string exactly equal to
 *   its canonical text; no other value type (points included) ever matches a string;
 * - nodes match on their label set and properties; relationships on type and properties;
 *   paths hop by hop, including each relationship's direction;
 * - maps match on the exact key set; lists element by element in order, or as multisets
 *   when the scenario says "ignoring element order for lists".
 */

import { FloatBox, Path, type ExtendedValue, type Value } from '../../runtime/values.js';
import { Node, Rel } from '../../src/store/entities.js';
import type { Expected, ExpectedNode, ExpectedRel } from './literals.js';

export interface MatchOptions {
  /** Compare lists as multisets (the TCK's "ignoring element order for lists"). */
  unorderedLists: boolean;
}

function isExtended(v: Value): v is ExtendedValue {
  return typeof v === 'object' && v !== null && typeof (v as Partial<ExtendedValue>).toCypherString === 'function' && typeof (v as Partial<ExtendedValue>).cypherType === 'string';
}

/** The Cypher types of temporal values, which the TCK writes as strings. */
const TEMPORAL_TYPES: ReadonlySet<string> = new Set(['DATE', 'LOCAL TIME', 'ZONED TIME', 'LOCAL DATETIME', 'ZONED DATETIME', 'DURATION']);

function isTemporal(v: ExtendedValue): boolean {
  return TEMPORAL_TYPES.has(v.cypherType);
}

/** Canonical text of a temporal value (without surrounding quotes, should a printer add them). */
function temporalText(v: ExtendedValue): string {
  const s = v.toCypherString();
  return s.length >= 2 && s.startsWith("'") && s.endsWith("'") ? s.slice(1, -1) : s;
}

function propsMatch(expected: Map<string, Expected>, actual: Map<string, Value>, opts: MatchOptions): boolean {
  let actualCount = 0;
  for (const v of actual.values()) if (v !== null) actualCount++;
  if (expected.size !== actualCount) return false;
  for (const [k, e] of expected) {
    if (!actual.has(k)) return false;
    if (!matchValue(e, actual.get(k) ?? null, opts)) return false;
  }
  return true;
}

function nodeMatches(e: ExpectedNode, a: Value, opts: MatchOptions): boolean {
  if (!(a instanceof Node)) return false;
  const labels = new Set(a.labels);
  if (labels.size !== new Set(e.labels).size) return false;
  for (const l of e.labels) if (!labels.has(l)) return false;
  return propsMatch(e.props, a.propertyMap(), opts);
}

function relMatches(e: ExpectedRel, a: Value, opts: MatchOptions): boolean {
  if (!(a instanceof Rel)) return false;
  return a.type === e.type && propsMatch(e.props, a.propertyMap(), opts);
}

/** Multiset match: every expected item pairs with a distinct actual item. Greedy is enough because matching is an equivalence. */
function bagMatch<E, A>(expected: readonly E[], actual: readonly A[], eq: (e: E, a: A) => boolean): boolean {
  if (expected.length !== actual.length) return false;
  const used = new Array<boolean>(actual.length).fill(false);
  outer: for (const e of expected) {
    for (let i = 0; i < actual.length; i++) {
      if (!used[i] && eq(e, actual[i]!)) {
        used[i] = true;
        continue outer;
      }
    }
    return false;
  }
  return true;
}

/** Whether an engine value matches an expected TCK value. */
export function matchValue(e: Expected, a: Value, opts: MatchOptions = { unorderedLists: false }): boolean {
  switch (e.k) {
    case 'null':
      return a === null;
    case 'bool':
      return a === e.v;
    case 'int':
      if (typeof a === 'bigint') return a === e.v;
      return typeof a === 'number' && Number.isInteger(a) && BigInt(a) === e.v;
    case 'float': {
      let n: number;
      if (a instanceof FloatBox) n = a.value;
      else if (typeof a === 'number' && !Number.isInteger(a)) n = a;
      else return false;
      return Number.isNaN(e.v) ? Number.isNaN(n) : n === e.v;
    }
    case 'string':
      if (typeof a === 'string') return a === e.v;
      return a !== null && isExtended(a) && isTemporal(a) && temporalText(a) === e.v;
    case 'list':
      if (!Array.isArray(a)) return false;
      if (opts.unorderedLists) return bagMatch(e.items, a, (x, y) => matchValue(x, y, opts));
      return a.length === e.items.length && e.items.every((x, i) => matchValue(x, a[i]!, opts));
    case 'map': {
      if (!(a instanceof Map)) return false;
      if (a.size !== e.entries.size) return false;
      for (const [k, x] of e.entries) {
        if (!a.has(k) || !matchValue(x, a.get(k) ?? null, opts)) return false;
      }
      return true;
    }
    case 'node':
      return nodeMatches(e, a, opts);
    case 'rel':
      return relMatches(e, a, opts);
    case 'path': {
      if (!(a instanceof Path)) return false;
      if (a.rels.length !== e.steps.length || a.nodes.length !== e.steps.length + 1) return false;
      if (!nodeMatches(e.start, a.nodes[0]!, opts)) return false;
      for (let i = 0; i < e.steps.length; i++) {
        const step = e.steps[i]!;
        const rel = a.rels[i]!;
        const from = a.nodes[i]!;
        const to = a.nodes[i + 1]!;
        const forward = rel.start === from && rel.end === to;
        const backward = rel.start === to && rel.end === from;
        if (step.dir === 'out' ? !forward : !backward) return false;
        if (!relMatches(step.rel, rel, opts)) return false;
        if (!nodeMatches(step.node, to, opts)) return false;
      }
      return true;
    }
  }
}

/** How rows are compared. */
export interface ResultMode {
  ordered: boolean;
  unorderedLists: boolean;
}

export interface ExpectedTable {
  columns: string[];
  rows: Expected[][];
}

/** Compares a result with an expected table; returns null when they match, else a short reason. */
export function compareResult(expected: ExpectedTable, columns: readonly string[], records: readonly (readonly Value[])[], mode: ResultMode): string | null {
  if (expected.columns.length !== columns.length || expected.columns.some((c, i) => c !== columns[i])) {
    return `columns mismatch: expected [${expected.columns.join(', ')}], got [${columns.join(', ')}]`;
  }
  const opts: MatchOptions = { unorderedLists: mode.unorderedLists };
  const rowEq = (e: Expected[], a: readonly Value[]): boolean => e.length === a.length && e.every((x, i) => matchValue(x, a[i] ?? null, opts));
  const ok = mode.ordered
    ? expected.rows.length === records.length && expected.rows.every((r, i) => rowEq(r, records[i]!))
    : bagMatch(expected.rows, records, rowEq);
  if (ok) return null;
  if (expected.rows.length !== records.length) {
    return `result mismatch: expected ${expected.rows.length} rows, got ${records.length}`;
  }
  return mode.ordered ? 'result mismatch (in order)' : 'result mismatch';
}

/** Prints an engine value in the TCK's notation (for failure reports). */
export function formatValue(v: Value): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return 'NaN';
    if (v === Infinity) return 'Inf';
    if (v === -Infinity) return '-Inf';
    return String(v);
  }
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  if (v instanceof FloatBox) return Object.is(v.value, -0) ? '-0.0' : Number.isFinite(v.value) ? `${v.value}.0`.replace(/e(.*)\.0$/, '.0e$1') : formatValue(v.value);
  if (Array.isArray(v)) return `[${v.map(formatValue).join(', ')}]`;
  if (v instanceof Map) return formatProps(v, false) || '{}';
  if (v instanceof Node) return formatNode(v);
  if (v instanceof Rel) return formatRel(v);
  if (v instanceof Path) {
    let s = `<${formatNode(v.nodes[0]!)}`;
    for (let i = 0; i < v.rels.length; i++) {
      const r = v.rels[i]!;
      const forward = r.start === v.nodes[i];
      s += forward ? `-${formatRel(r)}->` : `<-${formatRel(r)}-`;
      s += formatNode(v.nodes[i + 1]!);
    }
    return `${s}>`;
  }
  if (v instanceof Float32Array) return `vector[${Array.from(v).join(', ')}]`;
  if (isExtended(v)) return isTemporal(v) ? `'${temporalText(v)}'` : v.toCypherString();
  return String(v);
}

function formatProps(m: Map<string, Value>, skipNulls = true): string {
  const parts: string[] = [];
  for (const [k, x] of m) if (x !== null || !skipNulls) parts.push(`${k}: ${formatValue(x)}`);
  return parts.length ? `{${parts.join(', ')}}` : '';
}

function formatNode(n: Node): string {
  const labels = n.labels.map((l) => `:${l}`).join('');
  const props = formatProps(n.propertyMap());
  return `(${labels}${labels && props ? ' ' : ''}${props})`;
}

function formatRel(r: Rel): string {
  const props = formatProps(r.propertyMap());
  return `[:${r.type}${props ? ' ' : ''}${props}]`;
}
