/**
 * Offline tiles for MapLibre (docs/maps.md, Offline tiles). Every tile URL of a base map style is rewritten to
 * the custom protocol `mtoffline://<absolute url>`; its handler (MapLibre `addProtocol`, which
 * also serves requests made by MapLibre's workers) does:
 *   online  → fetch the URL; if that fails, fall back to the device copy;
 *   offline → read the device copy (Dexie baseMapTiles/rasters, stored by the Download screen).
 * A tile found nowhere is answered empty (vector) or as an error (raster) and reported to
 * `onMissingTile` listeners, so the map can say honestly that this part was not downloaded.
 *
 * We chose addProtocol over a service-worker tile cache because downloads are explicit, per
 * extent and deletable (the list screen), which a Workbox runtime cache cannot express, and
 * because it works the same on the very first offline start. The lookup is injected: lib/map
 * does not know the database (features pass a function that reads lib/db).
 */
import maplibregl from 'maplibre-gl';
import { OFFLINE_PROTOCOL } from './urls';

/** How long a tile may take from the network before the stored copy answers instead. */
const NETWORK_TIMEOUT_MS = 8_000;
const PREFIX = `${OFFLINE_PROTOCOL}://`;

/** Returns the stored bytes of a tile by its absolute URL, or undefined. */
export type TileLookup = (url: string) => Promise<ArrayBuffer | undefined>;

let lookup: TileLookup = async () => undefined;
let registered = false;
const missingListeners = new Set<(url: string) => void>();

/** Set (or replace) the device lookup and register the protocol once per page. */
export function registerOfflineTiles(tileLookup: TileLookup, isOnline: () => boolean = () => navigator.onLine): void {
  lookup = tileLookup;
  if (registered) return;
  registered = true;
  maplibregl.addProtocol(OFFLINE_PROTOCOL, async (params, abortController) => {
    const url = params.url.slice(PREFIX.length);
    const isVector = params.type === 'arrayBuffer' && /\.(pbf|mvt)(\?|$)/.test(url);
    if (isOnline()) {
      // "Online" in the field often means one bar that carries nothing: give the network
      // NETWORK_TIMEOUT_MS, then answer from the device.
      const attempt = new AbortController();
      const onAbort = () => attempt.abort();
      abortController.signal.addEventListener('abort', onAbort);
      const timer = setTimeout(() => attempt.abort(), NETWORK_TIMEOUT_MS);
      try {
        const response = await fetch(url, { signal: attempt.signal });
        if (response.ok) return { data: await response.arrayBuffer() };
      } catch (error) {
        if (abortController.signal.aborted) throw error;
      } finally {
        clearTimeout(timer);
        abortController.signal.removeEventListener('abort', onAbort);
      }
    }
    const stored = await lookup(url);
    if (stored) return { data: stored };
    for (const listener of missingListeners) listener(url);
    if (isVector) return { data: new ArrayBuffer(0) };
    throw new Error(`tile not available offline: ${url}`);
  });
}

export function onMissingTile(listener: (url: string) => void): () => void {
  missingListeners.add(listener);
  return () => missingListeners.delete(listener);
}
