/**
 * graphdb's runtime values to and from PackStream (Bolt's structures): nodes, relationships
 * and paths with element ids, the temporal types (runtime/temporal) and points
 * (runtime/spatial). Bolt 5 sends date-times as UTC instants (tags I/i); Bolt 4.4 does too
 * when the client asked for the `utc` patch, else the legacy local-time form (F/f).
 * Parameters that graphdb cannot hold (bytes, a node sent by a client) are refused with a
 * BoltValueError.
 */

import { FloatBox, Path, type Value } from '../../../runtime/values.js';
import { Node, Rel } from '../../store/entities.js';
import { elementIdOf } from '../../../functions/graph.js';
import { DateValue, LocalDateTimeValue, LocalTimeValue } from '../../../runtime/temporal/local.js';
import { DateTimeValue, TimeValue } from '../../../runtime/temporal/zoned.js';
import { DurationValue } from '../../../runtime/temporal/duration.js';
import { Zone } from '../../../runtime/temporal/zone.js';
import { PointValue } from '../../../runtime/spatial/point.js';
import { crsBySrid } from '../../../runtime/spatial/crs.js';
import { PackFloat, type PackValue, Structure } from './packstream.js';

export class BoltValueError extends Error {}

/** How a connection's values are shaped (from the negotiated version). */
export interface ValueDialect {
  /** Bolt 5: nodes and relationships carry element ids. */
  elementIds: boolean;
  /** Date-times as UTC instants (Bolt 5, or 4.4 with the `utc` patch). */
  utcDateTimes: boolean;
}

const TAG = {
  node: 0x4e, rel: 0x52, unboundRel: 0x72, path: 0x50,
  date: 0x44, time: 0x54, localTime: 0x74, dateTime: 0x49, dateTimeZoneId: 0x69,
  legacyDateTime: 0x46, legacyDateTimeZoneId: 0x66, localDateTime: 0x64, duration: 0x45,
  point2d: 0x58, point3d: 0x59,
} as const;

const NANOS_PER_SECOND = 1_000_000_000;
const SECONDS_PER_DAY = 86_400;
const BIG_E9 = 1_000_000_000n;

// ------------------------------------------------------------------ graphdb -> Bolt

export function toPack(v: Value, d: ValueDialect): PackValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'bigint') return v;
  if (typeof v === 'number') return v;
  if (v instanceof FloatBox) return new PackFloat(v.value);
  if (Array.isArray(v)) return v.map((x) => toPack(x, d));
  if (v instanceof Map) return mapOf(v, d);
  if (v instanceof Node) return node(v, d);
  if (v instanceof Rel) return rel(v, d);
  if (v instanceof Path) return path(v, d);
  if (v instanceof Float32Array) return Array.from(v, (x) => new PackFloat(x));
  return extended(v, d);
}

function mapOf(m: ReadonlyMap<string, Value>, d: ValueDialect): Map<string, PackValue> {
  const out = new Map<string, PackValue>();
  for (const [k, x] of m) out.set(k, toPack(x, d));
  return out;
}

function node(n: Node, d: ValueDialect): Structure {
  const fields: PackValue[] = [n.id, n.labels.slice(), mapOf(n.propertyMap(), d)];
  // The element ids elementId() returns, so an id read from a record finds its entity again in a query.
  if (d.elementIds) fields.push(elementIdOf(n));
  return new Structure(TAG.node, fields);
}

function rel(r: Rel, d: ValueDialect): Structure {
  const fields: PackValue[] = [r.id, r.start.id, r.end.id, r.type, mapOf(r.propertyMap(), d)];
  if (d.elementIds) fields.push(elementIdOf(r), elementIdOf(r.start), elementIdOf(r.end));
  return new Structure(TAG.rel, fields);
}

function unboundRel(r: Rel, d: ValueDialect): Structure {
  const fields: PackValue[] = [r.id, r.type, mapOf(r.propertyMap(), d)];
  if (d.elementIds) fields.push(elementIdOf(r));
  return new Structure(TAG.unboundRel, fields);
}

