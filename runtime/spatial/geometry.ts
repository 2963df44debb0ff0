/**
 * Measurements between points: `point.distance` (Euclidean for cartesian points; the
 * haversine great-circle distance in metres for WGS-84, combined with the height
 * difference by Pythagoras in 3D) and `point.withinBBox` (a box given by its lower-left
 * and upper-right corners; for WGS-84 a box whose left longitude exceeds its right one
 * crosses the antimeridian). Points in different CRSs give null.
 */

import type { PointValue } from './point.js';

/** The mean Earth radius Neo4j uses for WGS-84 distances, in metres. */
export const EARTH_RADIUS_METERS = 6_378_140;

function toRadians(deg: number): number {
  return (deg * Math.PI) / 180;
}

/** Great-circle distance between two longitude/latitude pairs, in metres. */
export function haversine(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const dLat = toRadians(lat2 - lat1);
  const dLon = toRadians(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(lat1)) * Math.cos(toRadians(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(a)));
}

export function distance(a: PointValue, b: PointValue): number | null {
  if (a.crs !== b.crs) return null;
  if (!a.crs.geographic) {
    let sum = 0;
    for (let i = 0; i < a.coords.length; i++) sum += (a.coords[i] - b.coords[i]) ** 2;
    return Math.sqrt(sum);
  }
  const surface = haversine(a.x, a.y, b.x, b.y);
  if (a.z === undefined || b.z === undefined) return surface;
  return Math.sqrt(surface ** 2 + (a.z - b.z) ** 2);
}

function between(v: number, low: number, high: number): boolean {
  return v >= low && v <= high;
}

export function withinBBox(p: PointValue, lowerLeft: PointValue, upperRight: PointValue): boolean | null {
  if (p.crs !== lowerLeft.crs || p.crs !== upperRight.crs) return null;
  const geo = p.crs.geographic;
  const xInside = geo && lowerLeft.x > upperRight.x ? p.x >= lowerLeft.x || p.x <= upperRight.x : between(p.x, lowerLeft.x, upperRight.x);
  if (!xInside || !between(p.y, lowerLeft.y, upperRight.y)) return false;
  if (p.z === undefined) return true;
  return between(p.z, lowerLeft.z as number, upperRight.z as number);
}
