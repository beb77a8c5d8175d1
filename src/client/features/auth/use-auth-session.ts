/** Starts the sign-in session once for the app (AppBootstrap step 2). */
import { useEffect } from 'react';
import { useStore } from 'react-redux';
import type { AppDispatch, RootState } from '../../app/store-types';
import { startAuthSession } from './auth-session';

export function useAuthSession({ skip = false }: { skip?: boolean } = {}): void {
  const store = useStore<RootState>();
  useEffect(() => {
    if (skip) return undefined;
    return startAuthSession({ dispatch: store.dispatch as AppDispatch, getState: store.getState, subscribe: store.subscribe });
  }, [store, skip]);
}
