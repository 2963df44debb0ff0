/**
 * Cypher values as typed JSON for the HTTP door's JSON routes (tx-routes.ts), in three
 * shapes:
 * - `plainJson`: POST /query with a JSON body. Null, booleans, strings, lists and maps as
 *   JSON's own; integers as numbers (beyond 2^53 as exact number literals); floats as numbers,
 *   an integral float with a `.0`; nodes `{"id", "labels", "properties"}`, relationships
 *   `{"id", "type", "start", "end", "properties"}`, paths `{"nodes", "relationships"}`;
 *   temporal values as their ISO text, points as `{"crs", "srid", "x", "y"[, "z"]}`.
 * - `neo4jRow` / `neo4jMeta` / `GraphCollector`: the `row`, `meta` and `graph` result
 *   contents of Neo4j's transactional HTTP API (entities as their property maps in `row`,
 *   described in `meta`; `graph` lists the nodes and relationships a row holds).
 * - `queryApiValue`: Neo4j's Query API (`/query/v2`): every value `{"$type", "_value"}`;
 *   `fromQueryApiParam` reads parameters given so.
 * Integers beyond 2^53 and integral floats cannot be told apart by JSON.stringify, so the
 * writer here (`writeJson`) writes number literals itself.
 */

import { cellText } from '../../../runtime/format.js';
import { FloatBox, type Value } from '../../../runtime/values.js';
import { fromString, type TemporalKind } from '../../../runtime/temporal/construct.js';
import { parseDuration } from '../../../runtime/temporal/parse.js';
import { pointFromMap } from '../../../runtime/spatial/construct.js';
import { ArgumentError } from '../../errors.js';
import { Node, Path, Rel } from '../../store/entities.js';

/** A JSON document under construction: plain JSON data, plus number literals that must be written as they are. */
export type JsonOut = null | boolean | string | number | JsonLiteral | JsonOut[] | { [key: string]: JsonOut };

/** A number literal written verbatim (an integer beyond 2^53, an integral float such as `1.0`). */
export class JsonLiteral {
  constructor(readonly text: string) {}
}

/** `value` as JSON text; JsonLiterals written as they are. */
export function writeJson(value: JsonOut): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (value instanceof JsonLiteral) return value.text;
  if (Array.isArray(value)) return '[' + value.map(writeJson).join(',') + ']';
  const parts: string[] = [];
  for (const key of Object.keys(value)) parts.push(JSON.stringify(key) + ':' + writeJson(value[key]));
  return '{' + parts.join(',') + '}';
}

function floatJson(v: number): JsonOut {
  if (!Number.isFinite(v)) return String(v); // NaN, Infinity: JSON has no literal for them
  return Number.isInteger(v) ? new JsonLiteral(v.toFixed(1)) : v;
}

function mapJson(map: ReadonlyMap<string, Value>, each: (v: Value) => JsonOut): { [key: string]: JsonOut } {
  const out = Object.create(null) as { [key: string]: JsonOut };
  for (const [k, v] of map) out[k] = each(v);
  return out;
}

interface PointLike {
  cypherType: 'POINT';
  toJs(): { crs: string; srid: number; x: number; y: number; z?: number };
}

function isPoint(v: object): v is PointLike {
  return (v as { cypherType?: string }).cypherType === 'POINT';
}

/** `plainJson` of a node. */
function nodeJson(n: Node): JsonOut {
  return { id: n.id, labels: n.labels.slice(), properties: mapJson(n.propertyMap(), plainJson) };
}

function relJson(r: Rel): JsonOut {
  return { id: r.id, type: r.type, start: r.start.id, end: r.end.id, properties: mapJson(r.propertyMap(), plainJson) };
}

/** A value in the JSON body's own shape (see the module comment). */
export function plainJson(v: Value): JsonOut {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'boolean':
    case 'string':
      return v;
    case 'number':
      return Number.isInteger(v) ? v : floatJson(v);
    case 'bigint':
      return new JsonLiteral(v.toString());
  }
  if (v instanceof FloatBox) return floatJson(v.value);
  if (Array.isArray(v)) return v.map((x) => plainJson(x as Value));
  if (v instanceof Map) return mapJson(v as ReadonlyMap<string, Value>, plainJson);
  if (v instanceof Node) return nodeJson(v);
  if (v instanceof Rel) return relJson(v);
  if (v instanceof Path) return { nodes: v.nodes.map(nodeJson), relationships: v.rels.map(relJson) };
  if (isPoint(v)) return pointJson(v);
  return cellText(v);
}

