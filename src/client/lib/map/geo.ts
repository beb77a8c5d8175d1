/**
 * Small spherical-geometry helpers in metres on WGS84 lon/lat. Pure functions, no map library:
 * the walk recorder, the simplifier and the download estimator share them and they run in tests.
 */
export type LonLat = [number, number];

/** Mean Earth radius (m), the value used by turf and most GPS apps. */
export const EARTH_RADIUS_M = 6_371_008.8;

const toRad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres (haversine). */
export function distanceM(a: LonLat, b: LonLat): number {
  const dLat = toRad(b[1] - a[1]);
  const dLon = toRad(b[0] - a[0]);
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a[1])) * Math.cos(toRad(b[1])) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(s)));
}

/** Length of a polyline in metres. */
export function lineLengthM(points: readonly LonLat[]): number {
  let total = 0;
  for (let i = 1; i < points.length; i += 1) total += distanceM(points[i - 1]!, points[i]!);
  return total;
}

/**
 * A local equirectangular projection to metres around a reference latitude. For the few hundred
 * metres of a meadow transect its error is far below GPS accuracy, and it lets the simplifier use
 * plain planar distances (fast) instead of spherical ones.
 */
export function localProjector(refLat: number): (p: LonLat) => [number, number] {
  const kx = toRad(1) * EARTH_RADIUS_M * Math.cos(toRad(refLat));
  const ky = toRad(1) * EARTH_RADIUS_M;
  return (p) => [p[0] * kx, p[1] * ky];
}

/** Planar area of a lon/lat bbox in square metres (for the download list's "area"). */
export function bboxAreaM2(minX: number, minY: number, maxX: number, maxY: number): number {
  const width = distanceM([minX, (minY + maxY) / 2], [maxX, (minY + maxY) / 2]);
  const height = distanceM([minX, minY], [minX, maxY]);
  return width * height;
}
