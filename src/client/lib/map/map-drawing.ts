/**
 * Drawing and correcting geometry on the map with @mapbox/mapbox-gl-draw: lines (transects),
 * outlines (meadows) and points, their vertices draggable and deletable with a finger. Created
 * by MapEngine, which keeps one per map (`engine.drawing`).
 */
import MapboxDraw from '@mapbox/mapbox-gl-draw';
import type { Geometry, LineString, MultiLineString, MultiPolygon, Point, Polygon } from 'geojson';
import type { IControl, Map as MlMap } from 'maplibre-gl';
import { directSelectKeepingTheTap } from './draw-direct-select';
import { DRAW_STYLES } from './map-style';

export class MapDrawing {
  private draw: MapboxDraw | null = null;
  /** The map has gone (`detach`): a drawing tool whose effect runs late draws nothing on it. */
  private detached = false;

  constructor(private readonly map: MlMap) {}

  /** Whether a drawing mode holds the map's taps (then they do not select features). */
  isDrawing(): boolean {
    return this.draw !== null && this.draw.getMode() !== 'simple_select';
  }

  private ensureDraw(): MapboxDraw | null {
    if (this.detached) return null;
    if (!this.draw) {
      // Draw looks for mapbox-gl class names; MapLibre uses maplibregl-*.
      const classes = MapboxDraw.constants.classes;
      classes.CANVAS = 'maplibregl-canvas';
      classes.CONTROL_BASE = 'maplibregl-ctrl';
      classes.CONTROL_PREFIX = 'maplibregl-ctrl-';
      classes.CONTROL_GROUP = 'maplibregl-ctrl-group';
      classes.ATTRIBUTION = 'maplibregl-ctrl-attrib';
      this.draw = new MapboxDraw({
        displayControlsDefault: false,
        touchBuffer: 25,
        clickBuffer: 4,
        styles: DRAW_STYLES,
        // A tap on a vertex never drops the correction (draw-direct-select.ts).
        modes: { ...MapboxDraw.modes, direct_select: directSelectKeepingTheTap(MapboxDraw.modes.direct_select!) },
      });
      this.map.addControl(this.draw as unknown as IControl);
    }
    return this.draw;
  }

  /** Start drawing a new line (tap vertices, double-tap the last). */
  startLine(): void {
    const draw = this.ensureDraw();
    if (!draw) return;
    draw.deleteAll();
    draw.changeMode('draw_line_string');
  }

  /** Edit an existing line: its vertices become draggable. */
  editLine(geometry: LineString | MultiLineString): void {
    const draw = this.ensureDraw();
    if (!draw) return;
    draw.deleteAll();
    const lines = geometry.type === 'LineString' ? [geometry] : geometry.coordinates.map((coordinates) => ({ type: 'LineString' as const, coordinates }));
    const ids = lines.flatMap((line) => draw.add({ type: 'Feature', properties: {}, geometry: line }));
    if (ids[0]) draw.changeMode('direct_select', { featureId: ids[0] });
  }

  /** Start drawing a new polygon (tap the corners, double-tap the last). */
  startPolygon(): void {
    const draw = this.ensureDraw();
    if (!draw) return;
    draw.deleteAll();
    draw.changeMode('draw_polygon');
  }

  /** Edit an existing polygon (the outer ring of a MultiPolygon's parts): its vertices become draggable. */
  editPolygon(geometry: Polygon | MultiPolygon): void {
    const draw = this.ensureDraw();
    if (!draw) return;
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
    if (!draw) return;
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
    const polygons = geometries.filter(
      (g): g is Polygon => g.type === 'Polygon' && (g.coordinates[0]?.length ?? 0) >= 4 && g.coordinates[0]!.every(isPosition),
    );
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
    if (!this.ensureDraw()) return new Promise<void>(() => undefined);
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

  /** How many vertices of the feature being corrected are selected (tapped): what "delete the point" would delete. */
  selectedVertexCount(): number {
    return this.draw?.getSelectedPoints().features.length ?? 0;
  }

  /** Calls `listener` whenever the selected features or vertices change; returns the unsubscribe. */
  onSelectionChange(listener: () => void): () => void {
    this.map.on('draw.selectionchange', listener);
    return () => {
      this.map.off('draw.selectionchange', listener);
    };
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

  /** The map is going away: Draw's store goes with it (deleteAll() on it would throw), and nothing is drawn on it again. */
  detach(): void {
    this.draw = null;
    this.detached = true;
  }
}
