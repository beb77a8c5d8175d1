/**
 * How the engine's own layers look: the meadow palette, the GeoJSON sources and layers of meadows,
 * paths, indicators and the user's position, the user's local layers, and Mapbox GL Draw's styles.
 */
import type { FeatureCollection } from 'geojson';
import type { Map as MlMap } from 'maplibre-gl';
import type { LocalOverlay, MapItemKind } from './map-items';

/** Meadow palette for the feature layers; the legend uses the same values. */
const LAYER_COLORS = {
  area: '#4d7c2a',
  areaFill: 'rgba(124, 179, 66, 0.28)',
  path: '#8a4b08',
  selected: '#d81b60',
  indicator: '#6a1b9a',
  position: '#1565c0',
} as const;

export const SOURCES = { area: 'mt-areas', path: 'mt-paths', indicator: 'mt-indicators', position: 'mt-position' } as const;
export const CLICKABLE_LAYERS: Array<{ layer: string; kind: MapItemKind }> = [
  { layer: 'mt-indicators', kind: 'indicator' },
  { layer: 'mt-paths', kind: 'path' },
  { layer: 'mt-areas-fill', kind: 'area' },
];

export const emptyCollection = (): FeatureCollection => ({ type: 'FeatureCollection', features: [] });

/** The sources and layers of meadows, paths, indicators and the position, bottom to top. */
export function addFeatureLayers(map: MlMap): void {
  for (const source of Object.values(SOURCES)) map.addSource(source, { type: 'geojson', data: emptyCollection(), promoteId: 'id' });
  map.addLayer({ id: 'mt-areas-fill', type: 'fill', source: SOURCES.area, paint: { 'fill-color': LAYER_COLORS.areaFill } });
  map.addLayer({
    id: 'mt-areas-line',
    type: 'line',
    source: SOURCES.area,
    paint: { 'line-color': ['case', ['get', 'selected'], LAYER_COLORS.selected, LAYER_COLORS.area], 'line-width': 2 },
  });
  map.addLayer({
    id: 'mt-paths-casing',
    type: 'line',
    source: SOURCES.path,
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': '#ffffff', 'line-width': ['interpolate', ['linear'], ['zoom'], 10, 3, 16, 8] },
  });
  map.addLayer({
    id: 'mt-paths',
    type: 'line',
    source: SOURCES.path,
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: {
      'line-color': ['case', ['get', 'selected'], LAYER_COLORS.selected, LAYER_COLORS.path],
      'line-width': ['interpolate', ['linear'], ['zoom'], 10, 1.5, 16, 5],
    },
  });
  map.addLayer({
    id: 'mt-indicators',
    type: 'circle',
    source: SOURCES.indicator,
    paint: {
      'circle-color': LAYER_COLORS.indicator,
      'circle-radius': ['interpolate', ['linear'], ['zoom'], 10, 3, 16, 8],
      'circle-stroke-color': '#ffffff',
      'circle-stroke-width': 2,
    },
  });
  map.addLayer({
    id: 'mt-position-accuracy',
    type: 'fill',
    source: SOURCES.position,
    filter: ['==', ['geometry-type'], 'Polygon'],
    paint: { 'fill-color': 'rgba(21, 101, 192, 0.15)', 'fill-outline-color': LAYER_COLORS.position },
  });
  map.addLayer({
    id: 'mt-position',
    type: 'circle',
    source: SOURCES.position,
    filter: ['==', ['geometry-type'], 'Point'],
    paint: { 'circle-color': LAYER_COLORS.position, 'circle-radius': 7, 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 3 },
  });
}

/** A local layer's source and its fill, line and point layers, drawn below the meadows. */
export function addLocalOverlay(map: MlMap, overlay: LocalOverlay): void {
  const source = `mt-local-${overlay.id}`;
  map.addSource(source, { type: 'geojson', data: overlay.data });
  const below = 'mt-areas-fill';
  map.addLayer(
    { id: `${source}-fill`, type: 'fill', source, filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': overlay.color, 'fill-opacity': 0.15 } },
    below,
  );
  map.addLayer(
    {
      id: `${source}-line`,
      type: 'line',
      source,
      filter: ['in', ['geometry-type'], ['literal', ['LineString', 'Polygon']]],
      paint: { 'line-color': overlay.color, 'line-width': 2, 'line-dasharray': [2, 1] },
    },
    below,
  );
  map.addLayer(
    { id: `${source}-point`, type: 'circle', source, filter: ['==', ['geometry-type'], 'Point'], paint: { 'circle-color': overlay.color, 'circle-radius': 5 } },
    below,
  );
}

/** The layer ids addLocalOverlay adds for overlay `id`, and its source id last. */
export function localOverlayIds(id: number): { layers: string[]; source: string } {
  const source = `mt-local-${id}`;
  return { layers: ['fill', 'line', 'point'].map((suffix) => `${source}-${suffix}`), source };
}

/**
 * Draw's look, thicker than its defaults: a path being drawn outdoors must be visible in sunlight
 * and its vertices big enough for a finger. Draw adds `.cold`/`.hot` to the ids.
 */
export const DRAW_STYLES = [
  {
    id: 'gl-draw-polygon-fill',
    type: 'fill',
    filter: ['all', ['==', '$type', 'Polygon']],
    paint: { 'fill-color': LAYER_COLORS.selected, 'fill-opacity': 0.1 },
  },
  { id: 'gl-draw-polygon-stroke', type: 'line', filter: ['all', ['==', '$type', 'Polygon']], paint: { 'line-color': LAYER_COLORS.selected, 'line-width': 3 } },
  {
    id: 'gl-draw-line-casing',
    type: 'line',
    filter: ['all', ['==', '$type', 'LineString']],
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': '#ffffff', 'line-width': 8 },
  },
  {
    id: 'gl-draw-line',
    type: 'line',
    filter: ['all', ['==', '$type', 'LineString']],
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': LAYER_COLORS.selected, 'line-width': 4 },
  },
  {
    id: 'gl-draw-vertex-halo',
    type: 'circle',
    filter: ['all', ['==', 'meta', 'vertex'], ['==', '$type', 'Point']],
    paint: { 'circle-radius': 11, 'circle-color': '#ffffff' },
  },
  {
    id: 'gl-draw-vertex',
    type: 'circle',
    filter: ['all', ['==', 'meta', 'vertex'], ['==', '$type', 'Point']],
    paint: { 'circle-radius': 7, 'circle-color': LAYER_COLORS.selected },
  },
  {
    id: 'gl-draw-midpoint',
    type: 'circle',
    filter: ['all', ['==', 'meta', 'midpoint'], ['==', '$type', 'Point']],
    paint: { 'circle-radius': 6, 'circle-color': LAYER_COLORS.selected, 'circle-opacity': 0.55 },
  },
  {
    id: 'gl-draw-point',
    type: 'circle',
    filter: ['all', ['==', 'meta', 'feature'], ['==', '$type', 'Point']],
    paint: { 'circle-radius': 9, 'circle-color': LAYER_COLORS.indicator, 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 3 },
  },
];
