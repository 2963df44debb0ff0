/** Unit tests of points (runtime/spatial) and the spatial functions (functions/spatial.ts). */

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compare, equals } from '../../runtime/compare.js';
import { formatValue } from '../../runtime/format.js';
import { groupKey } from '../../runtime/groupkey.js';
import { property } from '../../runtime/ops.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import { haversine } from '../../runtime/spatial/geometry.js';
import { PointValue } from '../../runtime/spatial/point.js';
import { ArgumentError, ValueTypeError } from '../../src/errors.js';
import { Database } from '../../src/engine/database.js';
import { call } from '../functions/call.js';
import { map } from './helpers.js';

const point = (o: Record<string, Value>): Value => call('point', map(o));
const text = (v: Value): string => (v === null ? 'null' : formatValue(v));
const num = (v: Value): number => (v instanceof FloatBox ? v.value : (v as number));

describe('point()', () => {
  it('builds cartesian points in 2D and 3D', () => {
    expect(text(point({ x: 1, y: 2 }))).toBe("point({x: 1.0, y: 2.0, crs: 'cartesian'})");
    expect(text(point({ x: 1.5, y: -2, z: 3 }))).toBe("point({x: 1.5, y: -2.0, z: 3.0, crs: 'cartesian-3d'})");
    expect(text(point({ x: 1, y: 2, srid: 7203 }))).toBe("point({x: 1.0, y: 2.0, crs: 'cartesian'})");
    expect(text(point({ x: 1, y: 2, z: 3, crs: 'Cartesian-3D' }))).toBe("point({x: 1.0, y: 2.0, z: 3.0, crs: 'cartesian-3d'})");
  });

  it('builds WGS-84 points from longitude/latitude, or x/y with a geographic crs or srid', () => {
    expect(text(point({ longitude: 12.5, latitude: 56 }))).toBe("point({x: 12.5, y: 56.0, crs: 'wgs-84'})");
    expect(text(point({ longitude: 12.5, latitude: 56, height: 100 }))).toBe("point({x: 12.5, y: 56.0, z: 100.0, crs: 'wgs-84-3d'})");
    expect(text(point({ x: 12.5, y: 56, crs: 'wgs-84' }))).toBe("point({x: 12.5, y: 56.0, crs: 'wgs-84'})");
    expect(text(point({ x: 12.5, y: 56, z: 7, srid: 4979 }))).toBe("point({x: 12.5, y: 56.0, z: 7.0, crs: 'wgs-84-3d'})");
  });

  it('gives null for a null map or a null coordinate', () => {
    expect(call('point', null)).toBeNull();
    expect(point({ x: null, y: 2 })).toBeNull();
    expect(point({ longitude: 1, latitude: null })).toBeNull();
  });

  it('rejects inconsistent maps with an ArgumentError', () => {
    const bad: Record<string, Value>[] = [
      { x: 1 },
      { y: 1, z: 2 },
      { x: 1, y: 2, latitude: 3 },
      { x: 1, y: 2, crs: 'cartesian-3d' },
      { x: 1, y: 2, z: 3, crs: 'cartesian' },
      { x: 1, y: 2, crs: 'mercator' },
      { x: 1, y: 2, srid: 1234 },
      { x: 1, y: 2, crs: 'wgs-84', srid: 7203 },
      { longitude: 1, latitude: 2, crs: 'cartesian' },
      { longitude: 1, latitude: 91 },
      { longitude: 181, latitude: 0 },
      { x: 1, y: 2, height: 3 },
      { x: 1, y: 2, w: 3 },
    ];
    for (const m of bad) expect(() => point(m), JSON.stringify(m)).toThrow(ArgumentError);
  });

  it('rejects wrong value types with a TypeError', () => {
    expect(() => point({ x: 'one', y: 2 })).toThrow(ValueTypeError);
    expect(() => point({ x: 1, y: 2, crs: 7203 })).toThrow(ValueTypeError);
    expect(() => call('point', 'x=1')).toThrow(ValueTypeError);
  });
});

