import { describe, expect, it } from '@jest/globals';
import { compilePattern, matchPattern, parseHash, queryValue } from '../../src/client/app/router/match';
import { buildHref, routeHref } from '../../src/client/lib/links';
import { farmerRecordRequired, firstBlock, readersCannotEdit, UNKNOWN_ACCESS, type RouteAccess } from '../../src/client/app/router/guards';
import { matchRoute } from '../../src/client/app/router/match';
import { compileRoutes, routeDefinitions } from '../../src/client/app/router/routes';
import { sl } from '../../src/common/i18n/sl';

describe('parseHash', () => {
  it.each([
    ['', '/'],
    ['#', '/'],
    ['#/', '/'],
    ['#/paths', '/paths'],
    ['#/paths/', '/paths'],
    ['#//paths//12/', '/paths/12'],
    ['#paths', '/paths'],
  ])('%j → path %j', (hash, path) => {
    expect(parseHash(hash).path).toBe(path);
  });

  it('reads the optional query string; repeated keys become arrays', () => {
    const loc = parseHash('#/forms/7?edit=1&tag=a&tag=b&q=%C4%8Debela');
    expect(loc.path).toBe('/forms/7');
    expect(loc.query).toEqual({ edit: '1', tag: ['a', 'b'], q: 'čebela' });
    expect(loc.search).toBe('edit=1&tag=a&tag=b&q=%C4%8Debela');
    expect(loc.href).toBe('/forms/7?edit=1&tag=a&tag=b&q=%C4%8Debela');
    expect(queryValue(loc.query, 'tag')).toBe('a');
    expect(queryValue(loc.query, 'missing')).toBeUndefined();
    expect(parseHash('#/about').href).toBe('/about');
  });
});

describe('parseHash ignores sign-in callback parameters (keycloak-js fragment mode)', () => {
  it.each([
    ['#state=abc&session_state=x&code=y', '/', ''],
    ['#/paths/3&state=abc&code=y', '/paths/3', ''],
    ['#/forms/2?edit=1&state=abc&session_state=s&code=y', '/forms/2', 'edit=1'],
    ['#/&error=login_required&state=abc', '/', ''],
  ])('%s → %s ? %s', (hash, path, search) => {
    const loc = parseHash(hash);
    expect(loc.path).toBe(path);
    expect(loc.search).toBe(search);
  });

  it('keeps an encoded & or = inside a parameter', () => {
    expect(parseHash('#/paths/a%26b%3Dc').path).toBe('/paths/a%26b%3Dc');
  });
});

describe('matchPattern', () => {
  const path = compilePattern('/paths/{pathId}');

  it('decodes parameters from the path', () => {
    expect(matchPattern(path, '/paths/12')).toEqual({ pathId: '12' });
    expect(matchPattern(path, '/paths/travnik%20pri%20potoku')).toEqual({ pathId: 'travnik pri potoku' });
    expect(matchPattern(path, '/paths/%C5%BEaba')).toEqual({ pathId: 'žaba' });
  });

  it('does not match other shapes or badly encoded parameters', () => {
    expect(matchPattern(path, '/paths')).toBeNull();
    expect(matchPattern(path, '/paths/1/2')).toBeNull();
    expect(matchPattern(path, '/forms/1')).toBeNull();
    expect(matchPattern(path, '/paths/%E0%A4%A')).toBeNull();
  });

  it('buildHref encodes parameters and query, and needs every parameter', () => {
    expect(buildHref('/paths/{pathId}', { pathId: 'a b/c' })).toBe('#/paths/a%20b%2Fc');
    expect(buildHref('/forms/{formId}', { formId: 5 }, { edit: 1 })).toBe('#/forms/5?edit=1');
    expect(() => buildHref('/forms/{formId}')).toThrow(/formId/);
    const href = buildHref('/paths/{pathId}', { pathId: 'a b/c' });
    // A '/' inside a parameter stays encoded, so the href round-trips to the same parameter.
    expect(matchPattern(path, parseHash(href).path)).toEqual({ pathId: 'a b/c' });
  });

  it('routeHref builds a named route with its parameters and query', () => {
    expect(routeHref('form', { formId: 5 })).toBe('#/forms/5');
    expect(routeHref('home')).toBe('#/');
    expect(routeHref('path-new', {}, { area: 3 })).toBe('#/paths/new?area=3');
    // @ts-expect-error a route with a parameter needs it
    expect(() => routeHref('path')).toThrow(/pathId/);
    // @ts-expect-error a misspelt parameter is a compile error
    expect(() => routeHref('form', { fromId: 5 })).toThrow(/formId/);
  });
});

