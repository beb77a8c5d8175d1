/**
 * Reads a GeoJSON, GPX or KML file from the phone into a GeoJSON FeatureCollection for a local
 * layer (e.g. last year's walk from another app, parcel borders from the adviser). Every
 * failure is a LayerParseError with a Slovenian message for the user; nothing half-parsed is kept.
 * Needs DOMParser for GPX/KML (browser, jsdom).
 */
import type { Feature, FeatureCollection, Geometry, Position } from 'geojson';
import { formatFileSize } from '../../../../common/format';
import { slLocalLayers } from '../../../../common/i18n/sl';

export const MAX_LAYER_FILE_BYTES = 10 * 1024 * 1024;
const t = slLocalLayers.localLayers;

export class LayerParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LayerParseError';
  }
}

type LayerFormat = 'geojson' | 'gpx' | 'kml';

function detectFormat(fileName: string, text: string): LayerFormat | null {
  const name = fileName.toLowerCase();
  if (name.endsWith('.gpx')) return 'gpx';
  if (name.endsWith('.kml')) return 'kml';
  if (name.endsWith('.geojson') || name.endsWith('.json')) return 'geojson';
  const head = text.trimStart().slice(0, 400);
  if (head.startsWith('{')) return 'geojson';
  if (/<gpx[\s>]/.test(head)) return 'gpx';
  if (/<kml[\s>]/.test(head)) return 'kml';
  return null;
}

function validPosition(p: unknown): p is Position {
  return Array.isArray(p) && p.length >= 2 && typeof p[0] === 'number' && typeof p[1] === 'number' && Math.abs(p[0]) <= 180 && Math.abs(p[1]) <= 90;
}

const GEOMETRY_TYPES = new Set(['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection']);

/** Checks a GeoJSON geometry's shape and coordinate ranges (throws LayerParseError). */
function checkGeometry(g: unknown): Geometry {
  const geometry = g as Geometry;
  if (!geometry || typeof geometry !== 'object' || !GEOMETRY_TYPES.has(geometry.type)) throw new LayerParseError(t.errorUnreadable);
  const depth: Record<string, number> = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 };
  if (geometry.type === 'GeometryCollection') {
    if (!Array.isArray(geometry.geometries)) throw new LayerParseError(t.errorUnreadable);
    geometry.geometries.forEach(checkGeometry);
    return geometry;
  }
  const visit = (value: unknown, level: number): void => {
    if (level === 0) {
      if (!validPosition(value)) throw new LayerParseError(t.errorCoordinates);
      return;
    }
    if (!Array.isArray(value)) throw new LayerParseError(t.errorUnreadable);
    value.forEach((v) => visit(v, level - 1));
  };
  visit((geometry as { coordinates?: unknown }).coordinates, depth[geometry.type]!);
  return geometry;
}

function parseGeoJson(text: string): Feature[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new LayerParseError(t.errorUnreadable);
  }
  const value = data as { type?: string; features?: unknown[]; geometry?: unknown; properties?: unknown };
  if (value?.type === 'FeatureCollection') {
    if (!Array.isArray(value.features)) throw new LayerParseError(t.errorUnreadable);
    return value.features.flatMap((f) => parseGeoJsonFeature(f));
  }
  if (value?.type === 'Feature') return parseGeoJsonFeature(value);
  return [{ type: 'Feature', properties: {}, geometry: checkGeometry(value) }];
}

function parseGeoJsonFeature(f: unknown): Feature[] {
  const feature = f as { type?: string; geometry?: unknown; properties?: Record<string, unknown> | null };
  if (feature?.type !== 'Feature') throw new LayerParseError(t.errorUnreadable);
  if (feature.geometry === null || feature.geometry === undefined) return [];
  return [{ type: 'Feature', properties: feature.properties ?? {}, geometry: checkGeometry(feature.geometry) }];
}

function parseXml(text: string): Document {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0) throw new LayerParseError(t.errorUnreadable);
  return doc;
}

/** Elements by local name, whatever the namespace prefix. */
function byName(root: Document | Element, name: string): Element[] {
  return Array.from(root.getElementsByTagNameNS('*', name));
}

function childText(el: Element, name: string): string | undefined {
  const child = Array.from(el.children).find((c) => c.localName === name);
  return child?.textContent?.trim() || undefined;
}

