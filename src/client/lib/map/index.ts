/**
 * lib/map: the MapLibre GL + Mapbox GL Draw wrapper (map-engine.ts), offline tiles
 * (offline-tiles.ts), base styles (base-style.ts) and pure geometry (geo, simplify, tiles,
 * map-items). Pure modules can be imported alone (tests, bench) without pulling maplibre-gl.
 */
export * from './map-engine';
export * from './offline-tiles';
export * from './base-style';
export * from './map-items';
export * from './geo';
export * from './simplify';
export * from './tiles';
