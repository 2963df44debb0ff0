/**
 * The POINT value: two or three float coordinates in a coordinate reference system.
 * Owns the text form (`point({x: 1.0, y: 2.0, crs: 'cartesian'})`), equality (same CRS
 * and coordinates), the grouping key, and the properties `x`, `y`, `z`, `longitude`,
 * `latitude`, `height`, `crs` and `srid` (asking a 2D point for `z`, or a cartesian one
 * for `latitude`, is an error). Points are not ordered by `<`; ORDER BY groups them by
 * CRS and then coordinates.
 */

import type { PropertyAccessible } from '../ops.js';
import { formatFloat } from '../numfmt.js';
import { makeFloat, type ExtendedValue, type Value } from '../values.js';
import type { Crs } from './crs.js';

export class PointValue implements ExtendedValue, PropertyAccessible {
  readonly cypherType = 'POINT';

  constructor(
    readonly crs: Crs,
    /** x (longitude), y (latitude) and, in 3D, z (height). */
    readonly coords: readonly number[],
  ) {}

  get x(): number {
    return this.coords[0];
  }

  get y(): number {
    return this.coords[1];
  }

  /** The third coordinate; undefined for 2D points. */
  get z(): number | undefined {
    return this.coords[2];
  }

  toCypherString(): string {
    const [x, y, z] = this.coords.map(formatFloat);
    const zPart = this.coords.length === 3 ? `, z: ${z}` : '';
    return `point({x: ${x}, y: ${y}${zPart}, crs: '${this.crs.name}'})`;
  }

  toString(): string {
    return this.toCypherString();
  }

  toJs(): { crs: string; srid: number; x: number; y: number; z?: number } {
    const o: { crs: string; srid: number; x: number; y: number; z?: number } = { crs: this.crs.name, srid: this.crs.srid, x: this.x, y: this.y };
    if (this.z !== undefined) o.z = this.z;
    return o;
  }

  equalsValue(other: ExtendedValue): boolean {
    return other instanceof PointValue && other.crs === this.crs && other.coords.every((c, i) => c === this.coords[i]);
  }

  compareValue(): number | undefined {
    return undefined;
  }

  /** Equal points share a key; keys of one CRS sort by their coordinates as text, which ORDER BY uses. */
  hashKey(): string {
    return `${this.crs.srid}:${this.coords.map((c) => String(c + 0)).join(':')}`;
  }

  getProperty(key: string): Value | undefined {
    const geo = this.crs.geographic;
    switch (key) {
      case 'x':
        return makeFloat(this.x);
      case 'y':
        return makeFloat(this.y);
      case 'z':
        return this.z === undefined ? undefined : makeFloat(this.z);
      case 'longitude':
        return geo ? makeFloat(this.x) : undefined;
      case 'latitude':
        return geo ? makeFloat(this.y) : undefined;
      case 'height':
        return geo && this.z !== undefined ? makeFloat(this.z) : undefined;
      case 'crs':
        return this.crs.name;
      case 'srid':
        return this.crs.srid;
      default:
        return undefined;
    }
  }
}