function gpxPoint(el: Element): Position {
  const p = [Number(el.getAttribute('lon')), Number(el.getAttribute('lat'))];
  if (!validPosition(p) || Number.isNaN(p[0]) || Number.isNaN(p[1])) throw new LayerParseError(t.errorCoordinates);
  return p;
}

function parseGpx(text: string): Feature[] {
  const doc = parseXml(text);
  if (byName(doc, 'gpx').length === 0) throw new LayerParseError(t.errorUnreadable);
  const features: Feature[] = [];
  for (const trk of byName(doc, 'trk')) {
    const segments = byName(trk, 'trkseg')
      .map((seg) => byName(seg, 'trkpt').map(gpxPoint))
      .filter((s) => s.length >= 2);
    if (segments.length === 0) continue;
    const name = childText(trk, 'name');
    features.push({
      type: 'Feature',
      properties: name ? { name } : {},
      geometry: segments.length === 1 ? { type: 'LineString', coordinates: segments[0]! } : { type: 'MultiLineString', coordinates: segments },
    });
  }
  for (const rte of byName(doc, 'rte')) {
    const points = byName(rte, 'rtept').map(gpxPoint);
    if (points.length >= 2)
      features.push({ type: 'Feature', properties: { name: childText(rte, 'name') ?? '' }, geometry: { type: 'LineString', coordinates: points } });
  }
  for (const wpt of byName(doc, 'wpt')) {
    features.push({ type: 'Feature', properties: { name: childText(wpt, 'name') ?? '' }, geometry: { type: 'Point', coordinates: gpxPoint(wpt) } });
  }
  return features;
}

function kmlCoordinates(el: Element | undefined): Position[] {
  const text = el?.textContent?.trim() ?? '';
  if (!text) return [];
  return text.split(/\s+/).map((tuple) => {
    const p = tuple.split(',').map(Number);
    if (!validPosition(p) || p.some(Number.isNaN)) throw new LayerParseError(t.errorCoordinates);
    return p.slice(0, 2);
  });
}

function kmlGeometry(el: Element): Geometry | null {
  const coords = (e: Element) => kmlCoordinates(byName(e, 'coordinates')[0]);
  switch (el.localName) {
    case 'Point': {
      const [p] = coords(el);
      return p ? { type: 'Point', coordinates: p } : null;
    }
    case 'LineString': {
      const line = coords(el);
      return line.length >= 2 ? { type: 'LineString', coordinates: line } : null;
    }
    case 'Polygon': {
      const outer = byName(el, 'outerBoundaryIs')[0];
      const rings = [outer, ...byName(el, 'innerBoundaryIs')].filter((r): r is Element => !!r).map(coords);
      return rings[0] && rings[0].length >= 4 ? { type: 'Polygon', coordinates: rings } : null;
    }
    case 'MultiGeometry': {
      const parts = Array.from(el.children)
        .map(kmlGeometry)
        .filter((g): g is Geometry => g !== null);
      return parts.length ? { type: 'GeometryCollection', geometries: parts } : null;
    }
    default:
      return null;
  }
}

function parseKml(text: string): Feature[] {
  const doc = parseXml(text);
  if (byName(doc, 'kml').length === 0) throw new LayerParseError(t.errorUnreadable);
  const features: Feature[] = [];
  for (const placemark of byName(doc, 'Placemark')) {
    const geometryEl = Array.from(placemark.children).find((c) => ['Point', 'LineString', 'Polygon', 'MultiGeometry'].includes(c.localName));
    const geometry = geometryEl ? kmlGeometry(geometryEl) : null;
    if (geometry) features.push({ type: 'Feature', properties: { name: childText(placemark, 'name') ?? '' }, geometry });
  }
  return features;
}

/** Parse a file's text; `size` in bytes (checked first). */
export function parseLayerFile(fileName: string, text: string, size: number = text.length): FeatureCollection {
  if (size > MAX_LAYER_FILE_BYTES) throw new LayerParseError(t.errorTooLarge.replace('{max}', formatFileSize(MAX_LAYER_FILE_BYTES)));
  const format = detectFormat(fileName, text);
  if (!format) throw new LayerParseError(t.errorUnreadable);
  const features = format === 'geojson' ? parseGeoJson(text) : format === 'gpx' ? parseGpx(text) : parseKml(text);
  if (features.length === 0) throw new LayerParseError(t.errorEmpty);
  return { type: 'FeatureCollection', features };
}
