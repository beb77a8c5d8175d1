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
import type { Point } from 'geojson';
import maplibregl, { type GeoJSONSource, type LngLatBoundsLike, type Map as MlMap, type StyleSpecification } from 'maplibre-gl';
import { slPhone } from '../../../common/i18n/sl';
import type { Extent } from '../../../common/schemas/wire';
import { MapDrawing } from './map-drawing';
import { circlePolygon, extentOf, filterByFarmer, labelPoint, toFeatureCollection, type LocalOverlay, type MapItem, type MapItemKind } from './map-items';
import { CLICKABLE_LAYERS, SOURCES, addFeatureLayers, addLocalOverlay, emptyCollection, localOverlayIds } from './map-style';

const LABEL_MIN_ZOOM = 13;
const LABEL_LIMIT = 150;
/** Touch tolerance around a tap (px): fingers are not mouse pointers. */
const TAP_TOLERANCE_PX = 10;

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

export class MapEngine {
  readonly map: MlMap;
  private items: MapItem[] = [];
  private farmerId: number | null = null;
  private labels: maplibregl.Marker[] = [];
  private loaded: Promise<void>;
  private overlayIds: number[] = [];
  private clickHandler: MapEngineOptions['onFeatureClick'];
  /** Drawing and correcting geometry (Mapbox GL Draw), made on first use. */
  readonly drawing: MapDrawing;

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
    this.drawing = new MapDrawing(this.map);
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
    addFeatureLayers(this.map);
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
      const { layers, source } = localOverlayIds(id);
      for (const layer of layers) if (this.map.getLayer(layer)) this.map.removeLayer(layer);
      if (this.map.getSource(source)) this.map.removeSource(source);
    }
    this.overlayIds = overlays.map((o) => o.id);
    for (const overlay of overlays) addLocalOverlay(this.map, overlay);
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
    if (!this.clickHandler || this.drawing.isDrawing()) return;
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

  destroy(): void {
    for (const marker of this.labels) marker.remove();
    this.labels = [];
    // A drawing tool unmounting after the map (a closing dialog) then finds nothing to stop.
    this.drawing.detach();
    this.map.remove();
  }
}
