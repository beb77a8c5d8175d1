/**
 * Browser entry: one store, its start-up, the app, and the service worker. Everything else is
 * built by functions that tests call with their own instances (app.tsx, store.ts, start-up.ts).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app/styles/index.css';
import { App, appRoutes } from './app/app';
import { earlyDb } from './app/bootstrap/early-db';
import { earlyFetch, installedVisit } from './app/bootstrap/early-fetch';
import { startApp } from './app/bootstrap/start-up';
import { whenFirstScreenShown } from './app/bootstrap/first-screen';
import { FIRST_SCREEN_WAIT_MS } from '../common/constants';
import { safeLocalStorage } from './lib/local-storage';
import { APP_ROOT_ID } from './lib/home-snapshot';
import { makeStore } from './app/store';
import { parseHash, matchRoute } from './app/router/match';
import { preloadScreen } from './app/router/screen-loaders';
import { createBrowserAppUpdater, type AppUpdater } from './features/app-update';
import type { RouteName } from './lib/links';
import { whenIdle } from './lib/idle';

// The first screen's code (the HTML preloads home's), asked for before the store and the app
// start: it is there by React's first render, which then shows the screen itself instead of
// suspending for it (router/routes.ts, loadedScreen).
const firstMatch = matchRoute(appRoutes, parseHash(window.location.hash).path);
if (firstMatch) preloadScreen(firstMatch.route.Screen);

// browser: persistence, window events, Web Locks, and the sync loop (store.ts). The offline
// database is the one the `early` entry began opening while the scripts downloaded
// (app/bootstrap/early-db.ts).
const store = makeStore(undefined, { browser: true, extra: { db: earlyDb, api: { fetchFn: earlyFetch }, installedVisit } });
// config.json and the sign-in session before React's first render: the season's first requests
// (which wait for both) then travel while React renders.
startApp(store, { fetch: earlyFetch, storage: safeLocalStorage() });
const container = document.getElementById(APP_ROOT_ID);
if (!container) throw new Error(`#${APP_ROOT_ID} is missing from index.html`);
const root = createRoot(container);

function render(updater: AppUpdater | null) {
  root.render(
    <StrictMode>
      <App store={store} updater={updater} />
    </StrictMode>,
  );
}

render(null);

// An installed app (its code in the service worker's cache, no network): once the page has
// loaded and is idle, the code of the field's next screens — a path, its forms, a form — is
// loaded too, so a tap shows them without waiting for it. A first visit over the network skips
// this (its bandwidth goes to the first screen's data).
const FIELD_SCREENS: ReadonlySet<RouteName> = new Set(['path', 'forms', 'form']);
if (installedVisit) {
  window.addEventListener('load', () => {
    const preloadFieldScreens = () => {
      for (const route of appRoutes) if (FIELD_SCREENS.has(route.name)) preloadScreen(route.Screen);
    };
    whenIdle(preloadFieldScreens, 5_000);
  });
}

// The service worker only in production builds: in development it would serve stale chunks. A
// first visit installs it once the first screen has its season: the install fetches and stores
// every file of the app (about 2.4 MB), work that competed with the season's first read for a
// phone's CPU and network.
if (process.env.NODE_ENV === 'production') {
  window.addEventListener('load', async () => {
    if (!installedVisit) await whenFirstScreenShown(store, FIRST_SCREEN_WAIT_MS);
    void createBrowserAppUpdater(store.dispatch)
      .then(async (updater) => {
        if (!updater) return;
        render(updater);
        await updater.start();
      })
      .catch((error: unknown) => console.error('service worker registration failed', error));
  });
}
