/**
 * `point(map)`: a point from `{x, y[, z][, crs | srid]}` or `{longitude, latitude[,
 * height][, crs | srid]}`. Cartesian unless geographic names, a WGS-84 `crs` or a WGS-84
 * `srid` say otherwise; 3D when a third coordinate is given. A null coordinate makes the
 * point null. Everything inconsistent — mixed naming, a CRS of the wrong dimension, `crs`
 * and `srid` disagreeing, a latitude beyond ±90° or a longitude beyond ±180° — is an
 * ArgumentError.
 */

import { ArgumentError, ValueTypeError } from '../../src/errors.js';
import { describe } from '../types.js';
import { FloatBox, type Value } from '../values.js';
import { crsByName, crsBySrid, crsFor, type Crs } from './crs.js';
import { PointValue } from './point.js';

const KEYS = ['x', 'y', 'z', 'longitude', 'latitude', 'height', 'crs', 'srid'] as const;
type Key = (typeof KEYS)[number];

function invalid(message: string): ArgumentError {
  return new ArgumentError(message, 'InvalidArgumentValue');
}

function coordinate(key: string, v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof FloatBox) return v.value;
  throw new ValueTypeError(`The point coordinate '${key}' must be a number, got ${describe(v)}`, 'InvalidArgumentValue');
}

function explicitCrs(entries: Map<Key, Value>): Crs | undefined {
  const name = entries.get('crs');
  const srid = entries.get('srid');
  let byName: Crs | undefined;
  let bySrid: Crs | undefined;
  if (name !== undefined) {
    if (typeof name !== 'string') throw new ValueTypeError(`The point crs must be a string, got ${describe(name)}`, 'InvalidArgumentValue');
    byName = crsByName(name);
    if (!byName) throw invalid(`Unknown coordinate reference system '${name}'`);
  }
  if (srid !== undefined) {
    if (!(typeof srid === 'number' && Number.isInteger(srid))) throw new ValueTypeError(`The point srid must be an integer, got ${describe(srid)}`, 'InvalidArgumentValue');
    bySrid = crsBySrid(srid);
    if (!bySrid) throw invalid(`Unknown coordinate reference system with srid ${srid}`);
  }
  if (byName && bySrid && byName !== bySrid) throw invalid(`The crs '${byName.name}' and the srid ${bySrid.srid} disagree`);
  return byName ?? bySrid;
}

/** The point a map describes, or null when one of its coordinates is null. */
export function pointFromMap(map: Map<string, Value>): PointValue | null {
  const entries = new Map<Key, Value>();
  for (const [rawKey, v] of map) {
    const key = KEYS.find((k) => k === rawKey.toLowerCase());
    if (key === undefined) throw invalid(`point() does not take the key '${rawKey}'`);
    entries.set(key, v);
  }
  const cartesianNames = entries.has('x') || entries.has('y') || entries.has('z');
  const geographicNames = entries.has('longitude') || entries.has('latitude') || entries.has('height');
  if (cartesianNames && geographicNames) throw invalid('A point takes either x/y/z or longitude/latitude/height, not both');
  const [k1, k2, k3]: Key[] = geographicNames ? ['longitude', 'latitude', 'height'] : ['x', 'y', 'z'];
  if (!entries.has(k1) || !entries.has(k2)) throw invalid(`A point needs both '${k1}' and '${k2}'`);
  const raw = [entries.get(k1) as Value, entries.get(k2) as Value];
  if (entries.has(k3)) raw.push(entries.get(k3) as Value);
  if (raw.some((v) => v === null) || entries.get('crs') === null || entries.get('srid') === null) return null;
  const coords = raw.map((v, i) => coordinate([k1, k2, k3][i], v));

  const given = explicitCrs(entries);
  const dimensions = coords.length as 2 | 3;
  if (given && given.dimensions !== dimensions) {
    throw invalid(`The crs '${given.name}' needs ${given.dimensions} coordinates, got ${dimensions}`);
  }
  if (given && geographicNames && !given.geographic) throw invalid(`Geographic coordinates cannot use the crs '${given.name}'`);
  if (entries.has('height') && !(given?.geographic ?? true)) throw invalid('Only geographic points have a height');
  const crs = given ?? crsFor(geographicNames, dimensions);
  if (crs.geographic) {
    if (!(coords[1] >= -90 && coords[1] <= 90)) throw invalid(`Latitude ${coords[1]} is outside -90 to 90`);
    if (!(coords[0] >= -180 && coords[0] <= 180)) throw invalid(`Longitude ${coords[0]} is outside -180 to 180`);
  }
  return new PointValue(crs, coords);
}
