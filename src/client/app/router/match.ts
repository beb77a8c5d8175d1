/**
 * Hash routing without a library: '#/paths/12?tab=forms' → path '/paths/12' and query
 * {tab: 'forms'}; patterns name their parameters in braces ('/paths/{pathId}'), which are
 * URL-decoded. Pure functions, so they are tested without a browser.
 */

import type { CompiledRoute, RouteMatch } from './routes';

export type Query = Readonly<Record<string, string | string[]>>;
export type Params = Readonly<Record<string, string>>;

export interface Location {
  /** Normalised path: leading slash, no trailing slash, no empty segments ('/' for home). */
  path: string;
  query: Query;
  /** The raw query string without '?', '' when absent. */
  search: string;
  /** path + ('?' + search): what goes after '#'. */
  href: string;
}

/**
 * Parameters an OpenID Connect provider appends to the redirect address. keycloak-js (fragment
 * response mode) adds them to the hash — '#/paths/3&state=…&code=…' or '#state=…' — and removes
 * them with history.replaceState (no hashchange) once it has read them; the router ignores them
 * so the first screen is the right one and not "not found".
 */
const CALLBACK_PARAMS = new Set(['state', 'session_state', 'code', 'iss', 'error', 'error_description', 'error_uri', 'kc_action_status']);

/** Parses `location.hash` ('#/a/b?x=1'); '' and '#' mean home. */
export function parseHash(hash: string): Location {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  const q = raw.indexOf('?');
  let rawPath = q === -1 ? raw : raw.slice(0, q);
  let search = q === -1 ? '' : raw.slice(q + 1);
  // Our hrefs never hold a raw '&' or '=' in the path (buildHref encodes them): what follows is a
  // sign-in callback, not part of the route.
  const amp = rawPath.indexOf('&');
  if (amp !== -1) rawPath = rawPath.slice(0, amp);
  if (rawPath.includes('=')) rawPath = '/';
  if (search && [...new URLSearchParams(search).keys()].some((key) => CALLBACK_PARAMS.has(key))) {
    const kept = new URLSearchParams([...new URLSearchParams(search)].filter(([key]) => !CALLBACK_PARAMS.has(key)));
    search = kept.toString();
  }
  const path = normalisePath(rawPath);
  return { path, query: parseQuery(search), search, href: search ? `${path}?${search}` : path };
}

function normalisePath(path: string): string {
  const segments = path.split('/').filter((s) => s !== '');
  return `/${segments.join('/')}`;
}

/** Repeated keys become arrays (the shared encoder of src/common writes arrays that way). */
function parseQuery(search: string): Query {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const prev = out[key];
    if (prev === undefined) out[key] = value;
    else out[key] = Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/** A single value of a query key (the first when repeated). */
export function queryValue(query: Query, key: string): string | undefined {
  const v = query[key];
  return Array.isArray(v) ? v[0] : v;
}

export interface CompiledPattern {
  pattern: string;
  segments: Array<{ literal: string } | { param: string }>;
}

export function compilePattern(pattern: string): CompiledPattern {
  const segments = normalisePath(pattern)
    .split('/')
    .filter(Boolean)
    .map((s) => {
      const m = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(s);
      return m ? { param: m[1]! } : { literal: s };
    });
  return { pattern, segments };
}

/** Matches a normalised path; null when it does not match or a parameter is badly encoded. */
export function matchPattern(compiled: CompiledPattern, path: string): Params | null {
  const parts = path.split('/').filter(Boolean);
  if (parts.length !== compiled.segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i += 1) {
    const seg = compiled.segments[i]!;
    const part = parts[i]!;
    if ('literal' in seg) {
      if (seg.literal !== part) return null;
    } else {
      try {
        params[seg.param] = decodeURIComponent(part);
      } catch {
        return null; // '%E0%A4%A' and the like: not a page of ours
      }
    }
  }
  return params;
}

/** The first route of the table (in its order) whose pattern matches the normalised path. */
export function matchRoute(routes: readonly CompiledRoute[], path: string): RouteMatch | null {
  for (const route of routes) {
    const params = matchPattern(route.compiled, path);
    if (params) return { route, params };
  }
  return null;
}
