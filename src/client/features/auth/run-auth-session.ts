/**
 * Runs the app's sign-in session for a store, in the mode config.json names (`auth.mode`:
 * keycloak, basic or none), from the moment the config (or its last good copy offline) is known;
 * without any config it starts in the default keycloak mode. When the config names another mode,
 * the session stops and one in the new mode starts. Called once, as the app starts
 * (app/bootstrap/start-up.ts), so one store never has two sessions: two would both try to redeem
 * the same authorization code from the login redirect, and the loser would send the browser back
 * to the login page.
 */
import type { AppDispatch, RootState } from '../../app/store-types';
import { selectConfig, selectConfigStatus } from '../../lib/config/config-slice';
import { startAuthSession, type ClientAuthMode } from './auth-session';

export interface AuthSessionStore {
  dispatch: AppDispatch;
  getState: () => RootState;
  subscribe: (listener: () => void) => () => void;
}

/** Starts following the config; returns the function that stops the session. */
export function runAuthSession(store: AuthSessionStore): () => void {
  let current: { mode: ClientAuthMode; stop: () => void } | null = null;
  let stopped = false;
  const follow = () => {
    const state = store.getState();
    if (stopped || selectConfigStatus(state) === 'loading') return;
    const mode = selectConfig(state)?.auth.mode ?? 'keycloak';
    if (current?.mode === mode) return;
    current?.stop();
    // Recorded before it starts: starting dispatches, and the store calls `follow` again meanwhile.
    const entry = { mode, stop: () => undefined as void };
    current = entry;
    entry.stop = startAuthSession({ mode, dispatch: store.dispatch, getState: store.getState, subscribe: store.subscribe });
  };
  const unsubscribe = store.subscribe(follow);
  follow();
  return () => {
    stopped = true;
    unsubscribe();
    current?.stop();
    current = null;
  };
}
