/**
 * Starts the sign-in session once for the app (AppBootstrap step 2), in the mode config.json
 * names (`auth.mode`: keycloak, basic or none). Waits for the config (or its last good copy
 * offline); without any config it starts in the default keycloak mode.
 *
 * One session per store and mode, even when React runs the effect twice (StrictMode mounts,
 * unmounts and mounts again in development): two sessions would both try to redeem the same
 * authorization code from the login redirect, and the loser would send the browser back to the
 * login page. So a cleanup only stops the session if no mount takes it over within a tick.
 */
import { useEffect } from 'react';
import { useStore } from 'react-redux';
import { useAppSelector } from '../../app/hooks';
import type { AppDispatch, RootState } from '../../app/store-types';
import { selectConfig, selectConfigStatus } from '../../lib/config/config-slice';
import { startAuthSession, type ClientAuthMode } from './auth-session';

interface Running {
  mode: ClientAuthMode;
  stop: () => void;
  users: number;
  pendingStop: ReturnType<typeof setTimeout> | null;
}

const running = new WeakMap<object, Running>();

export function useAuthSession({ skip = false }: { skip?: boolean } = {}): void {
  const store = useStore<RootState>();
  const configReady = useAppSelector(selectConfigStatus) !== 'loading';
  const mode = useAppSelector(selectConfig)?.auth.mode ?? 'keycloak';
  useEffect(() => {
    if (skip || !configReady) return undefined;
    let entry = running.get(store);
    if (entry && entry.mode !== mode) {
      if (entry.pendingStop) clearTimeout(entry.pendingStop);
      entry.stop();
      running.delete(store);
      entry = undefined;
    }
    if (!entry) {
      entry = {
        mode,
        stop: startAuthSession({ mode, dispatch: store.dispatch as AppDispatch, getState: store.getState, subscribe: store.subscribe }),
        users: 0,
        pendingStop: null,
      };
      running.set(store, entry);
    }
    if (entry.pendingStop) {
      clearTimeout(entry.pendingStop);
      entry.pendingStop = null;
    }
    entry.users += 1;
    const current = entry;
    return () => {
      current.users -= 1;
      if (current.users > 0) return;
      current.pendingStop = setTimeout(() => {
        if (current.users > 0 || running.get(store) !== current) return;
        current.stop();
        running.delete(store);
      }, 0);
    };
  }, [store, skip, configReady, mode]);
}
