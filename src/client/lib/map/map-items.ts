/**
 * What the map shows, in plain data (no MapLibre types): screens turn their records into
 * MapItems, the engine turns MapItems into GeoJSON sources. Pure, unit-tested.
 */
import type { Feature, FeatureCollection, Geometry, Polygon, Position } from 'geojson';
import type { Extent } from '../../../common/schemas/wire';
import { EARTH_RADIUS_M } from './geo';

export type MapItemKind = 'area' | 'path' | 'indicator';

export interface MapItem {
  kind: MapItemKind;
  id: number;
  name: string;
  /** Farmer record id the item belongs to (for the editors' farmer filter). */
  farmerId?: number | null;
  geometry: Geometry | null;
  /** Highlighted (e.g. the path being recorded or edited). */
  selected?: boolean;
}

/** A layer the user added from a file (GeoJSON/GPX/KML), drawn under the project's features. */
export interface LocalOverlay {
  id: number;
  color: string;
  data: FeatureCollection;
}

export interface MapItemProperties {
  id: number;
  kind: MapItemKind;
  name: string;
  farmerId: number | null;
  selected: boolean;
}

/** Items visible under the farmer filter (null/undefined = all farmers). */
export function filterByFarmer(items: readonly MapItem[], farmerId: number | null | undefined): MapItem[] {
  if (farmerId === null || farmerId === undefined) return items.slice();
  return items.filter((item) => item.farmerId === farmerId);
}

export function toFeatureCollection(items: readonly MapItem[], kind: MapItemKind): FeatureCollection<Geometry, MapItemProperties> {
  const features: Feature<Geometry, MapItemProperties>[] = [];
  for (const item of items) {
    if (item.kind !== kind || !item.geometry) continue;
    features.push({
      type: 'Feature',
      id: item.id,
      geometry: item.geometry,
      properties: { id: item.id, kind: item.kind, name: item.name, farmerId: item.farmerId ?? null, selected: item.selected === true },
    });
  }
  return { type: 'FeatureCollection', features };
}

function eachPosition(geometry: Geometry, visit: (p: Position) => void): void {
  switch (geometry.type) {
    case 'Point':
      visit(geometry.coordinates);
      break;
    case 'MultiPoint':
    case 'LineString':
      geometry.coordinates.forEach(visit);
      break;
    case 'MultiLineString':
    case 'Polygon':
      geometry.coordinates.forEach((ring) => ring.forEach(visit));
      break;
    case 'MultiPolygon':
      geometry.coordinates.forEach((poly) => poly.forEach((ring) => ring.forEach(visit)));
      break;
    case 'GeometryCollection':
      geometry.geometries.forEach((g) => eachPosition(g, visit));
      break;
  }
}

/** Bounding box of geometries, or null when there is nothing to bound. */
export function extentOf(geometries: ReadonlyArray<Geometry | null | undefined>): Extent | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const g of geometries) {
    if (!g) continue;
    eachPosition(g, ([x, y]) => {
      if (x === undefined || y === undefined) return;
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    });
  }
  return Number.isFinite(minX) ? { minX, minY, maxX, maxY } : null;
}

/**
 * Where an item's label sits: a point is itself, a line its middle vertex, a polygon the centre
 * of its bbox, or with `at = 'top'` the middle of its top edge, so a meadow's name does not sit
 * on the path across it (good enough for compact meadows; labels are hints, not data).
 */
export function labelPoint(geometry: Geometry | null, at: 'middle' | 'top' = 'middle'): [number, number] | null {
  if (!geometry) return null;
  if (geometry.type === 'Point') return [geometry.coordinates[0]!, geometry.coordinates[1]!];
  if (geometry.type === 'LineString' && geometry.coordinates.length > 0) {
    const mid = geometry.coordinates[Math.floor(geometry.coordinates.length / 2)]!;
    return [mid[0]!, mid[1]!];
  }
  if (geometry.type === 'MultiLineString' && geometry.coordinates[0]?.length) return labelPoint({ type: 'LineString', coordinates: geometry.coordinates[0] });
  const e = extentOf([geometry]);
  if (!e) return null;
  return [(e.minX + e.maxX) / 2, at === 'top' ? e.maxY : (e.minY + e.maxY) / 2];
}

/** A circle of `radiusM` metres around a point as a polygon (the position's accuracy halo). */
export function circlePolygon(center: [number, number], radiusM: number, steps = 48): Polygon {
  const [lon, lat] = center;
  const dLat = (radiusM / EARTH_RADIUS_M) * (180 / Math.PI);
  const dLon = dLat / Math.max(0.01, Math.cos((lat * Math.PI) / 180));
  const ring: Position[] = [];
  for (let i = 0; i <= steps; i += 1) {
    const a = (i / steps) * 2 * Math.PI;
    ring.push([lon + dLon * Math.cos(a), lat + dLat * Math.sin(a)]);
  }
  return { type: 'Polygon', coordinates: [ring] };
}
