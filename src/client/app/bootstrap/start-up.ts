/**
 * Start-up work done once per app, before React's first render (main.tsx), so that the season's
 * first requests leave while React renders instead of after its first effects: load config.json
 * (the device's last good copy first) and start the sign-in session. The season loads as soon as
 * both the config and the signed-in user are known (the store's listener, app/store.ts).
 *
 * The first screen renders at once; screens show 'Nalagam...' for data that is not there yet, so
 * a slow or missing server never leaves the user at a blank page.
 */
import { configLoaded } from '../../lib/config/config-slice';
import { loadConfig, readLastGoodConfig } from '../../lib/config/load-config';
import { runAuthSession } from '../../features/auth';
import type { AppStore } from '../store';

export interface StartUpDeps {
  fetch: typeof fetch;
  /** Where the last good config.json is kept; null when the browser blocks storage. */
  storage: Storage | null;
}

/** Starts the app's start-up steps; returns the function that stops what keeps running. */
export function startApp(store: AppStore, { fetch, storage }: StartUpDeps): () => void {
  // Step 1: configuration. The device's last good copy first, so the screens read the device
  // database at once (an online start is never slower than an offline one); the server's copy
  // follows and replaces it only when it differs (the same object otherwise, so nothing reloads).
  let stopped = false;
  const saved = readLastGoodConfig(storage);
  if (saved) store.dispatch(configLoaded({ config: saved, source: 'last-good' }));
  void loadConfig({ fetch, storage }).then((result) => {
    if (stopped) return;
    const unchanged = saved !== null && result.config !== null && JSON.stringify(result.config) === JSON.stringify(saved);
    store.dispatch(configLoaded(unchanged ? { config: saved, source: result.source } : result));
  });

  // Step 2: identity — the sign-in session in the mode the config names (features/auth).
  const stopSession = runAuthSession(store);
  return () => {
    stopped = true;
    stopSession();
  };
}
