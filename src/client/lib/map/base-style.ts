/**
 * Turns a config.json base map entry into a MapLibre style: a style URL is fetched and remembered
 * in localStorage (offline, the remembered copy is used; the own base map falls back to the same
 * style built locally, so the map starts with no network even the first time), a raster template
 * becomes a one-layer raster style. Tile URLs then go through the
 * offline protocol (offline-tiles.ts).
 */
import type { StyleSpecification } from 'maplibre-gl';
import { OWN_BASEMAP, OWN_BASEMAP_ID, ownBaseMapStyle, type BaseMapEntry } from '../../../common/basemap';
import { withOfflineTiles } from './urls';

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

function safeStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled (privacy mode): no cache, still works online
  }
}

export async function loadBaseStyle(basemap: BaseMapEntry = OWN_BASEMAP, fetchImpl: typeof fetch = fetch): Promise<StyleSpecification> {
  let style: StyleSpecification;
  if (basemap.style) {
    const cacheKey = `mt-style:${basemap.style}`;
    try {
      const response = await fetchImpl(basemap.style);
      if (!response.ok) throw new Error(String(response.status));
      style = (await response.json()) as StyleSpecification;
      // Remember the style (a few kB) so the map also starts offline with a configured style.
      safeStorage()?.setItem(cacheKey, JSON.stringify(style));
    } catch (error) {
      const cached = safeStorage()?.getItem(cacheKey);
      if (cached) style = JSON.parse(cached) as StyleSpecification;
      else if (basemap.id === OWN_BASEMAP_ID) style = ownBaseMapStyle() as unknown as StyleSpecification;
      else throw error;
    }
  } else {
    style = rasterStyle(basemap);
  }
  return withOfflineTiles(style);
}
