/**
 * The persisted form of POINT values (runtime/spatial), registered with the value codec on
 * import: `{"$":"x:point","v":[srid, x, y]}` or `[srid, x, y, z]`. The SRID names the
 * coordinate reference system exactly; the coordinates are the stored floats themselves.
 */

import { crsBySrid } from '../../../runtime/spatial/crs.js';
import { PointValue } from '../../../runtime/spatial/point.js';
import type { ExtendedValue } from '../../../runtime/values.js';
import type { Json } from './json.js';
import { registerValueCodec, ValueDecodeError } from './value-codec.js';

function decodePoint(data: Json): PointValue {
  if (!Array.isArray(data) || (data.length !== 3 && data.length !== 4) || !data.every((x) => typeof x === 'number')) {
    throw new ValueDecodeError('bad point value');
  }
  const [srid, ...coords] = data as number[];
  const crs = crsBySrid(srid);
  if (crs === undefined || crs.dimensions !== coords.length) throw new ValueDecodeError(`bad point value: SRID ${srid} with ${coords.length} coordinates`);
  return new PointValue(crs, coords);
}

let registered = false;

/** Registers the POINT codec (idempotent). */
export function registerSpatialCodecs(): void {
  if (registered) return;
  registered = true;
  registerValueCodec({
    cypherType: 'POINT',
    tag: 'point',
    encode: (v: ExtendedValue) => [(v as PointValue).crs.srid, ...(v as PointValue).coords],
    decode: decodePoint,
  });
}

registerSpatialCodecs();
