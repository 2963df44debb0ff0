/**
 * Values as text and across the JavaScript boundary:
 *
 * - `formatValue` — the Cypher literal-like text the TCK prints (`'abc'`, `1.0`, `[1, 2]`,
 *   `{a: 1}`, `(:A {k: 1})`, `[:T]`, `<(:A)-[:T]->()>`).
 * - `cellText` — the string a JSON response cell carries (SPEC: every cell is a string):
 *   strings unquoted, null as `null`, everything else as `formatValue`.
 * - `fromJs` / `toJs` — parameters in, results out for library users.
 */

import { ValueTypeError } from '../src/errors.js';
import { Node, Rel } from '../src/store/entities.js';
import { FloatBox, MAX_INT64, MIN_INT64, Path, intFromBigInt, type Value } from './values.js';
import { formatFloat } from './numfmt.js';
import { isExtendedValue } from './types.js';

export { formatFloat };

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A string as a single-quoted Cypher literal. */
export function quoteString(s: string): string {
  let out = "'";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    switch (c) {
      case '\\':
        out += '\\\\';
        break;
      case "'":
        out += "\\'";
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      default:
        out += c;
    }
  }
  return out + "'";
}

/** A name (label, type, key) as written in Cypher: bare when an identifier, else in backticks. */
export function formatName(name: string): string {
  return IDENT.test(name) ? name : '`' + name.replace(/`/g, '``') + '`';
}

function formatProps(props: Map<string, Value>): string {
  if (props.size === 0) return '';
  const parts: string[] = [];
  for (const [k, v] of props) parts.push(`${formatName(k)}: ${formatValue(v)}`);
  return '{' + parts.join(', ') + '}';
}

function formatNode(n: Node): string {
  let s = '(';
  for (const l of n.labels) s += ':' + formatName(l);
  const p = formatProps(n.propertyMap());
  if (p) s += (n.labels.length ? ' ' : '') + p;
  return s + ')';
}

function formatRel(r: Rel): string {
  const p = formatProps(r.propertyMap());
  return '[:' + formatName(r.type) + (p ? ' ' + p : '') + ']';
}

function formatPath(p: Path): string {
  let s = '<' + formatNode(p.nodes[0]);
  for (let i = 0; i < p.rels.length; i++) {
    const r = p.rels[i];
    const from = p.nodes[i];
    const forward = r.start.id === from.id;
    s += (forward ? '-' : '<-') + formatRel(r) + (forward ? '->' : '-') + formatNode(p.nodes[i + 1]);
  }
  return s + '>';
}

/** The Cypher text form of a value, as the TCK prints it. */
export function formatValue(v: Value): string {
  switch (typeof v) {
    case 'string':
      return quoteString(v);
    case 'number':
      return Number.isInteger(v) ? String(v) : formatFloat(v);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      break;
  }
  if (v === null) return 'null';
  if (v instanceof FloatBox) return formatFloat(v.value);
  if (Array.isArray(v)) return '[' + v.map(formatValue).join(', ') + ']';
  if (v instanceof Map) return formatProps(v) || '{}';
  if (v instanceof Node) return formatNode(v);
  if (v instanceof Rel) return formatRel(v);
  if (v instanceof Path) return formatPath(v);
  if (v instanceof Float32Array) return 'vector([' + Array.from(v, (x) => formatFloat(x)).join(', ') + '])';
  if (isExtendedValue(v)) return v.toCypherString();
  return String(v);
}

/** The text of one result cell in JSON responses: strings raw, null as `null`, the rest as `formatValue`. */
export function cellText(v: Value): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : formatFloat(v);
  return formatValue(v);
}

// ---------------------------------------------------------------------------------------
// JavaScript boundary

const MIN_SAFE = Number.MIN_SAFE_INTEGER;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A JavaScript/JSON value as a Cypher value: integral numbers are integers (floats when
 * beyond 64 bits), other numbers floats, bigints integers, arrays lists, `Map`s and plain
 * objects maps. Values that already are Cypher values (nodes, FloatBox, …) pass through.
 */
/**
 * Whether every element is a number that `fromJs` keeps as it is (not -0, no integer beyond
 * the safe range): such a list — a query vector, typically — is copied as it is, which
 * keeps V8's unboxed double storage instead of boxing each element through `map`.
 */