describe('point components', () => {
  it('exposes coordinates, crs and srid', () => {
    const p = point({ longitude: 12.5, latitude: 56, height: 100 });
    expect(num(property(p, 'x'))).toBe(12.5);
    expect(num(property(p, 'longitude'))).toBe(12.5);
    expect(num(property(p, 'latitude'))).toBe(56);
    expect(property(p, 'latitude')).toBeInstanceOf(FloatBox);
    expect(num(property(p, 'height'))).toBe(100);
    expect(num(property(p, 'z'))).toBe(100);
    expect(property(p, 'crs')).toBe('wgs-84-3d');
    expect(property(p, 'srid')).toBe(4979);
  });

  it('has no third coordinate in 2D and no geographic names when cartesian', () => {
    const c = point({ x: 1, y: 2 });
    expect(() => property(c, 'z')).toThrow(ArgumentError);
    expect(() => property(c, 'latitude')).toThrow(ArgumentError);
    expect(() => property(point({ longitude: 1, latitude: 2 }), 'height')).toThrow(ArgumentError);
  });
});

describe('equality, ordering and grouping', () => {
  it('compares CRS and coordinates', () => {
    expect(equals(point({ x: 1, y: 2 }), point({ x: 1.0, y: 2.0 }))).toBe(true);
    expect(equals(point({ x: 1, y: 2 }), point({ x: 1, y: 2, z: 0 }))).toBe(false);
    expect(equals(point({ x: 1, y: 2 }), point({ x: 1, y: 2, crs: 'wgs-84' }))).toBe(false);
    expect(equals(point({ x: 1, y: 2 }), 'point')).toBe(false);
  });

  it('is not ordered by comparison operators', () => {
    expect(compare(point({ x: 1, y: 2 }), point({ x: 3, y: 4 }))).toBeNull();
  });

  it('groups equal points together', () => {
    expect(groupKey(point({ x: 0, y: 2 }))).toBe(groupKey(point({ x: -0.0, y: 2 })));
    expect(groupKey(point({ x: 1, y: 2 }))).not.toBe(groupKey(point({ x: 1, y: 2, crs: 'wgs-84' })));
  });

  it('prints through toString()', () => {
    expect(call('toString', point({ x: 1, y: 2 }))).toBe("point({x: 1.0, y: 2.0, crs: 'cartesian'})");
  });
});

describe('point.distance', () => {
  it('is Euclidean for cartesian points', () => {
    expect(num(call('point.distance', point({ x: 0, y: 0 }), point({ x: 3, y: 4 })))).toBe(5);
    expect(num(call('point.distance', point({ x: 0, y: 0, z: 0 }), point({ x: 1, y: 2, z: 2 })))).toBe(3);
    expect(call('point.distance', point({ x: 0, y: 0 }), point({ x: 3, y: 4 }))).toBeInstanceOf(FloatBox);
    expect(num(call('distance', point({ x: 1, y: 1 }), point({ x: 1, y: 1 })))).toBe(0);
  });

  it('is the haversine distance in metres for WGS-84', () => {
    const quarter = num(call('point.distance', point({ longitude: 0, latitude: 0 }), point({ longitude: 90, latitude: 0 })));
    expect(quarter).toBeCloseTo((Math.PI / 2) * 6378140, 3);
    const pole = num(call('point.distance', point({ longitude: 10, latitude: 90 }), point({ longitude: -170, latitude: 90 })));
    expect(pole).toBeCloseTo(0, 6);
    // Malmö to Copenhagen, about 26 km.
    const d = num(call('point.distance', point({ longitude: 12.994823, latitude: 55.612191 }), point({ longitude: 12.568337, latitude: 55.676098 })));
    expect(d).toBeGreaterThan(27_000);
    expect(d).toBeLessThan(28_500);
  });

  it('adds the height difference in 3D', () => {
    const d = num(call('point.distance', point({ longitude: 0, latitude: 0, height: 0 }), point({ longitude: 0, latitude: 0, height: 300 })));
    expect(d).toBeCloseTo(300, 9);
  });

  it('is symmetric and satisfies the triangle inequality on the sphere', () => {
    const lon = fc.double({ min: -180, max: 180, noNaN: true });
    const lat = fc.double({ min: -90, max: 90, noNaN: true });
    const pt = fc.tuple(lon, lat);
    fc.assert(
      fc.property(pt, pt, pt, ([a1, a2], [b1, b2], [c1, c2]) => {
        // Near-antipodal points lose precision in asin(√a): allow a metre of rounding.
        const ab = haversine(a1, a2, b1, b2);
        expect(Math.abs(ab - haversine(b1, b2, a1, a2))).toBeLessThan(1);
        expect(ab).toBeLessThanOrEqual(haversine(a1, a2, c1, c2) + haversine(c1, c2, b1, b2) + 1);
        expect(ab).toBeLessThanOrEqual(Math.PI * 6378140 + 1e-6);
      }),
      { numRuns: 2000 },
    );
  });

  it('is null across CRSs or for null arguments, a TypeError for non-points', () => {
    expect(call('point.distance', point({ x: 0, y: 0 }), point({ x: 0, y: 0, z: 0 }))).toBeNull();
    expect(call('point.distance', point({ x: 0, y: 0 }), point({ longitude: 0, latitude: 0 }))).toBeNull();
    expect(call('point.distance', null, point({ x: 0, y: 0 }))).toBeNull();
    expect(() => call('point.distance', 1, point({ x: 0, y: 0 }))).toThrow(ValueTypeError);
  });
});

