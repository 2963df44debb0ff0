/**
 * The spatial functions: `point(map)`, `point.distance(a, b)` (also under its older
 * name `distance`) and `point.withinBBox(p, lowerLeft, upperRight)`. The point value and
 * the geometry live in runtime/spatial.
 */

import type { Value } from '../runtime/values.js';
import { pointFromMap } from '../runtime/spatial/construct.js';
import { distance, withinBBox } from '../runtime/spatial/geometry.js';
import { PointValue } from '../runtime/spatial/point.js';
import { fl, badArg, type FunctionDef } from './types.js';
import { nullSafe1, nullSafe2, nullSafeAll, pure } from './define.js';

function pointArg(fn: string, v: Value): PointValue {
  if (v instanceof PointValue) return v;
  throw badArg(fn, v, 'a point');
}

function distanceOf(fn: string): (a: Value, b: Value) => Value {
  return (a, b) => {
    const d = distance(pointArg(fn, a), pointArg(fn, b));
    return d === null ? null : fl(d);
  };
}

export const spatialFunctions: FunctionDef[] = [
  pure(
    'point',
    'spatial',
    [1, 1],
    'A point from {x, y[, z]} or {longitude, latitude[, height]}, with an optional crs or srid',
    nullSafe1((m) => {
      if (!(m instanceof Map)) throw badArg('point', m, 'a map');
      return pointFromMap(m);
    }),
  ),
  pure('point.distance', 'spatial', [2, 2], 'The distance between two points of one CRS (metres for WGS-84)', nullSafe2(distanceOf('point.distance'))),
  pure('distance', 'spatial', [2, 2], 'The distance between two points of one CRS (older name of point.distance)', nullSafe2(distanceOf('distance'))),
  pure(
    'point.withinBBox',
    'spatial',
    [3, 3],
    'Whether a point lies in the box given by its lower-left and upper-right corners',
    nullSafeAll((p, ll, ur) => withinBBox(pointArg('point.withinBBox', p), pointArg('point.withinBBox', ll), pointArg('point.withinBBox', ur))),
  ),
];
