/**
 * Starts the sign-in session once for the app (AppBootstrap step 2), in the mode config.json
 * names (`auth.mode`: keycloak, basic or none). Waits for the config (or its last good copy
 * offline); without any config it starts in the default keycloak mode.
 */
import { useEffect } from 'react';
import { useStore } from 'react-redux';
import { useAppSelector } from '../../app/hooks';
import type { AppDispatch, RootState } from '../../app/store-types';
import { selectConfig, selectConfigStatus } from '../../lib/config/config-slice';
import { startAuthSession } from './auth-session';

export function useAuthSession({ skip = false }: { skip?: boolean } = {}): void {
  const store = useStore<RootState>();
  const configReady = useAppSelector(selectConfigStatus) !== 'loading';
  const mode = useAppSelector(selectConfig)?.auth.mode ?? 'keycloak';
  useEffect(() => {
    if (skip || !configReady) return undefined;
    return startAuthSession({ mode, dispatch: store.dispatch as AppDispatch, getState: store.getState, subscribe: store.subscribe });
  }, [store, skip, configReady, mode]);
}