describe('route table', () => {
  const routes = compileRoutes(routeDefinitions);

  it.each([
    ['/', 'home', {}],
    ['/about', 'about', {}],
    ['/results', 'results', {}],
    ['/paths', 'paths', {}],
    ['/paths/42', 'path', { pathId: '42' }],
    ['/forms', 'forms', {}],
    ['/forms/9', 'form', { formId: '9' }],
    ['/download', 'download', {}],
    ['/download/new', 'download-new', {}],
  ])('%s → %s', (path, name, params) => {
    const match = matchRoute(routes, path);
    expect(match?.route.name).toBe(name);
    expect(match?.params).toEqual(params);
  });

  it('has no route for unknown paths (the not-found screen shows)', () => {
    for (const path of ['/nope', '/paths/1/edit', '/download/old', '/about/x']) expect(matchRoute(routes, path)).toBeNull();
  });

  // Each screen's chunk really loading and rendering is checked in Chromium (test/e2e/shell.test.ts):
  // the real screens bring the map library, which jsdom cannot import.
});

describe('guards', () => {
  const reader: RouteAccess = { role: 'reader', farmerRecord: 'unknown' };
  const editor: RouteAccess = { role: 'editor', farmerRecord: 'unknown' };
  const farmerMissing: RouteAccess = { role: 'farmer', farmerRecord: 'missing' };
  const farmerFound: RouteAccess = { role: 'farmer', farmerRecord: 'found' };

  it('readers cannot open edit screens (new record or ?edit); editors and farmers can', () => {
    expect(readersCannotEdit({ access: reader, params: { formId: 'new' }, query: {} })).toEqual({
      reason: 'reader-cannot-edit',
      message: sl.router.blockedReader,
    });
    expect(readersCannotEdit({ access: reader, params: { formId: '3' }, query: { edit: '1' } })?.reason).toBe('reader-cannot-edit');
    expect(readersCannotEdit({ access: reader, params: { formId: '3' }, query: {} })).toBeNull();
    expect(readersCannotEdit({ access: editor, params: { formId: 'new' }, query: {} })).toBeNull();
    expect(readersCannotEdit({ access: farmerFound, params: {}, query: { edit: '' } })).toBeNull();
  });

  it('a farmer without a farmer record is blocked from data screens', () => {
    expect(farmerRecordRequired({ access: farmerMissing, params: {}, query: {} })).toEqual({
      reason: 'farmer-record-missing',
      message: sl.router.blockedNoFarmer,
    });
    expect(farmerRecordRequired({ access: farmerFound, params: {}, query: {} })).toBeNull();
    expect(farmerRecordRequired({ access: editor, params: {}, query: {} })).toBeNull();
    expect(farmerRecordRequired({ access: UNKNOWN_ACCESS, params: {}, query: {} })).toBeNull();
  });

  it('the route table applies them: /forms/new blocked for readers, /about open to a farmer without record', () => {
    const routes = compileRoutes(routeDefinitions);
    const form = matchRoute(routes, '/forms/new')!;
    expect(firstBlock(form.route.guards, { access: reader, params: form.params, query: {} })?.reason).toBe('reader-cannot-edit');
    const about = matchRoute(routes, '/about')!;
    expect(firstBlock(about.route.guards, { access: farmerMissing, params: {}, query: {} })).toBeNull();
    const home = matchRoute(routes, '/')!;
    expect(firstBlock(home.route.guards, { access: farmerMissing, params: {}, query: {} })?.reason).toBe('farmer-record-missing');
  });
});
