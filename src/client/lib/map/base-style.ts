/**
 * Turns a config.json base map entry into a MapLibre style: a style URL is fetched (the own base
 * map falls back to the same style built locally when the fetch fails, so the map starts with no
 * network), a raster template becomes a one-layer raster style. Tile URLs then go through the
 * offline protocol (offline-tiles.ts).
 */
import type { StyleSpecification } from 'maplibre-gl';
import { OWN_BASEMAP, OWN_BASEMAP_ID, ownBaseMapStyle, type BaseMapEntry } from '../../../common/basemap';
import { withOfflineTiles } from './offline-tiles';

export function rasterStyle(basemap: BaseMapEntry): StyleSpecification {
  return {
    version: 8,
    sources: {
      raster: {
        type: 'raster',
        tiles: basemap.tiles ?? [],
        tileSize: 256,
        minzoom: basemap.minZoom ?? 0,
        maxzoom: basemap.maxZoom ?? 19,
        ...(basemap.attribution ? { attribution: basemap.attribution } : {}),
      },
    },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#eef1e4' } },
      { id: 'raster', type: 'raster', source: 'raster' },
    ],
  };
}

export async function loadBaseStyle(basemap: BaseMapEntry = OWN_BASEMAP, fetchImpl: typeof fetch = fetch): Promise<StyleSpecification> {
  let style: StyleSpecification;
  if (basemap.style) {
    try {
      const response = await fetchImpl(basemap.style);
      if (!response.ok) throw new Error(String(response.status));
      style = (await response.json()) as StyleSpecification;
    } catch (error) {
      if (basemap.id !== OWN_BASEMAP_ID) throw error;
      style = ownBaseMapStyle() as unknown as StyleSpecification;
    }
  } else {
    style = rasterStyle(basemap);
  }
  return withOfflineTiles(style);
}

/** The tile URL templates a base map needs stored for offline use (Download screen). */
export function tileTemplates(basemap: BaseMapEntry): string[] {
  return basemap.tiles ?? [];
}
