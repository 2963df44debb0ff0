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

export function toJsonText(v: Value): string {
  const holes: string[] = [];
  const text = JSON.stringify(jsonValue(v), (_k, x: unknown) => {
    if (x instanceof RawNumber) {
      holes.push(x.digits);
      return `@@bigint${holes.length - 1}@@`;
    }
    return x;
  });
  return holes.length === 0 ? text : text.replace(/"@@bigint(\d+)@@"/g, (_m, i: string) => holes[Number(i)]);
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
