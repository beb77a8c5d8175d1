/**
 * The project's own base map (docs/maps.md): vector tiles cut by our server from Natural Earth data
 * shipped in the `world-atlas` npm package (country land and borders at 1:10m) plus a generated
 * 0.1°/0.01° grid over Slovenia, so the map works on a machine with no internet at all.
 *
 * The style has no text layers on purpose: MapLibre draws symbol text only from SDF glyph PBFs,
 * normally fetched from a font server. Rather than ship a glyph set, map labels are HTML markers
 * drawn with the system font (src/client/lib/map), which also keeps §7a's "nothing loaded from the
 * internet". This module is shared so the server answers /basemap/style.json and the client can
 * rebuild the same style offline when that request fails.
 */
import type { BaseMapConfig } from './schemas/config';

/**
 * A base map entry of config.json with two optional members the map code reads (compatible with
 * BaseMapConfig): `kind` says what `tiles` holds — 'raster' (default when there is no style:
 * PNG/JPEG, e.g. an orthophoto) or 'vector' (the Mapbox Vector Tiles of `style`, so the Download
 * screen can store them); `tileBytes` is the average tile size for the download estimate.
 */
export interface BaseMapEntry extends BaseMapConfig {
  kind?: 'raster' | 'vector';
  tileBytes?: number;
}

export const OWN_BASEMAP_ID = 'moj-travnik';
export const OWN_BASEMAP_STYLE_PATH = '/basemap/style.json';
export const OWN_BASEMAP_TILES_PATH = '/basemap/tiles/{z}/{x}/{y}.pbf';
/** Highest zoom the server cuts; MapLibre over-zooms beyond it (1:10m data has no more detail). */
export const OWN_BASEMAP_MAX_ZOOM = 10;
const OWN_BASEMAP_SOURCE = 'basemap';
const OWN_BASEMAP_ATTRIBUTION = 'Natural Earth';

/** The entry of config.json → basemaps for the own base map (the config.json route puts it first). */
export const OWN_BASEMAP: BaseMapEntry = {
  id: OWN_BASEMAP_ID,
  name: 'Osnovna karta (deluje brez interneta)',
  style: OWN_BASEMAP_STYLE_PATH,
  tiles: [OWN_BASEMAP_TILES_PATH],
  kind: 'vector',
  minZoom: 0,
  maxZoom: OWN_BASEMAP_MAX_ZOOM,
  attribution: OWN_BASEMAP_ATTRIBUTION,
  // Measured: a Goričko download z6–z12 averaged ~6 kB per tile (country outlines dominate).
  tileBytes: 6_144,
};

/** Meadow palette (docs/architecture.md, Look and feel), shared by the base style and the feature layers. */
const MAP_COLORS = {
  water: '#b9d7e8',
  land: '#eef1e4',
  home: '#e3ebd2',
  border: '#7a6f63',
  grid: '#c9cfbd',
} as const;

/** A MapLibre style object (kept structural so src/common needs no maplibre types). */
export interface BaseStyle {
  version: 8;
  name: string;
  sources: Record<string, unknown>;
  layers: Array<Record<string, unknown>>;
}

/** The own base map's style; `tilesUrl` is the tile template (relative or absolute). */
export function ownBaseMapStyle(tilesUrl: string = OWN_BASEMAP_TILES_PATH): BaseStyle {
  return {
    version: 8,
    name: OWN_BASEMAP.name,
    sources: {
      [OWN_BASEMAP_SOURCE]: {
        type: 'vector',
        tiles: [tilesUrl],
        minzoom: 0,
        maxzoom: OWN_BASEMAP_MAX_ZOOM,
        attribution: OWN_BASEMAP_ATTRIBUTION,
      },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': MAP_COLORS.water } },
      { id: 'land', type: 'fill', source: OWN_BASEMAP_SOURCE, 'source-layer': 'land', paint: { 'fill-color': MAP_COLORS.land } },
      {
        id: 'home-country',
        type: 'fill',
        source: OWN_BASEMAP_SOURCE,
        'source-layer': 'land',
        filter: ['==', ['get', 'name'], 'Slovenia'],
        paint: { 'fill-color': MAP_COLORS.home },
      },
      {
        id: 'grid-minor',
        type: 'line',
        source: OWN_BASEMAP_SOURCE,
        'source-layer': 'grid',
        minzoom: 11,
        filter: ['==', ['get', 'major'], false],
        paint: { 'line-color': MAP_COLORS.grid, 'line-width': 0.5, 'line-dasharray': [4, 4] },
      },
      {
        id: 'grid-major',
        type: 'line',
        source: OWN_BASEMAP_SOURCE,
        'source-layer': 'grid',
        minzoom: 7,
        filter: ['==', ['get', 'major'], true],
        paint: { 'line-color': MAP_COLORS.grid, 'line-width': 1 },
      },
      {
        id: 'borders',
        type: 'line',
        source: OWN_BASEMAP_SOURCE,
        'source-layer': 'borders',
        paint: { 'line-color': MAP_COLORS.border, 'line-width': ['interpolate', ['linear'], ['zoom'], 4, 0.6, 10, 2], 'line-dasharray': [3, 2] },
      },
    ],
  };
}
