/**
 * features/map — what screens use (app/routes wires them in):
 * - MapView: base map + areas/paths/indicators with labels, legend, farmer filter, position, tap.
 * - WalkRecorderPanel: record a walk for a path, quality summary, save through the outbox (pathsTableRef: its table).
 * - GeometryEditor: draw/correct a path or place an indicator point (Mapbox GL Draw).
 * - LocalLayersPanel: add GeoJSON/GPX/KML files as local layers (shown on every MapView).
 * - recordsToMapItems: turn season rows into MapItems using config.json column ids.
 * - onePathRows: the rows of a map of one path (the path on its meadow).
 */
export { MapView } from './components/app-map-view';
export { WalkRecorderPanel } from './components/walk-recorder-panel';
export { pathsTableRef } from './recording/save-walk';
export { GeometryEditor } from './components/geometry-editor';
export { onePathRows, recordsToMapItems } from './map-items-from-records';
export type { MapEngine } from '../../lib/map/map-engine';
