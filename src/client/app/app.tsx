/**
 * The whole client for a given store: providers, start-up, router and layout. main.tsx renders it
 * with the real store; tests render it with `makeStore(preloaded)`.
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
  skipStartup?: boolean;
}

export function App({ store, updater = null, routes = appRoutes, skipStartup }: AppProps) {
  return (
    <Provider store={store}>
      <AppUpdaterContext.Provider value={updater}>
        <UnsavedChangesProvider>
          <AppBootstrap routes={routes} skipStartup={skipStartup}>
            <AppLayout />
          </AppBootstrap>
        </UnsavedChangesProvider>
      </AppUpdaterContext.Provider>
    </Provider>
  );
}
