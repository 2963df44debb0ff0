/**
 * JSON text for Cypher values the way APOC writes it (apoc.convert.toJson, apoc.export.json.*):
 * nodes as `{id, type:"node", labels, properties}`, relationships as `{id, type:"relationship",
 * label, start, end, properties}`, temporal and spatial values as their Cypher text, and
 * integers beyond 2^53 as exact digits. Parsing goes the other way through `fromJs`.
 */

import { Node, Rel } from '../../src/store/entities.js';
import { FloatBox, Path, type Value } from '../../runtime/values.js';
import { fromJs } from '../../runtime/format.js';
import { ArgumentError } from '../../src/errors.js';
import { checkStringLength } from '../../runtime/governor.js';

/** A JSON-ready JavaScript value for `v`. */
export function jsonValue(v: Value): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : new RawNumber(v.toString());
  if (v instanceof FloatBox) return v.value;
  if (Array.isArray(v)) return v.map(jsonValue);
  if (v instanceof Float32Array) return Array.from(v);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, jsonValue(x)]));
  if (v instanceof Node) return { id: String(v.id), type: 'node', labels: [...v.labels], properties: jsonValue(v.propertyMap()) };
  if (v instanceof Rel) {
    return { id: String(v.id), type: 'relationship', label: v.type, start: { id: String(v.start.id), labels: [...v.start.labels] }, end: { id: String(v.end.id), labels: [...v.end.labels] }, properties: jsonValue(v.propertyMap()) };
  }
  if (v instanceof Path) return { nodes: v.nodes.map(jsonValue), relationships: v.rels.map(jsonValue), length: v.rels.length };
  return v.toCypherString();
}

/** An integer too large for a JS number, written out digit for digit. */
class RawNumber {
  constructor(readonly digits: string) {}
}

/**
 * JSON text of `v`; with `maxLength`, refused (MEMORY_LIMIT, naming `what`) before the text
 * is built when it would be longer: its exact length is counted first, stopping as soon as
 * it passes the bound.
 */
export function toJsonText(v: Value, maxLength?: number, what = 'JSON text'): string {
  const js = jsonValue(v);
  if (maxLength !== undefined) {
    const n = jsonLength(js, maxLength);
    if (n > maxLength) checkStringLength(n, what);
  }
  const holes: string[] = [];
  const text = JSON.stringify(js, (_k, x: unknown) => {
    if (x instanceof RawNumber) {
      holes.push(x.digits);
      return `@@bigint${holes.length - 1}@@`;
    }
    return x;
  });
  return holes.length === 0 ? text : text.replace(/"@@bigint(\d+)@@"/g, (_m, i: string) => holes[Number(i)]);
}

/** The length of a JSON string literal of `s`, quotes and escapes included. */
function quotedLength(s: string): number {
  let n = s.length + 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 34 || c === 92 || c === 8 || c === 9 || c === 10 || c === 12 || c === 13) n += 1;
    else if (c < 0x20) n += 5;
    else if (c >= 0xd800 && c <= 0xdfff) {
      // A paired surrogate is written as it is; a lone one as \uXXXX.
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
      else n += 5;
    }
  }
  return n;
}

/** The length of JSON.stringify(js) for a value `jsonValue` made, counted up to just past `limit`. */
function jsonLength(js: unknown, limit: number): number {
  let total = 0;
  const visit = (x: unknown): void => {
    if (total > limit) return;
    if (x === null || x === undefined) total += 4;
    else if (typeof x === 'string') total += quotedLength(x);
    else if (typeof x === 'number') total += String(x).length;
    else if (typeof x === 'boolean') total += x ? 4 : 5;
    else if (x instanceof RawNumber) total += x.digits.length;
    else if (Array.isArray(x)) {
      total += 2 + Math.max(0, x.length - 1);
      for (const e of x) visit(e);
    } else {
      const entries = Object.entries(x as Record<string, unknown>);
      total += 2 + Math.max(0, entries.length - 1);
      for (const [k, e] of entries) {
        total += quotedLength(k) + 1;
        visit(e);
      }
    }
  };
  visit(js);
  return total;
}

/** Parses JSON text into a Cypher value; `what` names the caller in the error. */
export function parseJsonText(text: string, what: string): Value {
  try {
    return fromJs(JSON.parse(text) as unknown);
  } catch (err) {
    throw new ArgumentError(`${what}: the text is not valid JSON (${(err as Error).message})`, 'InvalidJson');
  }
}

/** Follows a JSONPath-like `$.a.b[0]` (or `a.b`) into a parsed value; null where it leads nowhere. */
export function jsonPath(v: Value, path: string): Value {
  const p = path.trim().replace(/^\$\.?/, '');
  if (p === '') return v;
  let cur: Value = v;
  for (const part of p.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (cur === null) return null;
    if (part.startsWith('[')) cur = Array.isArray(cur) ? (cur[Number(part.slice(1, -1))] ?? null) : null;
    else cur = cur instanceof Map ? (cur.get(part) ?? null) : null;
  }
  return cur;
}
