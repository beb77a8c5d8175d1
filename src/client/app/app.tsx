/**
 * The whole client for a given store: providers, router and layout. main.tsx starts the app
 * (bootstrap/start-up.ts) and renders it with the real store; tests render it with
 * `makeStore(preloaded)`.
 */
import { Provider } from 'react-redux';
import { UnsavedChangesProvider } from '../components/confirm-leave/unsaved-changes';
import { AppUpdaterContext, type AppUpdater } from '../features/app-update';
import { AppBootstrap } from './bootstrap/app-bootstrap';
import { AppLayout } from './layout/app-layout';
import { compileRoutes, routeDefinitions, type CompiledRoute } from './router/routes';
import type { AppStore } from './store';

/** Compiled once for the app; tests may pass their own table. */
export const appRoutes: readonly CompiledRoute[] = compileRoutes(routeDefinitions);

export interface AppProps {
  store: AppStore;
  updater?: AppUpdater | null;
  routes?: readonly CompiledRoute[];
}

export function App({ store, updater = null, routes = appRoutes }: AppProps) {
  return (
    <Provider store={store}>
      <AppUpdaterContext.Provider value={updater}>
        <UnsavedChangesProvider>
          <AppBootstrap routes={routes}>
            <AppLayout />
          </AppBootstrap>
        </UnsavedChangesProvider>
      </AppUpdaterContext.Provider>
    </Provider>
  );
}
