/**
 * The one place that drives MapLibre GL JS (the open, token-free fork of mapbox-gl) and
 * @mapbox/mapbox-gl-draw. Screens and features get a MapEngine from the MapView component and
 * never touch maplibre-gl themselves; the engine is a plain object held in a React ref, never in
 * Redux (docs/architecture.md, Layers).
 *
 * Labels: the own base map ships no glyphs (see src/common/basemap.ts), so the names of meadows,
 * paths and indicators are HTML markers in the system font, added only for items in view at
 * zoom ≥ LABEL_MIN_ZOOM and at most LABEL_LIMIT of them (so 10,000 paths do not make 10,000 DOM
 * nodes).
 */
import MapboxDraw from '@mapbox/mapbox-gl-draw';
import type { FeatureCollection, Geometry, LineString, MultiLineString, MultiPolygon, Point, Polygon } from 'geojson';
import maplibregl, { type GeoJSONSource, type LngLatBoundsLike, type Map as MlMap, type StyleSpecification } from 'maplibre-gl';
import { slPhone } from '../../../common/i18n/sl';
import type { Extent } from '../../../common/schemas/wire';
import { circlePolygon, extentOf, filterByFarmer, labelPoint, toFeatureCollection, type LocalOverlay, type MapItem, type MapItemKind } from './map-items';

const LABEL_MIN_ZOOM = 13;
const LABEL_LIMIT = 150;
/** Touch tolerance around a tap (px): fingers are not mouse pointers. */
const TAP_TOLERANCE_PX = 10;

/** Meadow palette for the feature layers; the legend uses the same values. */
const LAYER_COLORS = {
  area: '#4d7c2a',
  areaFill: 'rgba(124, 179, 66, 0.28)',
  path: '#8a4b08',
  selected: '#d81b60',
  indicator: '#6a1b9a',
  position: '#1565c0',
} as const;

const SOURCES = { area: 'mt-areas', path: 'mt-paths', indicator: 'mt-indicators', position: 'mt-position' } as const;
const CLICKABLE_LAYERS: Array<{ layer: string; kind: MapItemKind }> = [
  { layer: 'mt-indicators', kind: 'indicator' },
  { layer: 'mt-paths', kind: 'path' },
  { layer: 'mt-areas-fill', kind: 'area' },
];

/**
 * Draw's look, thicker than its defaults: a path being drawn outdoors must be visible in sunlight
 * and its vertices big enough for a finger. Draw adds `.cold`/`.hot` to the ids.
 */
