/**
 * makeStore builds a fresh store; nothing is created on import, so tests build their own
 * (CONVENTIONS: makeStore(preloadedState)). The app's single store is made in main.tsx.
 */
import { configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { rootReducer, type RootState } from './root-reducer';

export function makeStore(preloadedState?: Partial<RootState>) {
  const listener = createListenerMiddleware();
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: preloadedState as RootState | undefined,
    middleware: (getDefault) => getDefault().prepend(listener.middleware),
  });
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
export type { RootState };
