/**
 * The router with the access the route guards need. The start-up steps (config.json, the sign-in
 * session) run before React's first render (start-up.ts, called by main.tsx), not in effects here.
 */
import type { ReactNode } from 'react';
import { HashRouter } from '../router/router';
import type { CompiledRoute } from '../router/routes';
import { useRouteAccess } from './route-access';

export interface AppBootstrapProps {
  routes: readonly CompiledRoute[];
  children: ReactNode;
}

export function AppBootstrap({ routes, children }: AppBootstrapProps) {
  const access = useRouteAccess();
  return (
    <HashRouter routes={routes} access={access}>
      {children}
    </HashRouter>
  );
}