function plainNumbers(x: unknown[]): boolean {
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    if (typeof v !== 'number' || (v === 0 && 1 / v < 0) || (Number.isInteger(v) && (v < MIN_SAFE || v > MAX_SAFE))) return false;
  }
  return true;
}

export function fromJs(x: unknown): Value {
  switch (typeof x) {
    case 'number':
      if (Number.isInteger(x) && (x < MIN_SAFE || x > MAX_SAFE)) {
        const b = BigInt(x);
        return b > MAX_INT64 || b < MIN_INT64 ? new FloatBox(x) : b;
      }
      return x + 0; // -0 becomes the integer 0
    case 'string':
    case 'boolean':
      return x;
    case 'bigint':
      if (x > MAX_INT64 || x < MIN_INT64) throw new ValueTypeError(`Integer ${x} is outside the 64-bit range`, 'InvalidArgumentValue');
      return intFromBigInt(x);
    case 'undefined':
      return null;
    case 'object':
      break;
    default:
      throw new ValueTypeError(`A ${typeof x} cannot be used as a Cypher value`, 'InvalidArgumentType');
  }
  if (x === null) return null;
  if (Array.isArray(x)) return plainNumbers(x) ? x.slice() : x.map(fromJs);
  if (x instanceof Map) {
    const m = new Map<string, Value>();
    for (const [k, v] of x) m.set(String(k), fromJs(v));
    return m;
  }
  if (x instanceof FloatBox || x instanceof Node || x instanceof Rel || x instanceof Path || x instanceof Float32Array) return x;
  if (isExtendedValue(x)) return x;
  const proto = Object.getPrototypeOf(x) as unknown;
  if (proto === Object.prototype || proto === null) {
    const m = new Map<string, Value>();
    for (const [k, v] of Object.entries(x)) m.set(k, fromJs(v));
    return m;
  }
  const name = (x as { constructor?: { name?: string } }).constructor?.name ?? 'object';
  throw new ValueTypeError(`A ${name} cannot be used as a Cypher value`, 'InvalidArgumentType');
}

export interface JsNode {
  id: number;
  labels: string[];
  properties: Record<string, unknown>;
}

export interface JsRelationship {
  id: number;
  type: string;
  start: number;
  end: number;
  properties: Record<string, unknown>;
}

export interface JsPath {
  nodes: JsNode[];
  relationships: JsRelationship[];
}

function propsToJs(props: Map<string, Value>): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of props) o[k] = toJs(v);
  return o;
}

function nodeToJs(n: Node): JsNode {
  return { id: n.id, labels: [...n.labels], properties: propsToJs(n.propertyMap()) };
}

function relToJs(r: Rel): JsRelationship {
  return { id: r.id, type: r.type, start: r.start.id, end: r.end.id, properties: propsToJs(r.propertyMap()) };
}

/**
 * A Cypher value as a plain JavaScript value for library users: integers as numbers (or
 * bigints beyond 2^53), floats as numbers, maps as plain objects, nodes as
 * `{id, labels, properties}`, relationships as `{id, type, start, end, properties}`, paths
 * as `{nodes, relationships}`, vectors as number arrays; extended values via their own
 * `toJs()` when they have one, else their text form.
 */
export function toJs(v: Value): unknown {
  switch (typeof v) {
    case 'number':
    case 'string':
    case 'boolean':
    case 'bigint':
      return v;
    default:
      break;
  }
  if (v === null) return null;
  if (v instanceof FloatBox) return v.value;
  if (Array.isArray(v)) return v.map(toJs);
  if (v instanceof Map) return propsToJs(v);
  if (v instanceof Node) return nodeToJs(v);
  if (v instanceof Rel) return relToJs(v);
  if (v instanceof Path) return { nodes: v.nodes.map(nodeToJs), relationships: v.rels.map(relToJs) } satisfies JsPath;
  if (v instanceof Float32Array) return Array.from(v);
  const own = (v as { toJs?: unknown }).toJs;
  if (typeof own === 'function') return (own as () => unknown).call(v);
  return v.toCypherString();
}
