/**
 * The coordinate reference systems points may use: cartesian 2D and 3D and WGS-84
 * geographic 2D and 3D, with their names and SRIDs as Neo4j defines them.
 */

export interface Crs {
  /** `cartesian`, `cartesian-3d`, `wgs-84`, `wgs-84-3d`. */
  readonly name: string;
  readonly srid: number;
  readonly dimensions: 2 | 3;
  readonly geographic: boolean;
}

export const CARTESIAN: Crs = { name: 'cartesian', srid: 7203, dimensions: 2, geographic: false };
export const CARTESIAN_3D: Crs = { name: 'cartesian-3d', srid: 9157, dimensions: 3, geographic: false };
export const WGS84: Crs = { name: 'wgs-84', srid: 4326, dimensions: 2, geographic: true };
export const WGS84_3D: Crs = { name: 'wgs-84-3d', srid: 4979, dimensions: 3, geographic: true };

const ALL: readonly Crs[] = [CARTESIAN, CARTESIAN_3D, WGS84, WGS84_3D];

export function crsByName(name: string): Crs | undefined {
  const lower = name.toLowerCase();
  return ALL.find((c) => c.name === lower);
}

export function crsBySrid(srid: number): Crs | undefined {
  return ALL.find((c) => c.srid === srid);
}

/** The CRS of a kind (geographic or not) and dimension. */
export function crsFor(geographic: boolean, dimensions: 2 | 3): Crs {
  if (geographic) return dimensions === 3 ? WGS84_3D : WGS84;
  return dimensions === 3 ? CARTESIAN_3D : CARTESIAN;
}
