/** Test helpers for the client shell: a fresh store and app per test, the hash set first. */
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { App } from '../../src/client/app/app';
import { makeStore } from '../../src/client/app/store';
import type { RootState } from '../../src/client/app/root-reducer';
import { UnsavedChangesProvider } from '../../src/client/components/confirm-leave/unsaved-changes';
import { HashRouter, RouteOutlet } from '../../src/client/app/router/router';
import { compileRoutes, routeDefinitions, type CompiledRoute, type ScreenProps } from '../../src/client/app/router/routes';
import { Page } from '../../src/client/components/page/page';
import { UNKNOWN_ACCESS, type RouteAccess } from '../../src/client/app/router/guards';
import type { AppUpdater } from '../../src/client/features/app-update/app-updater';
import type { OfflineDb } from '../../src/client/lib/db/database';

// jsdom does not implement scrolling; the router scrolls to the top after a screen change.
window.scrollTo = () => undefined;

export function setHash(hash: string): void {
  window.history.replaceState(null, '', hash);
}

/**
 * The app's route table (patterns, titles, guards, lazy loading) with each screen replaced by a
 * page that shows the route's name and parameters: router and layout tests then do not depend on
 * what the screens contain. The real screens are checked in Chromium (test/e2e).
 */
function stubRoutes(): CompiledRoute[] {
  return compileRoutes(
    routeDefinitions.map((def) => ({
      ...def,
      load: async () => ({
        default: ({ params, query }: ScreenProps) => (
          <Page title={def.title}>
            <p data-testid="screen">{`${def.name} ${JSON.stringify(params)} ${JSON.stringify(query)}`}</p>
          </Page>
        ),
      }),
    })),
  );
}

export function renderApp({
  hash = '#/',
  preloaded,
  updater = null,
  routes = stubRoutes(),
}: {
  hash?: string;
  preloaded?: Partial<RootState>;
  updater?: AppUpdater | null;
  /** Defaults to stubRoutes(); pass appRoutes to render the real screens. */
  routes?: readonly CompiledRoute[];
} = {}) {
  setHash(hash);
  const store = makeStore(preloaded);
  const utils = render(<App store={store} updater={updater} routes={routes} />);
  return { store, ...utils };
}

/**
 * Router alone with a given table and access, for guard, loading and record-id tests; over the
 * given device database (`db`) and store state when a screen needs them.
 */
export function renderRouter({
  hash = '#/',
  routes,
  access = UNKNOWN_ACCESS,
  extra,
  db,
  preloaded,
}: {
  hash?: string;
  routes: readonly CompiledRoute[];
  access?: RouteAccess;
  extra?: ReactNode;
  db?: OfflineDb;
  preloaded?: Partial<RootState>;
}) {
  setHash(hash);
  const store = makeStore(preloaded, db ? { extra: { db } } : undefined);
  const utils = render(
    <Provider store={store}>
      <UnsavedChangesProvider>
        <HashRouter routes={routes} access={access}>
          {extra}
          <main id="main" tabIndex={-1}>
            <RouteOutlet />
          </main>
        </HashRouter>
      </UnsavedChangesProvider>
    </Provider>,
  );
  return { store, ...utils };
}
