/**
 * Every screen's address by name, and the one way to build a link to it: `routeHref('path',
 * { pathId: 12 })` → '#/paths/12'. A route's parameters are typed from its pattern, so a missing
 * or misspelt parameter is a compile error. The route table (app/router/routes.ts) takes its
 * patterns from here; it lives below the features so that a feature's screen links to another
 * screen without knowing the router (lint allows no hand-built `#/` link in the client).
 */

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

/** The parameter names of a pattern: '/paths/{pathId}' → 'pathId'. */
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;
/** What a route's link needs: its parameters (none for a route without any). */
export type RouteParams<N extends RouteName> = [ParamNames<(typeof ROUTE_PATHS)[N]>] extends [never]
  ? Record<string, never>
  : Record<ParamNames<(typeof ROUTE_PATHS)[N]>, string | number>;
/** The routes whose one parameter is `P` (the set-up editors' `recordId`). */
export type RouteWithParam<P extends string> = {
  [N in RouteName]: [ParamNames<(typeof ROUTE_PATHS)[N]>] extends [never] ? never : ParamNames<(typeof ROUTE_PATHS)[N]> extends P ? N : never;
}[RouteName];
/** The routes without a parameter (lists, hubs). */
export type RouteWithoutParams = { [N in RouteName]: [ParamNames<(typeof ROUTE_PATHS)[N]>] extends [never] ? N : never }[RouteName];
type Query = Record<string, string | number>;

/** Builds a hash href ('#/paths/12') from a pattern, encoding each parameter. */
export function buildHref(pattern: string, params: Record<string, string | number> = {}, query?: Query): string {
  const path = pattern.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`buildHref: missing parameter ${name} for ${pattern}`);
    return encodeURIComponent(String(value));
  });
  const search = query ? new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString() : '';
  return `#${path}${search ? `?${search}` : ''}`;
}

/** The link of a named route: routeHref('form', { formId: 5 }) → '#/forms/5'; routeHref('path-new', {}, { area: 3 }) → '#/paths/new?area=3'. */
export function routeHref<N extends RouteName>(
  name: N,
  ...[params, query]: [RouteParams<N>] extends [Record<string, never>] ? [params?: RouteParams<N>, query?: Query] : [params: RouteParams<N>, query?: Query]
): string {
  return buildHref(ROUTE_PATHS[name], params as Record<string, string | number> | undefined, query);
}
