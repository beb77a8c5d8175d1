/**
 * GeoJSON validation (RFC 7946) for every GeoJSON geometry type, bounding boxes, and the exact
 * intersection test behind the bbox prefilter. A Feature body is unwrapped to its geometry and a
 * FeatureCollection to a GeometryCollection of its members' geometries. Errors are 400s naming
 * the offending position (e.g. `geometry.coordinates[0][3]: latitude 95 out of range`).
 */
import booleanIntersects from '@turf/boolean-intersects';
import type { Geometry, Position } from 'geojson';
import { invalid } from '../domain-errors';

export type BBox = [minX: number, minY: number, maxX: number, maxY: number];

/** Guards against pathological nesting of GeometryCollections. */
const MAX_COLLECTION_DEPTH = 4;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function position(value: unknown, path: string): Position {
  if (!Array.isArray(value)) throw invalid(`${path}: a position must be an array [longitude, latitude]`);
  if (value.length < 2 || value.length > 4) throw invalid(`${path}: a position has 2 to 4 numbers, got ${value.length}`);
  for (let i = 0; i < value.length; i++) {
    const n = value[i];
    if (typeof n !== 'number' || !Number.isFinite(n)) throw invalid(`${path}[${i}]: must be a finite number`);
  }
  const [x, y] = value as number[];
  if (x! < -180 || x! > 180) throw invalid(`${path}: longitude ${x} out of range [-180, 180]`);
  if (y! < -90 || y! > 90) throw invalid(`${path}: latitude ${y} out of range [-90, 90]`);
  return value as Position;
}

function positions(value: unknown, path: string, min: number, what: string): Position[] {
  if (!Array.isArray(value)) throw invalid(`${path}: must be an array of positions`);
  if (value.length < min) throw invalid(`${path}: a ${what} needs at least ${min} positions, got ${value.length}`);
  return value.map((p, i) => position(p, `${path}[${i}]`));
}

function ring(value: unknown, path: string): Position[] {
  const ps = positions(value, path, 4, 'polygon ring');
  const first = ps[0]!;
  const last = ps[ps.length - 1]!;
  if (first[0] !== last[0] || first[1] !== last[1]) throw invalid(`${path}: ring is not closed (first and last positions differ)`);
  return ps;
}

function polygon(value: unknown, path: string): Position[][] {
  if (!Array.isArray(value) || value.length === 0) throw invalid(`${path}: a polygon needs at least one ring`);
  return value.map((r, i) => ring(r, `${path}[${i}]`));
}

function nonEmptyArray(value: unknown, path: string, what: string): unknown[] {
  if (!Array.isArray(value) || value.length === 0) throw invalid(`${path}: must be a non-empty array of ${what}`);
  return value;
}

function geometry(value: unknown, path: string, depth: number): Geometry {
  if (!isObject(value)) throw invalid(`${path}: must be a GeoJSON geometry object`);
  const type = value.type;
  const coords = value.coordinates;
  const cpath = `${path}.coordinates`;
  switch (type) {
    case 'Point':
      return { type, coordinates: position(coords, cpath) };
    case 'MultiPoint':
      return { type, coordinates: positions(coords, cpath, 1, 'MultiPoint') };
    case 'LineString':
      return { type, coordinates: positions(coords, cpath, 2, 'LineString') };
    case 'MultiLineString':
      return { type, coordinates: nonEmptyArray(coords, cpath, 'line strings').map((l, i) => positions(l, `${cpath}[${i}]`, 2, 'LineString')) };
    case 'Polygon':
      return { type, coordinates: polygon(coords, cpath) };
    case 'MultiPolygon':
      return { type, coordinates: nonEmptyArray(coords, cpath, 'polygons').map((p, i) => polygon(p, `${cpath}[${i}]`)) };
    case 'GeometryCollection': {
      if (depth >= MAX_COLLECTION_DEPTH) throw invalid(`${path}: geometry collections nested too deeply`);
      const members = nonEmptyArray(value.geometries, `${path}.geometries`, 'geometries');
      return { type, geometries: members.map((g, i) => geometry(g, `${path}.geometries[${i}]`, depth + 1)) };
    }
    case 'Feature':
    case 'FeatureCollection':
      throw invalid(`${path}: a ${type} is not allowed inside a geometry`);
    default:
      throw invalid(`${path}.type: unknown geometry type ${JSON.stringify(type)}`);
  }
}

/**
 * Validates a geometry given in a body. Accepts a geometry, a Feature (its geometry is used, may
 * be null) or a FeatureCollection (a GeometryCollection of its features' geometries). `undefined`
 * stays undefined ("not given"), null stays null ("no geometry").
 */
export function normalizeGeometry(value: unknown, path = 'geometry'): Geometry | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (!isObject(value)) throw invalid(`${path}: must be a GeoJSON object or null`);
  if (value.type === 'Feature') {
    if (value.geometry === null) return null;
    return geometry(value.geometry, `${path}.geometry`, 0);
  }
  if (value.type === 'FeatureCollection') {
    const features = value.features;
    if (!Array.isArray(features)) throw invalid(`${path}.features: must be an array of features`);
    const members: Geometry[] = [];
    features.forEach((feature, i) => {
      if (!isObject(feature) || feature.type !== 'Feature') throw invalid(`${path}.features[${i}]: must be a Feature`);
      if (feature.geometry !== null) members.push(geometry(feature.geometry, `${path}.features[${i}].geometry`, 0));
    });
    if (members.length === 0) throw invalid(`${path}: the FeatureCollection has no geometry`);
    return members.length === 1 ? members[0]! : { type: 'GeometryCollection', geometries: members };
  }
  return geometry(value, path, 0);
}

function extend(box: BBox, p: Position): void {
  if (p[0]! < box[0]) box[0] = p[0]!;
  if (p[1]! < box[1]) box[1] = p[1]!;
  if (p[0]! > box[2]) box[2] = p[0]!;
  if (p[1]! > box[3]) box[3] = p[1]!;
}

function walk(g: Geometry, visit: (p: Position) => void): void {
  switch (g.type) {
    case 'Point':
      visit(g.coordinates);
      break;
    case 'MultiPoint':
    case 'LineString':
      g.coordinates.forEach(visit);
      break;
    case 'MultiLineString':
    case 'Polygon':
      g.coordinates.forEach((line) => line.forEach(visit));
      break;
    case 'MultiPolygon':
      g.coordinates.forEach((poly) => poly.forEach((line) => line.forEach(visit)));
      break;
    case 'GeometryCollection':
      g.geometries.forEach((member) => walk(member, visit));
      break;
  }
}

export function bboxOf(g: Geometry): BBox {
  const box: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  walk(g, (p) => extend(box, p));
  return box;
}

export function bboxPolygon(box: BBox): Geometry {
  const [minX, minY, maxX, maxY] = box;
  return {
    type: 'Polygon',
    coordinates: [
      [
        [minX, minY],
        [maxX, minY],
        [maxX, maxY],
        [minX, maxY],
        [minX, minY],
      ],
    ],
  };
}

/** Exact test after the bbox prefilter (collections: any member intersecting counts). */
export function intersects(a: Geometry, b: Geometry): boolean {
  if (a.type === 'GeometryCollection') return a.geometries.some((member) => intersects(member, b));
  if (b.type === 'GeometryCollection') return b.geometries.some((member) => intersects(a, member));
  return booleanIntersects(a, b);
}