function pointJson(p: PointLike): JsonOut {
  const o = p.toJs();
  const out: { [key: string]: JsonOut } = { crs: o.crs, srid: o.srid, x: o.x, y: o.y };
  if (o.z !== undefined) out.z = o.z;
  return out;
}

// ---------------------------------------------------------------- Neo4j's transactional HTTP API

/** A path as Neo4j's JSON lists it: node, relationship, node, … */
function pathElements(p: Path): (Node | Rel)[] {
  return p.nodes.flatMap((n, i): (Node | Rel)[] => (i < p.rels.length ? [n, p.rels[i]] : [n]));
}

/** A value in a Neo4j `row`: entities as their property maps, paths as alternating lists of them. */
export function neo4jRow(v: Value): JsonOut {
  if (v instanceof Node || v instanceof Rel) return mapJson(v.propertyMap(), neo4jRow);
  if (v instanceof Path) return pathElements(v).map(neo4jRow);
  if (Array.isArray(v)) return v.map((x) => neo4jRow(x as Value));
  if (v instanceof Map) return mapJson(v as ReadonlyMap<string, Value>, neo4jRow);
  if (v !== null && typeof v === 'object' && isPoint(v)) {
    const o = v.toJs();
    return { type: 'Point', coordinates: o.z === undefined ? [o.x, o.y] : [o.x, o.y, o.z], crs: { srid: o.srid, name: o.crs, type: 'link', properties: { href: `http://spatialreference.org/ref/sr-org/${o.srid}/ogcwkt/`, type: 'ogcwkt' } } };
  }
  return plainJson(v);
}

function entityMeta(e: Node | Rel): JsonOut {
  return { id: e.id, elementId: String(e.id), type: e instanceof Node ? 'node' : 'relationship', deleted: e.deleted };
}

/** Neo4j's `meta` of a value: what each entity in it is; null for plain values. */
export function neo4jMeta(v: Value): JsonOut {
  if (v instanceof Node || v instanceof Rel) return entityMeta(v);
  if (v instanceof Path) return pathElements(v).map(entityMeta);
  if (Array.isArray(v)) return v.map((x) => neo4jMeta(x as Value));
  if (v instanceof Map) return mapJson(v as ReadonlyMap<string, Value>, neo4jMeta);
  return null;
}

/** Gathers the nodes and relationships of one row, for Neo4j's `graph` result content. */
export class GraphCollector {
  private readonly nodes = new Map<number, JsonOut>();
  private readonly rels = new Map<number, JsonOut>();

  add(v: Value): void {
    if (v instanceof Node) this.addNode(v);
    else if (v instanceof Rel) this.addRel(v);
    else if (v instanceof Path) {
      v.nodes.forEach((n) => this.addNode(n));
      v.rels.forEach((r) => this.addRel(r));
    } else if (Array.isArray(v)) v.forEach((x) => this.add(x as Value));
    else if (v instanceof Map) for (const x of v.values()) this.add(x as Value);
  }

  private addNode(n: Node): void {
    if (!this.nodes.has(n.id)) this.nodes.set(n.id, { id: String(n.id), elementId: String(n.id), labels: n.labels.slice(), properties: mapJson(n.propertyMap(), neo4jRow) });
  }

  private addRel(r: Rel): void {
    this.addNode(r.start);
    this.addNode(r.end);
    if (!this.rels.has(r.id)) {
      this.rels.set(r.id, { id: String(r.id), elementId: String(r.id), type: r.type, startNode: String(r.start.id), endNode: String(r.end.id), properties: mapJson(r.propertyMap(), neo4jRow) });
    }
  }

  toJson(): JsonOut {
    return { nodes: [...this.nodes.values()], relationships: [...this.rels.values()] };
  }
}

// ---------------------------------------------------------------- Neo4j's Query API

const TEMPORAL_TYPES: Readonly<Record<string, string>> = {
  DATE: 'Date',
  'LOCAL TIME': 'LocalTime',
  'ZONED TIME': 'Time',
  'LOCAL DATETIME': 'LocalDateTime',
  'ZONED DATETIME': 'OffsetDateTime',
  DURATION: 'Duration',
};

const typed = (type: string, value: JsonOut): JsonOut => ({ $type: type, _value: value });

function queryApiEntity(e: Node | Rel): JsonOut {
  const properties = mapJson(e.propertyMap(), queryApiValue);
  if (e instanceof Node) return { _element_id: String(e.id), _labels: e.labels.slice(), _properties: properties };
  return { _element_id: String(e.id), _start_node_element_id: String(e.start.id), _end_node_element_id: String(e.end.id), _type: e.type, _properties: properties };
}

