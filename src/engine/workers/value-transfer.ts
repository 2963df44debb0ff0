/**
 * Cypher values across a thread boundary. `postMessage` copies plain data (numbers,
 * bigints, strings, arrays, Maps, typed arrays) but turns class instances into plain
 * objects, so a query worker's results and a caller's parameters go through this encoding:
 * plain data stays as it is, and every value of a class becomes a plain object with a `$t`
 * tag (a plain object is never itself a Cypher value, so tags cannot be mistaken for data);
 * temporal and spatial values travel in their persisted form (store/persist/value-codec.ts).
 * Nodes and relationships cross as copies of their labels, type, ends and properties: on the
 * other side they read from `DetachedProperties`, which is all rendering and drivers need.
 */

import { FloatBox, type ExtendedValue, type Value } from '../../../runtime/values.js';
import { DetachedProperties, Node, Path, Rel } from '../../store/entities.js';
import type { Json } from '../../store/persist/json.js';
import { decodeValue, encodeValue } from '../../store/persist/value-codec.js';
import '../../store/persist/temporal-codecs.js';
import '../../store/persist/spatial-codecs.js';

/** A value as it crosses: plain data, or a tagged plain object. */
export type Transferable = unknown;

interface Tagged {
  $t: string;
}

type EncodedNode = Tagged & { id: number; labels: string[]; props: [string, Transferable][] };

function encodeProps(map: Map<string, Value>): [string, Transferable][] {
  const out: [string, Transferable][] = [];
  for (const [k, v] of map) out.push([k, encodeForTransfer(v)]);
  return out;
}

function encodeNode(node: Node): EncodedNode {
  return { $t: 'n', id: node.id, labels: node.labels.slice(), props: encodeProps(node.propertyMap()) };
}

function encodeRel(rel: Rel): Tagged {
  return { $t: 'r', id: rel.id, type: rel.type, typeId: rel.typeId, start: encodeNode(rel.start), end: encodeNode(rel.end), props: encodeProps(rel.propertyMap()) } as Tagged;
}

function isPlainObject(v: object): boolean {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * `list` with `fn` applied to its object items; the list itself when that changes none of
 * them (rows of plain cells, the common case, cross without a copy).
 */
function mapObjects(list: readonly unknown[], fn: (item: unknown) => unknown): readonly unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    const mapped = typeof item === 'object' && item !== null ? fn(item) : item;
    if (mapped !== item && out === undefined) out = list.slice(0, i);
    if (out !== undefined) out.push(mapped);
  }
  return out ?? list;
}

/** A Cypher value (or a caller's plain JS parameter value) ready for `postMessage`. */
export function encodeForTransfer(v: unknown): Transferable {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return mapObjects(v, encodeForTransfer);
  if (v instanceof Map) return { $t: 'm', entries: [...v].map(([k, x]) => [k, encodeForTransfer(x)]) };
  if (v instanceof FloatBox) return { $t: 'f', v: v.value };
  if (v instanceof Node) return encodeNode(v);
  if (v instanceof Rel) return encodeRel(v);
  if (v instanceof Path) return { $t: 'p', nodes: v.nodes.map(encodeNode), rels: v.rels.map(encodeRel) };
  if (ArrayBuffer.isView(v) || v instanceof Date) return v;
  if (isPlainObject(v)) return { $t: 'o', entries: Object.entries(v).map(([k, x]) => [k, encodeForTransfer(x)]) };
  if (typeof (v as Partial<ExtendedValue>).cypherType === 'string') return { $t: 'x', v: encodeValue(v as Value) };
  return v;
}

function decodeNode(e: EncodedNode): Node {
  return new Node(e.id, e.labels, new DetachedProperties(new Map(e.props.map(([k, x]) => [k, decodeFromTransfer(x) as Value]))));
}

function decodeRel(e: Tagged): Rel {
  const r = e as Tagged & { id: number; type: string; typeId: number; start: EncodedNode; end: EncodedNode; props: [string, Transferable][] };
  const props = new DetachedProperties(new Map(r.props.map(([k, x]) => [k, decodeFromTransfer(x) as Value])));
  return new Rel(r.id, r.type, r.typeId, decodeNode(r.start), decodeNode(r.end), props);
}

/** The value `encodeForTransfer` encoded. */
export function decodeFromTransfer(v: Transferable): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return mapObjects(v, decodeFromTransfer);
  if (!isPlainObject(v)) return v;
  const t = v as Tagged & { entries?: [string, Transferable][]; v?: unknown };
  switch (t.$t) {
    case 'm':
      return new Map(t.entries!.map(([k, x]) => [k, decodeFromTransfer(x)]));
    case 'o':
      return Object.fromEntries(t.entries!.map(([k, x]) => [k, decodeFromTransfer(x)]));
    case 'f':
      return new FloatBox(t.v as number);
    case 'n':
      return decodeNode(t as EncodedNode);
    case 'r':
      return decodeRel(t);
    case 'p': {
      const p = t as Tagged & { nodes: EncodedNode[]; rels: Tagged[] };
      return new Path(p.nodes.map(decodeNode), p.rels.map(decodeRel));
    }
    case 'x':
      return decodeValue(t.v as Json);
  }
  throw new Error(`unknown transfer tag ${String(t.$t)}`);
}

/** Whether `v` is JSON-like data (primitives, arrays, plain objects) that crosses as it is. */
function isPlainData(v: unknown, depth = 0): boolean {
  if (typeof v !== 'object' || v === null) return typeof v !== 'function' && typeof v !== 'symbol';
  if (depth > 32) return false;
  if (Array.isArray(v)) return v.every((x) => isPlainData(x, depth + 1));
  if (!isPlainObject(v)) return false;
  for (const k in v) if (!isPlainData((v as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}

/** A caller's query parameters ready for `postMessage`: JSON-like ones (HTTP, PG) as they are. */
export function encodeParams(params: unknown): { plain: boolean; value: Transferable } {
  return isPlainData(params) ? { plain: true, value: params } : { plain: false, value: encodeForTransfer(params) };
}

export function decodeParams(p: { plain: boolean; value: Transferable }): unknown {
  return p.plain ? p.value : decodeFromTransfer(p.value);
}

/** Result rows ready for `postMessage` (rows of plain cells are passed as they are). */
export function encodeRecords(records: Value[][]): Transferable[][] {
  return records.map((row) => encodeForTransfer(row) as Transferable[]);
}

export function decodeRecords(records: Transferable[][]): Value[][] {
  return records.map((row) => decodeFromTransfer(row) as Value[]);
}