/** Bolt's path: its distinct nodes and relationships, and the walk as (relationship, node) index pairs; a negative relationship index is walked against its direction. */
function path(p: Path, d: ValueDialect): Structure {
  const nodes: Node[] = [];
  const rels: Rel[] = [];
  const nodeIndex = (n: Node): number => {
    let i = nodes.indexOf(n);
    if (i < 0) i = nodes.push(n) - 1;
    return i;
  };
  nodeIndex(p.nodes[0]);
  const indices: number[] = [];
  p.rels.forEach((r, i) => {
    let ri = rels.indexOf(r);
    if (ri < 0) ri = rels.push(r) - 1;
    const from = p.nodes[i];
    indices.push(r.start === from ? ri + 1 : -(ri + 1), nodeIndex(p.nodes[i + 1]));
  });
  return new Structure(TAG.path, [nodes.map((n) => node(n, d)), rels.map((r) => unboundRel(r, d)), indices]);
}

function secondsAndNanos(epochDay: number, nanoOfDay: number): [number | bigint, number] {
  const seconds = BigInt(epochDay) * BigInt(SECONDS_PER_DAY) + BigInt(Math.floor(nanoOfDay / NANOS_PER_SECOND));
  return [int(seconds), nanoOfDay % NANOS_PER_SECOND];
}

function int(v: bigint): number | bigint {
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}

function extended(v: object, d: ValueDialect): PackValue {
  if (v instanceof DateValue) return new Structure(TAG.date, [v.epochDay]);
  if (v instanceof LocalTimeValue) return new Structure(TAG.localTime, [v.nanoOfDay]);
  if (v instanceof TimeValue) return new Structure(TAG.time, [v.nanoOfDay, v.offsetSeconds]);
  if (v instanceof LocalDateTimeValue) return new Structure(TAG.localDateTime, secondsAndNanos(v.epochDay, v.nanoOfDay));
  if (v instanceof DateTimeValue) {
    const [day, nano] = d.utcDateTimes ? v.utc() : [v.epochDay, v.nanoOfDay];
    const [s, n] = secondsAndNanos(day, nano);
    if (v.zone.named) return new Structure(d.utcDateTimes ? TAG.dateTimeZoneId : TAG.legacyDateTimeZoneId, [s, n, v.zone.id ?? '']);
    return new Structure(d.utcDateTimes ? TAG.dateTime : TAG.legacyDateTime, [s, n, v.offsetSeconds]);
  }
  if (v instanceof DurationValue) {
    const seconds = v.nanos >= 0n ? v.nanos / BIG_E9 : -((-v.nanos + BIG_E9 - 1n) / BIG_E9);
    return new Structure(TAG.duration, [v.months, v.days, int(seconds), Number(v.nanos - seconds * BIG_E9)]);
  }
  if (v instanceof PointValue) {
    const coords = v.coords.map((c) => new PackFloat(c));
    return new Structure(v.coords.length === 3 ? TAG.point3d : TAG.point2d, [v.crs.srid, ...coords]);
  }
  // A value kind Bolt has no structure for: its text, rather than nothing.
  return String(v);
}

// ------------------------------------------------------------------ Bolt -> graphdb

/** A parameter value from a client. */
export function fromPack(v: PackValue): unknown {
  if (v === null || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint') return v;
  if (v instanceof PackFloat) return new FloatBox(v.value);
  if (Array.isArray(v)) return v.map(fromPack);
  if (v instanceof Map) {
    const m = new Map<string, unknown>();
    for (const [k, x] of v) m.set(k, fromPack(x));
    return m;
  }
  if (v instanceof Uint8Array) throw new BoltValueError('byte arrays cannot be used as parameters in graphdb (it has no bytes type)');
  return structure(v);
}

function num(v: PackValue, what: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof PackFloat) return v.value;
  throw new BoltValueError(`${what} must be a number`);
}

function bigOf(v: PackValue, what: string): bigint {
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'bigint') return v;
  throw new BoltValueError(`${what} must be an integer`);
}