/** A value as Neo4j's Query API types it: `{"$type": "Integer", "_value": "1"}` and so on. */
export function queryApiValue(v: Value): JsonOut {
  if (v === null || v === undefined) return typed('Null', null);
  switch (typeof v) {
    case 'boolean':
      return typed('Boolean', v);
    case 'string':
      return typed('String', v);
    case 'number':
      return Number.isInteger(v) ? typed('Integer', String(v)) : typed('Float', String(v));
    case 'bigint':
      return typed('Integer', v.toString());
  }
  if (v instanceof FloatBox) return typed('Float', v.value.toFixed(1));
  if (Array.isArray(v)) return typed('List', v.map((x) => queryApiValue(x as Value)));
  if (v instanceof Map) return typed('Map', mapJson(v as ReadonlyMap<string, Value>, queryApiValue));
  if (v instanceof Node) return typed('Node', queryApiEntity(v));
  if (v instanceof Rel) return typed('Relationship', queryApiEntity(v));
  if (v instanceof Path) return typed('Path', pathElements(v).map(queryApiValue));
  if (isPoint(v)) {
    const o = v.toJs();
    return typed('Point', `SRID=${o.srid};POINT${o.z === undefined ? '' : ' Z'} (${o.x} ${o.y}${o.z === undefined ? '' : ' ' + o.z})`);
  }
  const kind = (v as { cypherType?: string }).cypherType;
  return typed(kind !== undefined && TEMPORAL_TYPES[kind] !== undefined ? TEMPORAL_TYPES[kind] : 'String', cellText(v));
}

const TEMPORAL_KINDS: Readonly<Record<string, TemporalKind>> = {
  Date: 'date',
  LocalTime: 'localtime',
  Time: 'time',
  LocalDateTime: 'localdatetime',
  OffsetDateTime: 'datetime',
  ZonedDateTime: 'datetime',
};

const badParam = (why: string): ArgumentError => new ArgumentError(`Typed parameter: ${why}`, 'InvalidTypedParameter');

/**
 * A parameter in the Query API's typed form (`{"$type": "Integer", "_value": "7"}`) as the
 * value the engine takes; plain JSON (no `$type`) is taken as it is, lists and maps element by
 * element.
 */
export function fromQueryApiParam(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(fromQueryApiParam);
  if (typeof v !== 'object' || v === null) return v;
  const o = v as Record<string, unknown>;
  if (typeof o.$type !== 'string' || !('_value' in o)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(o)) out[k] = fromQueryApiParam(o[k]);
    return out;
  }
  const value = o._value;
  const text = (): string => {
    if (typeof value !== 'string') throw badParam(`a ${String(o.$type)} needs its value as a string`);
    return value;
  };
  switch (o.$type) {
    case 'Null':
      return null;
    case 'Boolean':
    case 'String':
      return value;
    case 'Integer': {
      const t = text();
      if (!/^[+-]?\d+$/.test(t)) throw badParam(`${JSON.stringify(t)} is not an integer`);
      const big = BigInt(t);
      return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
    }
    case 'Float': {
      const n = Number(text());
      if (Number.isNaN(n) && text() !== 'NaN') throw badParam(`${JSON.stringify(text())} is not a float`);
      return Number.isInteger(n) ? new FloatBox(n) : n;
    }
    case 'List':
      if (!Array.isArray(value)) throw badParam('a List needs a list value');
      return value.map(fromQueryApiParam);
    case 'Map':
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badParam('a Map needs an object value');
      return fromQueryApiParam(value);
    case 'Duration':
      return parseDuration(text());
    case 'Point': {
      const m = /^SRID=(\d+);POINT\s*(?:Z\s*)?\(\s*(\S+)\s+(\S+)(?:\s+(\S+))?\s*\)$/i.exec(text().trim());
      if (!m) throw badParam(`${JSON.stringify(text())} is not a point (SRID=<srid>;POINT (x y))`);
      const map = new Map<string, Value>([['srid', Number(m[1])], ['x', Number(m[2])], ['y', Number(m[3])]]);
      if (m[4] !== undefined) map.set('z', Number(m[4]));
      return pointFromMap(map);
    }
    default: {
      const kind = TEMPORAL_KINDS[o.$type];
      if (kind === undefined) throw badParam(`unknown $type ${JSON.stringify(o.$type)}`);
      return fromString(kind, text(), BigInt(Date.now()) * 1_000_000n);
    }
  }
}