const DRAW_STYLES = [
  { id: 'gl-draw-polygon-fill', type: 'fill', filter: ['all', ['==', '$type', 'Polygon']], paint: { 'fill-color': LAYER_COLORS.selected, 'fill-opacity': 0.1 } },
  { id: 'gl-draw-polygon-stroke', type: 'line', filter: ['all', ['==', '$type', 'Polygon']], paint: { 'line-color': LAYER_COLORS.selected, 'line-width': 3 } },
  { id: 'gl-draw-line-casing', type: 'line', filter: ['all', ['==', '$type', 'LineString']], layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': '#ffffff', 'line-width': 8 } },
  {
    id: 'gl-draw-line',
    type: 'line',
    filter: ['all', ['==', '$type', 'LineString']],
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': LAYER_COLORS.selected, 'line-width': 4 },
  },
  { id: 'gl-draw-vertex-halo', type: 'circle', filter: ['all', ['==', 'meta', 'vertex'], ['==', '$type', 'Point']], paint: { 'circle-radius': 11, 'circle-color': '#ffffff' } },
  { id: 'gl-draw-vertex', type: 'circle', filter: ['all', ['==', 'meta', 'vertex'], ['==', '$type', 'Point']], paint: { 'circle-radius': 7, 'circle-color': LAYER_COLORS.selected } },
  { id: 'gl-draw-midpoint', type: 'circle', filter: ['all', ['==', 'meta', 'midpoint'], ['==', '$type', 'Point']], paint: { 'circle-radius': 6, 'circle-color': LAYER_COLORS.selected, 'circle-opacity': 0.55 } },
  {
    id: 'gl-draw-point',
    type: 'circle',
    filter: ['all', ['==', 'meta', 'feature'], ['==', '$type', 'Point']],
    paint: { 'circle-radius': 9, 'circle-color': LAYER_COLORS.indicator, 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 3 },
  },
];

export interface Position2 {
  lon: number;
  lat: number;
  accuracy: number;
}

export interface MapEngineOptions {
  container: HTMLElement;
  style: StyleSpecification;
  center?: [number, number];
  zoom?: number;
  onFeatureClick?: (item: { kind: MapItemKind; id: number }) => void;
}

const emptyCollection = (): FeatureCollection => ({ type: 'FeatureCollection', features: [] });

export class MapEngine {
  readonly map: MlMap;
  private items: MapItem[] = [];
  private farmerId: number | null = null;
  private labels: maplibregl.Marker[] = [];
  private draw: MapboxDraw | null = null;
  private loaded: Promise<void>;
  private overlayIds: number[] = [];
  private clickHandler: MapEngineOptions['onFeatureClick'];

  constructor(options: MapEngineOptions) {
    this.clickHandler = options.onFeatureClick;
    this.map = new maplibregl.Map({
      container: options.container,
      style: options.style,
      center: options.center ?? [16.2, 46.8],
      zoom: options.zoom ?? 11,
      attributionControl: { compact: true },
      locale: slPhone.mapLocale,
      // Keep the drawing buffer so screenshots (tests, "share map") see the rendered map.
      canvasContextAttributes: { preserveDrawingBuffer: true },
    });
    this.map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
    this.map.addControl(new maplibregl.ScaleControl({ unit: 'metric' }), 'bottom-left');
    this.loaded = new Promise((resolve) => this.map.once('load', () => resolve()));
    void this.loaded.then(() => this.addLayers());
    this.map.on('moveend', () => this.updateLabels());
    this.map.on('click', (e) => this.handleClick(e.point));
  }

  /** Resolves when the style and our layers are in place. */
  whenReady(): Promise<void> {
    return this.loaded;
  }

  setOnFeatureClick(handler: MapEngineOptions['onFeatureClick']): void {
    this.clickHandler = handler;
  }

  private addLayers(): void {
    const map = this.map;
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
    this.pushData();
  }

  /** Replace what the map shows; the farmer filter (null = everyone) applies on top. */
  setItems(items: MapItem[], farmerId: number | null = this.farmerId): void {
    this.items = items;
    this.farmerId = farmerId;
    this.pushData();
  }

  setFarmerFilter(farmerId: number | null): void {
    this.farmerId = farmerId;
    this.pushData();
  }

  visibleItems(): MapItem[] {
    return filterByFarmer(this.items, this.farmerId);
  }

  private pushData(): void {
    if (!this.map.getSource(SOURCES.area)) return; // before load: addLayers pushes later
    const visible = this.visibleItems();
    for (const kind of ['area', 'path', 'indicator'] as const) {
      (this.map.getSource(SOURCES[kind]) as GeoJSONSource).setData(toFeatureCollection(visible, kind));
    }
    this.updateLabels();
  }

  /** Replace the user's local layers (drawn below meadows, paths and indicators). */
  setLocalOverlays(overlays: LocalOverlay[]): void {
    if (!this.map.getSource(SOURCES.area)) {
      void this.loaded.then(() => this.setLocalOverlays(overlays));
      return;
    }
    for (const id of this.overlayIds) {
      for (const suffix of ['fill', 'line', 'point']) if (this.map.getLayer(`mt-local-${id}-${suffix}`)) this.map.removeLayer(`mt-local-${id}-${suffix}`);
      if (this.map.getSource(`mt-local-${id}`)) this.map.removeSource(`mt-local-${id}`);
    }
    this.overlayIds = overlays.map((o) => o.id);
    for (const overlay of overlays) {
      const source = `mt-local-${overlay.id}`;
      this.map.addSource(source, { type: 'geojson', data: overlay.data });
      const below = 'mt-areas-fill';
      this.map.addLayer(
        { id: `${source}-fill`, type: 'fill', source, filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': overlay.color, 'fill-opacity': 0.15 } },
        below,
      );
      this.map.addLayer(
        {
          id: `${source}-line`,
          type: 'line',
          source,
          filter: ['in', ['geometry-type'], ['literal', ['LineString', 'Polygon']]],
          paint: { 'line-color': overlay.color, 'line-width': 2, 'line-dasharray': [2, 1] },
        },
        below,
      );
      this.map.addLayer(
        { id: `${source}-point`, type: 'circle', source, filter: ['==', ['geometry-type'], 'Point'], paint: { 'circle-color': overlay.color, 'circle-radius': 5 } },
        below,
      );
    }
  }

  /** Show (or hide with null) the user's position with its accuracy halo. */
  setUserPosition(position: Position2 | null): void {
    const source = this.map.getSource(SOURCES.position) as GeoJSONSource | undefined;
    if (!source) {
      if (position) void this.loaded.then(() => this.setUserPosition(position));
      return;
    }
    if (!position) {
      source.setData(emptyCollection());
      return;
    }
    const point: Point = { type: 'Point', coordinates: [position.lon, position.lat] };
    source.setData({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: {}, geometry: circlePolygon([position.lon, position.lat], Math.max(1, position.accuracy)) },
        { type: 'Feature', properties: {}, geometry: point },
      ],
    });
  }

  /**
   * Keep a position in view while walking: pan only when it leaves the middle 60 % of the map, so
   * the map does not jitter with every fix and the user can still look around between pans.
   */
  keepInView(position: Position2): void {
    const canvas = this.map.getCanvas();
    const p = this.map.project([position.lon, position.lat]);
    const w = canvas.clientWidth;
    const h = canvas.clientHeight;
    if (p.x < w * 0.2 || p.x > w * 0.8 || p.y < h * 0.2 || p.y > h * 0.8) this.map.easeTo({ center: [position.lon, position.lat], duration: 300 });
  }

  /** Zoom to the visible items (or the given extent); no-op when there is nothing. */
  fitTo(extent: Extent | null = extentOf(this.visibleItems().map((i) => i.geometry)), maxZoom = 17): void {
    if (!extent) return;
    const bounds: LngLatBoundsLike = [
      [extent.minX, extent.minY],
      [extent.maxX, extent.maxY],
    ];
    this.map.fitBounds(bounds, { padding: 40, maxZoom, duration: 0 });
  }

  currentExtent(): Extent {
    const b = this.map.getBounds();
    return { minX: b.getWest(), minY: b.getSouth(), maxX: b.getEast(), maxY: b.getNorth() };
  }

  private handleClick(point: { x: number; y: number }): void {
    if (!this.clickHandler || (this.draw && this.draw.getMode() !== 'simple_select')) return;
    const box: [[number, number], [number, number]] = [
      [point.x - TAP_TOLERANCE_PX, point.y - TAP_TOLERANCE_PX],
      [point.x + TAP_TOLERANCE_PX, point.y + TAP_TOLERANCE_PX],
    ];
    // Indicators over paths over areas: the smallest target wins.
    for (const { layer, kind } of CLICKABLE_LAYERS) {
      if (!this.map.getLayer(layer)) continue;
      const hit = this.map.queryRenderedFeatures(box, { layers: [layer] })[0];
      if (hit) {
        this.clickHandler({ kind, id: Number(hit.properties.id) });
        return;
      }
    }
  }

  private updateLabels(): void {
    for (const marker of this.labels) marker.remove();
    this.labels = [];
    if (this.map.getZoom() < LABEL_MIN_ZOOM) return;
    const bounds = this.map.getBounds();
    let count = 0;
    for (const item of this.visibleItems()) {
      if (count >= LABEL_LIMIT) break;
      const at = labelPoint(item.geometry, item.kind === 'area' ? 'top' : 'middle');
      if (!at || !item.name || !bounds.contains(at)) continue;
      const el = document.createElement('div');
      el.className = `mt-map-label mt-map-label--${item.kind}`;
      el.textContent = item.name;
      el.setAttribute('data-kind', item.kind);
      // Labels must not steal taps from the features under them.
      el.style.pointerEvents = 'none';
      // Meadow names sit inside the top edge, path names on the line, indicator names above the dot.
      const anchor = item.kind === 'area' ? 'top' : item.kind === 'indicator' ? 'bottom' : 'center';
      const offset: [number, number] = item.kind === 'indicator' ? [0, -10] : item.kind === 'area' ? [0, 4] : [0, 0];
      this.labels.push(new maplibregl.Marker({ element: el, anchor, offset }).setLngLat(at).addTo(this.map));
      // A name drawn on the map, not a control: MapLibre's marker label ("Oznaka na zemljevidu")
      // would hide the name from screen readers and contradict the text (the items are listed
      // beside the map anyway).
      el.removeAttribute('aria-label');
      el.removeAttribute('role');
      el.removeAttribute('tabindex');
      el.setAttribute('aria-hidden', 'true');
      count += 1;
    }
  }

  // ---- drawing (Mapbox GL Draw) ----

  private ensureDraw(): MapboxDraw {
    if (!this.draw) {
      // Draw looks for mapbox-gl class names; MapLibre uses maplibregl-*.
      const classes = MapboxDraw.constants.classes;
      classes.CANVAS = 'maplibregl-canvas';
      classes.CONTROL_BASE = 'maplibregl-ctrl';
      classes.CONTROL_PREFIX = 'maplibregl-ctrl-';
      classes.CONTROL_GROUP = 'maplibregl-ctrl-group';
      classes.ATTRIBUTION = 'maplibregl-ctrl-attrib';
      this.draw = new MapboxDraw({ displayControlsDefault: false, touchBuffer: 25, clickBuffer: 4, styles: DRAW_STYLES });
      this.map.addControl(this.draw as unknown as maplibregl.IControl);
    }
    return this.draw;
  }

  /** Start drawing a new line (tap vertices, double-tap the last). */
  startLine(): void {
    const draw = this.ensureDraw();
    draw.deleteAll();
    draw.changeMode('draw_line_string');
  }

  /** Edit an existing line: its vertices become draggable. */
  editLine(geometry: LineString | MultiLineString): void {
    const draw = this.ensureDraw();
    draw.deleteAll();
    const lines = geometry.type === 'LineString' ? [geometry] : geometry.coordinates.map((coordinates) => ({ type: 'LineString' as const, coordinates }));
    const ids = lines.flatMap((line) => draw.add({ type: 'Feature', properties: {}, geometry: line }));
    if (ids[0]) draw.changeMode('direct_select', { featureId: ids[0] });
  }

  /** Start drawing a new polygon (tap the corners, double-tap the last). */
  startPolygon(): void {
    const draw = this.ensureDraw();
    draw.deleteAll();
    draw.changeMode('draw_polygon');
  }

  /** Edit an existing polygon (the outer ring of a MultiPolygon's parts): its vertices become draggable. */
  editPolygon(geometry: Polygon | MultiPolygon): void {
    const draw = this.ensureDraw();
    draw.deleteAll();
    const polygons = geometry.type === 'Polygon' ? [geometry] : geometry.coordinates.map((coordinates) => ({ type: 'Polygon' as const, coordinates }));
    const ids = polygons.flatMap((polygon) => draw.add({ type: 'Feature', properties: {}, geometry: polygon }));
    if (ids[0]) draw.changeMode('direct_select', { featureId: ids[0] });
  }

  /**
   * Deletes the selected vertices of the feature being edited (Draw's trash): how a walked line
   * loses a stray point or gets its ends trimmed on a phone, where there is no Delete key.
   */
  deleteSelectedVertices(): void {
    this.draw?.trash();
  }

  /**
   * Ends a line or outline being drawn with the corners tapped so far, as a double tap on the last
   * one does — which on a phone may zoom the page instead, and which hits the last corner only
   * once the map has drawn it. The result stays editable (vertices draggable).
   */
  finishDrawing(): void {
    const draw = this.draw;
    if (!draw || (draw.getMode() !== 'draw_line_string' && draw.getMode() !== 'draw_polygon')) return;
    // Leaving the drawing mode completes the feature (Draw fires draw.create) or drops an unfinished one.
    draw.changeMode('simple_select');
    const [feature] = draw.getAll().features;
    if (feature?.id !== undefined) draw.changeMode('direct_select', { featureId: String(feature.id) });
  }

  /** Place (or move) a point. */
  startPoint(existing?: Point | null): void {
    const draw = this.ensureDraw();
    draw.deleteAll();
    if (existing) {
      const [id] = draw.add({ type: 'Feature', properties: {}, geometry: existing });
      draw.changeMode('simple_select', { featureIds: id ? [id] : [] });
    } else {
      draw.changeMode('draw_point');
    }
  }

  /**
   * What was drawn: one LineString, a MultiLineString for several, a Point, a Polygon (a
   * MultiPolygon for several), or null. Draw keeps
   * an empty Point (coordinates []) while it waits for the tap: that is nothing drawn yet.
   */
  drawnGeometry(): Geometry | null {
    if (!this.draw) return null;
    const geometries = this.draw.getAll().features.map((f) => f.geometry);
    const isPosition = (p: unknown) => Array.isArray(p) && p.length >= 2 && Number.isFinite(p[0]) && Number.isFinite(p[1]);
    const lines = geometries.filter((g): g is LineString => g.type === 'LineString' && g.coordinates.length >= 2 && g.coordinates.every(isPosition));
    const point = geometries.find((g): g is Point => g.type === 'Point' && isPosition(g.coordinates));
    if (point) return point;
    // Draw keeps a polygon being drawn as a ring closed on the last tap; fewer than three corners is nothing yet.
    const polygons = geometries.filter((g): g is Polygon => g.type === 'Polygon' && (g.coordinates[0]?.length ?? 0) >= 4 && g.coordinates[0]!.every(isPosition));
    if (polygons.length === 1) return polygons[0]!;
    if (polygons.length > 1) return { type: 'MultiPolygon', coordinates: polygons.map((p) => p.coordinates) };
    if (lines.length === 1) return lines[0]!;
    if (lines.length > 1) return { type: 'MultiLineString', coordinates: lines.map((l) => l.coordinates) };
    return null;
  }

  /**
   * Resolves once Mapbox GL Draw listens to the map. Draw connects only when the map reports every
   * tile in view loaded (its setup.js polls map.loaded()); a tap before that is lost, so the
   * drawing tools say "loading" until then. Never resolves after destroy().
   */
  whenDrawReady(): Promise<void> {
    this.ensureDraw();
    const cold = MapboxDraw.constants.sources.COLD;
    return new Promise((resolve) => {
      const check = () => {
        if (this.draw === null) return clearInterval(timer);
        if (this.map.getSource(cold)) {
          clearInterval(timer);
          resolve();
        }
      };
      const timer = setInterval(check, 50);
      check();
    });
  }

  /** Calls `listener` whenever the user creates, changes or deletes a drawn feature; returns the unsubscribe. */
  onDrawChange(listener: () => void): () => void {
    const events = ['draw.create', 'draw.update', 'draw.delete'] as const;
    for (const event of events) this.map.on(event, listener);
    return () => {
      for (const event of events) this.map.off(event, listener);
    };
  }

  stopDrawing(): void {
    if (!this.draw) return;
    this.draw.deleteAll();
    this.draw.changeMode('simple_select');
  }

  destroy(): void {
    for (const marker of this.labels) marker.remove();
    this.labels = [];
    // A drawing tool unmounting after the map (a closing dialog) then finds nothing to stop;
    // Draw's own store is gone with the map, and deleteAll() on it would throw.
    this.draw = null;
    this.map.remove();
  }
}