function fields(s: Structure, n: number, what: string): PackValue[] {
  if (s.fields.length !== n) throw new BoltValueError(`a ${what} structure has ${n} fields, not ${s.fields.length}`);
  return s.fields;
}

/** Seconds since the epoch and nanoseconds to an epoch day and nanosecond of day. */
function dayAndNano(seconds: bigint, nanos: number): [number, number] {
  const total = seconds * BIG_E9 + BigInt(nanos);
  const perDay = BigInt(SECONDS_PER_DAY) * BIG_E9;
  let day = total / perDay;
  let rest = total % perDay;
  if (rest < 0n) {
    rest += perDay;
    day -= 1n;
  }
  return [Number(day), Number(rest)];
}

function zoneOf(id: PackValue): Zone {
  if (typeof id !== 'string') throw new BoltValueError('a time zone id must be a string');
  try {
    return Zone.parse(id);
  } catch {
    throw new BoltValueError(`unknown time zone ${JSON.stringify(id)}`);
  }
}

function structure(s: Structure): unknown {
  switch (s.tag) {
    case TAG.date: return new DateValue(num(fields(s, 1, 'Date')[0], 'days'));
    case TAG.localTime: return new LocalTimeValue(num(fields(s, 1, 'LocalTime')[0], 'nanoseconds'));
    case TAG.time: {
      const [n, off] = fields(s, 2, 'Time');
      return new TimeValue(num(n, 'nanoseconds'), num(off, 'tz_offset_seconds'));
    }
    case TAG.localDateTime: {
      const [sec, n] = fields(s, 2, 'LocalDateTime');
      return new LocalDateTimeValue(...dayAndNano(bigOf(sec, 'seconds'), num(n, 'nanoseconds')));
    }
    case TAG.dateTime: {
      const [sec, n, off] = fields(s, 3, 'DateTime');
      return DateTimeValue.ofInstant(...dayAndNano(bigOf(sec, 'seconds'), num(n, 'nanoseconds')), Zone.fixed(num(off, 'tz_offset_seconds')));
    }
    case TAG.dateTimeZoneId: {
      const [sec, n, id] = fields(s, 3, 'DateTimeZoneId');
      return DateTimeValue.ofInstant(...dayAndNano(bigOf(sec, 'seconds'), num(n, 'nanoseconds')), zoneOf(id));
    }
    case TAG.legacyDateTime: {
      const [sec, n, off] = fields(s, 3, 'DateTime');
      const [day, nano] = dayAndNano(bigOf(sec, 'seconds'), num(n, 'nanoseconds'));
      return DateTimeValue.ofLocal(day, nano, Zone.fixed(num(off, 'tz_offset_seconds')));
    }
    case TAG.legacyDateTimeZoneId: {
      const [sec, n, id] = fields(s, 3, 'DateTimeZoneId');
      const [day, nano] = dayAndNano(bigOf(sec, 'seconds'), num(n, 'nanoseconds'));
      return DateTimeValue.ofLocal(day, nano, zoneOf(id));
    }
    case TAG.duration: {
      const [months, days, sec, n] = fields(s, 4, 'Duration');
      return new DurationValue(num(months, 'months'), num(days, 'days'), bigOf(sec, 'seconds') * BIG_E9 + bigOf(n, 'nanoseconds'));
    }
    case TAG.point2d:
    case TAG.point3d: {
      const dims = s.tag === TAG.point2d ? 2 : 3;
      const [srid, ...coords] = fields(s, dims + 1, dims === 2 ? 'Point2D' : 'Point3D');
      const crs = crsBySrid(num(srid, 'srid'));
      if (crs === undefined || crs.dimensions !== dims) throw new BoltValueError(`SRID ${String(srid)} is not a ${dims}D coordinate system graphdb knows (7203, 4326, 9157, 4979)`);
      return new PointValue(crs, coords.map((c) => num(c, 'a coordinate')));
    }
    default:
      throw new BoltValueError(`a structure with tag 0x${s.tag.toString(16)} cannot be used as a parameter`);
  }
}
