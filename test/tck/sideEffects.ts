/**
 * The TCK's side-effect counters, computed by diffing two snapshots of the graph (taken just
 * before and just after the query under test) rather than trusting the engine's own stats.
 *
 * Our reading of the TCK's definitions, checked against its scenarios:
 * - `+nodes` / `-nodes`: nodes present after but not before / before but not after
 *   (identity of the store's Node objects, so a node deleted and another created count both).
 * - `+relationships` / `-relationships`: likewise for relationships.
 * - `+labels` / `-labels`: label NAMES newly present in / gone from the graph as a whole,
 *   not label additions to nodes. Evidence: `CREATE (:Label), (:Label)` expects `+labels 1`
 *   (Create1 [4]); deleting two `:User` nodes expects `-labels 1` (Delete5 [3]).
 * - `+properties` / `-properties`: (entity, key, value) triples newly present / gone. So
 *   overwriting a value counts one of each (Set1 [1]: `SET n.name = 'Michael'` over
 *   'Andres' expects +1 and -1), setting the same value counts nothing, and deleting a node
 *   with one property counts `-properties 1` (Delete6 [1]).
 */

import type { Value } from '../../runtime/values.js';
import { FloatBox } from '../../runtime/values.js';
import type { Node, Rel } from '../../src/store/entities.js';

/** The part of the store's Graph a snapshot needs. */
export interface GraphView {
  allNodes(): Iterable<Node>;
  allRels(): Iterable<Rel>;
}

export const SIDE_EFFECT_KEYS = ['+nodes', '-nodes', '+relationships', '-relationships', '+labels', '-labels', '+properties', '-properties'] as const;
export type SideEffectKey = (typeof SIDE_EFFECT_KEYS)[number];
export type SideEffects = Record<SideEffectKey, number>;

export interface GraphSnapshot {
  nodes: Set<object>;
  rels: Set<object>;
  labels: Set<string>;
  properties: Set<string>;
}

/** A canonical, type-tagged text of a property value: equal iff the values are the same value of the same type. */
export function valueKey(v: Value): string {
  if (v === null) return 'z';
  if (typeof v === 'boolean') return v ? 'T' : 'F';
  if (typeof v === 'bigint') return `i${v.toString()}`;
  if (typeof v === 'number') return Number.isInteger(v) ? `i${v}` : `f${Object.is(v, -0) ? '-0' : String(v)}`;
  if (v instanceof FloatBox) return `f${Object.is(v.value, -0) ? '-0' : String(v.value)}`;
  if (typeof v === 'string') return `s${JSON.stringify(v)}`;
  if (Array.isArray(v)) return `[${v.map(valueKey).join(',')}]`;
  if (v instanceof Map) return `{${[...v.entries()].map(([k, x]) => `${JSON.stringify(k)}:${valueKey(x)}`).join(',')}}`;
  if (v instanceof Float32Array) return `v${Array.from(v).join(',')}`;
  const ext = v as { hashKey?: () => string; cypherType?: string };
  if (typeof ext.hashKey === 'function') return `x${ext.cypherType ?? ''}:${ext.hashKey()}`;
  return `o${String(v)}`;
}

/** Stable per-object numbers, so the same entity gets the same name in both snapshots. */
const entityIds = new WeakMap<object, number>();
let nextEntityId = 1;
function entityId(o: object): number {
  let id = entityIds.get(o);
  if (id === undefined) {
    id = nextEntityId++;
    entityIds.set(o, id);
  }
  return id;
}

export function snapshot(graph: GraphView): GraphSnapshot {
  const s: GraphSnapshot = { nodes: new Set(), rels: new Set(), labels: new Set(), properties: new Set() };
  for (const n of graph.allNodes()) {
    s.nodes.add(n);
    for (const l of n.labels) s.labels.add(l);
    const id = entityId(n);
    for (const [k, v] of n.propertyMap()) if (v !== null) s.properties.add(`n${id}\u0000${k}\u0000${valueKey(v)}`);
  }
  for (const r of graph.allRels()) {
    s.rels.add(r);
    const id = entityId(r);
    for (const [k, v] of r.propertyMap()) if (v !== null) s.properties.add(`r${id}\u0000${k}\u0000${valueKey(v)}`);
  }
  return s;
}

function countMissing<T>(from: Set<T>, inSet: Set<T>): number {
  let n = 0;
  for (const x of from) if (!inSet.has(x)) n++;
  return n;
}

export function diffSnapshots(before: GraphSnapshot, after: GraphSnapshot): SideEffects {
  return {
    '+nodes': countMissing(after.nodes, before.nodes),
    '-nodes': countMissing(before.nodes, after.nodes),
    '+relationships': countMissing(after.rels, before.rels),
    '-relationships': countMissing(before.rels, after.rels),
    '+labels': countMissing(after.labels, before.labels),
    '-labels': countMissing(before.labels, after.labels),
    '+properties': countMissing(after.properties, before.properties),
    '-properties': countMissing(before.properties, after.properties),
  };
}

export function noSideEffects(): SideEffects {
  return { '+nodes': 0, '-nodes': 0, '+relationships': 0, '-relationships': 0, '+labels': 0, '-labels': 0, '+properties': 0, '-properties': 0 };
}

/** Reads a `| +nodes | 1 |` table; rows left out mean 0. */
export function parseSideEffectsTable(rows: string[][]): SideEffects {
  const fx = noSideEffects();
  for (const row of rows) {
    const key = (row[0] ?? '').trim();
    if (!(SIDE_EFFECT_KEYS as readonly string[]).includes(key)) throw new Error(`unknown side effect '${key}'`);
    const n = Number((row[1] ?? '').trim());
    if (!Number.isInteger(n)) throw new Error(`bad side effect count '${row[1] ?? ''}'`);
    fx[key as SideEffectKey] = n;
  }
  return fx;
}

/** Null when equal, else a short reason listing the counters that differ. */
export function compareSideEffects(expected: SideEffects, actual: SideEffects): string | null {
  const diffs: string[] = [];
  for (const k of SIDE_EFFECT_KEYS) if (expected[k] !== actual[k]) diffs.push(`${k} expected ${expected[k]} got ${actual[k]}`);
  return diffs.length ? `side effects mismatch: ${diffs.join(', ')}` : null;
}
