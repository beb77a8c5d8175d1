/**
 * Start-up work that has to happen once per app instance, before or beside the first screen:
 * load config.json (falls back to the last good copy), the identity client and the loading
 * chain. Each step is a clearly named effect here, so a new start-up step is added beside them
 * without touching the rest of the shell.
 *
 * The first screen renders at once; screens show 'Nalagam...' for data that is not there yet,
 * so a slow or missing server never leaves the user at a blank page.
 */
import { useEffect, type ReactNode } from 'react';
import { useAppDispatch } from '../hooks';
import { configLoaded } from '../../lib/config/config-slice';
import { loadConfig, readLastGoodConfig } from '../../lib/config/load-config';
import { HashRouter } from '../router/router';
import type { CompiledRoute } from '../router/routes';
import { useRouteAccess } from './route-access';
import { useAuthSession } from '../../features/auth';

export interface AppBootstrapProps {
  routes: readonly CompiledRoute[];
  children: ReactNode;
  /** Test seam: skip network start-up steps (tests preload the store instead). */
  skipStartup?: boolean;
}

export function AppBootstrap({ routes, children, skipStartup = false }: AppBootstrapProps) {
  const dispatch = useAppDispatch();

  // Step 1: configuration. The device's last good copy first, so the screens read the device
  // database at once (an online start is never slower than an offline one); the server's copy
  // follows and replaces it only when it differs (the same object otherwise, so nothing reloads).
  useEffect(() => {
    if (skipStartup) return undefined;
    let cancelled = false;
    const storage = safeLocalStorage();
    const saved = readLastGoodConfig(storage);
    if (saved) dispatch(configLoaded({ config: saved, source: 'last-good' }));
    void loadConfig({ fetch: window.fetch.bind(window), storage }).then((result) => {
      if (cancelled) return;
      const unchanged = saved !== null && result.config !== null && JSON.stringify(result.config) === JSON.stringify(saved);
      dispatch(configLoaded(unchanged ? { config: saved, source: result.source } : result));
    });
    return () => {
      cancelled = true;
    };
  }, [dispatch, skipStartup]);

  // Step 2: identity — keycloak-js session (login-required, token refresh, offline identity).
  useAuthSession({ skip: skipStartup });
  // Step 3: data — start connectivity probing, outbox drain and the loading chain here.

  const access = useRouteAccess();
  return (
    <HashRouter routes={routes} access={access}>
      {children}
    </HashRouter>
  );
}

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // blocked storage (privacy settings): no last-good copy, nothing else breaks
  }
}