describe('point.withinBBox', () => {
  const within = (p: Value, ll: Value, ur: Value): Value => call('point.withinBBox', p, ll, ur);

  it('checks cartesian boxes, edges included', () => {
    const ll = point({ x: 0, y: 0 });
    const ur = point({ x: 10, y: 10 });
    expect(within(point({ x: 5, y: 5 }), ll, ur)).toBe(true);
    expect(within(point({ x: 10, y: 0 }), ll, ur)).toBe(true);
    expect(within(point({ x: 11, y: 5 }), ll, ur)).toBe(false);
    expect(within(point({ x: 5, y: 5, z: 5 }), point({ x: 0, y: 0, z: 0 }), point({ x: 10, y: 10, z: 4 }))).toBe(false);
  });

  it('wraps WGS-84 boxes across the antimeridian', () => {
    const ll = point({ longitude: 170, latitude: -10 });
    const ur = point({ longitude: -170, latitude: 10 });
    expect(within(point({ longitude: 179, latitude: 0 }), ll, ur)).toBe(true);
    expect(within(point({ longitude: -175, latitude: 0 }), ll, ur)).toBe(true);
    expect(within(point({ longitude: 0, latitude: 0 }), ll, ur)).toBe(false);
    expect(within(point({ longitude: 179, latitude: 20 }), ll, ur)).toBe(false);
  });

  it('is null across CRSs or with a null argument', () => {
    expect(within(point({ x: 1, y: 1 }), point({ longitude: 0, latitude: 0 }), point({ longitude: 2, latitude: 2 }))).toBeNull();
    expect(within(point({ x: 1, y: 1 }), null, point({ x: 2, y: 2 }))).toBeNull();
  });
});

describe('points in the engine', () => {
  it('stores points as properties and reads their components', () => {
    const db = new Database();
    db.executeSync("CREATE (:City {name: 'Malmö', loc: point({longitude: 12.994823, latitude: 55.612191})}), (:City {name: 'Copenhagen', loc: point({longitude: 12.568337, latitude: 55.676098})})");
    const r = db.executeSync(
      "MATCH (a:City {name: 'Malmö'}), (b:City {name: 'Copenhagen'}) RETURN a.loc.latitude AS lat, round(point.distance(a.loc, b.loc) / 1000) AS km, b.loc = point({longitude: 12.568337, latitude: 55.676098}) AS same",
    );
    const [lat, km, same] = r.records[0] ?? [];
    expect(num(lat ?? null)).toBe(55.612191);
    expect(num(km ?? null)).toBe(28);
    expect(same).toBe(true);
  });

  it('is a value the JS boundary can hand out', () => {
    const p = point({ x: 1, y: 2, z: 3 }) as PointValue;
    expect(p.toJs()).toEqual({ crs: 'cartesian-3d', srid: 9157, x: 1, y: 2, z: 3 });
  });
});
