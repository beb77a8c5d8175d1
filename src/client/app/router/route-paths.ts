/**
 * Every route's address by name. Links are built from here (`routeHref`), and the route table
 * (routes.ts) takes its patterns from here; it lives apart from routes.ts, which loads the
 * screens, so that a screen can link to another without an import cycle.
 */
import { buildHref } from './match';

export const ROUTE_PATHS = {
  home: '/',
  about: '/about',
  results: '/results',
  paths: '/paths',
  'path-new': '/paths/new',
  path: '/paths/{pathId}',
  forms: '/forms',
  form: '/forms/{formId}',
  review: '/review',
  download: '/download',
  'download-new': '/download/new',
  setup: '/setup',
  'setup-seasons': '/setup/seasons',
  'setup-season': '/setup/seasons/{recordId}',
  'setup-farmers': '/setup/farmers',
  'setup-farmer': '/setup/farmers/{recordId}',
  'setup-areas': '/setup/areas',
  'setup-area': '/setup/areas/{recordId}',
  'setup-paths': '/setup/paths',
  'setup-path': '/setup/paths/{recordId}',
  'setup-import': '/setup/import',
  'setup-audit': '/setup/audit',
} as const;

export type RouteName = keyof typeof ROUTE_PATHS;

/** Href of a named route, e.g. routeHref('path', { pathId: 12 }) → '#/paths/12'. */
export function routeHref(name: RouteName, params: Record<string, string | number> = {}): string {
  return buildHref(ROUTE_PATHS[name], params);
}
