/// <reference lib="webworker" />
/**
 * The service worker, built by workbox-webpack-plugin (InjectManifest) into dist/sw.js.
 *
 * Guarantees:
 * - the app shell (index.html, runtime, framework, main, CSS, icons, manifest) and every code
 *   chunk, lazy screens included, are precached at install, so after one visit the app opens
 *   with no network;
 * - a navigation to the app ('/' or '/index.html', with any query) is answered with the precached
 *   index.html; other navigations (the identity provider's login pages, /api) go to the network;
 * - /config.json and /keycloak.json are network-first with the last good copy as the fallback, so
 *   an offline start still knows its configuration;
 * - a new version waits until the page sends {type: 'SKIP_WAITING'} (the 'Obvestilo' dialog), so
 *   a running page is never switched to new code under its feet.
 * Map tiles are not cached here: downloads are explicit per area and live in Dexie, served to
 * MapLibre by its offline protocol (lib/map/offline-tiles.ts explains the choice).
 * API calls are not cached here: offline data lives in IndexedDB (lib/db).
 */
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

/** Cache names outside the precache (the precache manages its own). */
export const CONFIG_CACHE = 'moj-travnik-config';

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    // Workbox matches pathname + search. The app is a hash router, so its only page is '/'.
    allowlist: [/^\/(?:index\.html)?(?:\?.*)?$/],
  }),
);

registerRoute(
  ({ url, request }) =>
    request.method === 'GET' && url.origin === self.location.origin && (url.pathname === '/config.json' || url.pathname === '/keycloak.json'),
  new NetworkFirst({
    cacheName: CONFIG_CACHE,
    // A field phone with one bar of signal: fall back to the cached copy rather than wait long.
    networkTimeoutSeconds: 5,
    plugins: [new ExpirationPlugin({ maxEntries: 8 })],
  }),
);

self.addEventListener('message', (event) => {
  if (event.data && (event.data as { type?: unknown }).type === 'SKIP_WAITING') {
    void self.skipWaiting();
  }
});

// Take control of pages opened before the first install, so the first visit is already served
// (and its chunks cached) by this worker. Updates still wait for SKIP_WAITING above.
clientsClaim();
