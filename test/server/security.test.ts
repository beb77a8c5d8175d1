/**
 * Rate limits and security headers over real HTTP:
 * - the API's limit per user (429 + Retry-After + the catalogue body with a Slovenian detail,
 *   other users untouched, calls without a user counted per address, the probe never counted),
 *   its settings from the environment, and that the default carries a field day's outbox drain;
 * - the sign-in throttle of the login page per account and per address (429 + Retry-After) and of
 *   Basic credentials;
 * - the headers of the app, the API, the login page and the automatic logout page: every inline
 *   style or script those pages carry is allowed by a hash in their own policy, nothing else.
 * Different client addresses are X-Forwarded-For values on an app that trusts its proxy.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { slAuth, slSecurity } from '../../src/common/i18n/sl';
import { FORM_KINDS } from '../../src/common/scheme/form-kinds';
import { buildApp, type BuildAppOptions } from '../../src/server/app';
import { DEFAULT_IDENTITY_LIMITS, DEFAULT_LOGIN_LIMITS, DEFAULT_RATE_LIMITS, EnvError, readEnv } from '../../src/server/env';
import { ACTIVATION_ROUTE } from '../../src/server/idp/activation-routes';
import { OidcTestClient } from './auth/oidc-client';
import { buildTestApp, USERS, type TestApp } from './helpers/build-test-app';
import { farmerRows } from './helpers/demo-ids';

// Real work: 10,000 rows written through 50 bulk calls, scrypt for every demo account and sign-in,
// apps started on PostgreSQL. 3 s alone, more than jest's default 5 s on a loaded machine.
jest.setTimeout(60_000);

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The directives of a Content-Security-Policy, by name. */
function directives(policy: string | null): Map<string, string[]> {
  expect(policy).toBeTruthy();
  return new Map(
    policy!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** A listening app of its own on a fresh DATA_DIR (in-memory database); close() removes both. */
async function startApp(options: BuildAppOptions): Promise<{ app: FastifyInstance; origin: string; close(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'travnik-security-'));
  const app = await buildApp({ dataDir, database: ':memory:', ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('no address');
  return {
    app,
    origin: `http://127.0.0.1:${address.port}`,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('the API rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ rateLimits: { max: 5, windowMs: 60_000 }, trustProxy: true });
  });
  afterAll(async () => t.close());

  const roles = (user: string) => t.as(user, { method: 'GET', url: '/api/PublicApp/1/roles' });

  test('a user over the limit gets 429 with Retry-After and a Slovenian detail; other users go on', async () => {
    for (let call = 1; call <= 5; call += 1) {
      const ok = await roles(USERS.farmer1);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers.get('x-ratelimit-remaining')).toBe(String(5 - call));
    }
    const refused = await roles(USERS.farmer1);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json()).toEqual({ status: 429, message: 'Generic Error', detail: slSecurity.rateLimited(retryAfter) });
    expect(refused.json().detail).toMatch(/^Preveč zahtev v kratkem času\. Poskusite znova čez \d+ (sekund[oie]?|minuto)\.$/);

    // Counted per user: the other farmer, from the same address, is not affected.
    expect((await roles(USERS.farmer2)).statusCode).toBe(200);
    // The reachability probe is never counted (every open app polls it).
    for (let call = 0; call < 8; call += 1) expect((await t.as(USERS.farmer1, { method: 'GET', url: '/api/Test' })).statusCode).toBe(200);
  });

  test('calls without a user are counted per client address', async () => {
    const docs = (address: string) => t.as(null, { method: 'GET', url: '/api/openapi.json', headers: { 'x-forwarded-for': address } });
    for (let call = 0; call < 5; call += 1) expect((await docs('198.51.100.1')).statusCode).toBe(200);
    const refused = await docs('198.51.100.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await docs('198.51.100.2')).statusCode).toBe(200);
  });
});

describe('the default limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ rateLimits: DEFAULT_RATE_LIMITS });
  });
  afterAll(async () => t.close());

  test("carries a field day's drain: 10,000 edits in 50 bulk calls of 200, back to back", async () => {
    const own = await farmerRows(t.app, t.tables, USERS.farmer1);
    const f = t.tables.forms;
    for (let call = 0; call < 50; call += 1) {
      const operations = Array.from({ length: 200 }, (_, n) => ({
        opId: `drain-${call}-${n}`,
        kind: 'insert',
        tableId: f.id,
        localId: 1_000_000 + call * 200 + n,
        properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: FORM_KINDS.travnik.id },
      }));
      const response = await t.as(USERS.farmer1, { method: 'POST', url: '/api/Records/1/bulk', payload: { operations } });
      expect(response.statusCode).toBe(200);
    }
    const left = await t.as(USERS.farmer1, { method: 'GET', url: '/api/PublicApp/1/roles' });
    expect(Number(left.headers.get('x-ratelimit-remaining'))).toBe(DEFAULT_RATE_LIMITS.max - 51);
  });
});

describe('limits from the environment', () => {
  test('defaults, overrides and refusals', () => {
    const defaults = readEnv({}, '/x');
    expect(defaults.rateLimits).toEqual(DEFAULT_RATE_LIMITS);
    expect(defaults.loginLimits).toEqual(DEFAULT_LOGIN_LIMITS);
    expect(defaults.trustProxy).toBe(false);
    const set = readEnv(
      {
        RATE_LIMIT_MAX: '300',
        RATE_LIMIT_WINDOW: '10',
        LOGIN_FAILURES_PER_ACCOUNT: '5',
        LOGIN_FAILURES_PER_ADDRESS: '20',
        LOGIN_FAILURE_WINDOW: '300',
        TRUST_PROXY: '10.0.0.0/8',
      },
      '/x',
    );
    expect(set.rateLimits).toEqual({ max: 300, windowMs: 10_000 });
    expect(set.loginLimits).toEqual({ perAccount: 5, perAddress: 20, windowMs: 300_000 });
    expect(set.trustProxy).toBe('10.0.0.0/8');
    expect(readEnv({ RATE_LIMIT_MAX: '0' }, '/x').rateLimits.max).toBe(0); // 0 = off
    // Behind PUBLIC_URL a proxy is assumed in a private network.
    expect(readEnv({ PUBLIC_URL: 'https://travnik.example.si' }, '/x').trustProxy).toBe('loopback, linklocal, uniquelocal');
    expect(() => readEnv({ RATE_LIMIT_MAX: 'many' }, '/x')).toThrow(EnvError);
    expect(() => readEnv({ LOGIN_FAILURES_PER_ACCOUNT: '0' }, '/x')).toThrow('LOGIN_FAILURES_PER_ACCOUNT');
  });

  test("the identity provider's limits and Redis", () => {
    const defaults = readEnv({}, '/x');
    expect(defaults.identityLimits).toEqual(DEFAULT_IDENTITY_LIMITS);
    expect(defaults.redis).toBeUndefined();
    const set = readEnv(
      {
        IDP_LIMIT_PER_ADDRESS: '100',
        IDP_LIMIT_PER_ACCOUNT: '0',
        IDP_LIMIT_WINDOW: '120',
        REDIS_URL: 'redis://redis.internal:6379/2',
        REDIS_PREFIX: 'travnik-a:',
      },
      '/x',
    );
    expect(set.identityLimits).toEqual({ perAddress: 100, perAccount: 0, windowMs: 120_000 });
    expect(set.redis).toEqual({ url: 'redis://redis.internal:6379/2', keyPrefix: 'travnik-a:' });
    expect(() => readEnv({ REDIS_URL: 'redis.internal:6379' }, '/x')).toThrow('REDIS_URL');
  });
});

describe('security headers', () => {
  let origin: string;
  let clientDir: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(tmpdir(), 'travnik-csp-'));
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>t</title>');
    mkdirSync(path.join(clientDir, 'static/js'), { recursive: true });
    writeFileSync(path.join(clientDir, 'static/js/main.0123456789.js'), 'void 0;');
    ({ origin, close } = await startApp({ demo: true, clientDir, auth: 'embedded' }));
  });
  afterAll(async () => {
    await close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  test('the app: scripts, styles and data from this origin only; MapLibre workers and images; no framing', async () => {
    const response = await fetch(`${origin}/`);
    expect(response.status).toBe(200);
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('worker-src')).toEqual(["'self'", 'blob:']);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(response.headers.get('content-security-policy')).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(response.headers.get('permissions-policy')).toContain('camera=(self)');
    expect(response.headers.get('permissions-policy')).toContain('geolocation=(self)');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    // Plain http: no HSTS.
    expect(response.headers.get('strict-transport-security')).toBeNull();
    // The same policy for the service worker script and config.json (a worker's policy is its script's).
    expect((await fetch(`${origin}/config.json`)).headers.get('content-security-policy')).toBe(response.headers.get('content-security-policy'));
  });

  test('a content-hashed script or stylesheet carries no page policy: nosniff and a year in the cache, nothing a page needs', async () => {
    // A page's policies (CSP, permissions, framing, referrer, COOP) apply to documents and workers,
    // not to the scripts and styles a page loads: on every one of a first visit's dozen scripts
    // they were ≈ 0.6 kB of headers a phone downloads for nothing.
    const response = await fetch(`${origin}/static/js/main.0123456789.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toContain('immutable');
    for (const name of ['content-security-policy', 'permissions-policy', 'x-frame-options', 'referrer-policy', 'cross-origin-opener-policy']) {
      expect(response.headers.get(name)).toBeNull();
    }
    // A missing one is no document either, and the service worker and the page keep theirs.
    expect((await fetch(`${origin}/static/css/gone.0123456789.css`)).headers.get('content-security-policy')).toBeNull();
    expect((await fetch(`${origin}/sw.js`)).headers.get('content-security-policy')).toContain("script-src 'self'");
    // The page reached through a script's folder is still the page, with the page's policies.
    for (const detour of ['/static/js/%2e%2e/%2e%2e/index.html', '/static/js/..%2f..%2findex.html', '/static/js/sub/x.js']) {
      expect((await fetch(`${origin}${detour}`)).headers.get('x-frame-options')).toBe('DENY');
    }
  });

  test("the app's page template has no inline script or style", () => {
    const template = readFileSync(path.join(ROOT, 'public/index.html'), 'utf8');
    expect(template).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    for (const script of template.match(/<script[^>]*>/gi) ?? []) expect(script).toMatch(/\ssrc=/);
  });

  test('the API: nothing may load, no camera or location', async () => {
    for (const url of ['/api/Test', '/api/PublicApp/1/roles']) {
      const response = await fetch(`${origin}${url}`);
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp.get('default-src')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(response.headers.get('permissions-policy')).toContain('camera=()');
      expect(response.headers.get('permissions-policy')).toContain('geolocation=()');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  test("the API documentation keeps Swagger UI's own policy, without framing or inline script", async () => {
    const response = await fetch(`${origin}/api/docs/`);
    expect(response.status).toBe(200);
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
  });

  test('the login page: no script, its one inline style allowed by hash, forms to this origin only', async () => {
    const client = new OidcTestClient(origin);
    const start = await client.startLogin();
    // The provider's own redirect carries the identity pages' policy too.
    expect(directives(start.response.headers.get('content-security-policy')).get('default-src')).toEqual(["'none'"]);
    const page = await client.fetch(start.location!);
    expect(page.status).toBe(200);
    const html = await page.text();
    const csp = directives(page.headers.get('content-security-policy'));
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('script-src')).toBeUndefined(); // default-src 'none': no script at all
    expect(html).not.toContain('<script');
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(styles).toHaveLength(1);
    expect(csp.get('style-src')).toEqual([sha256Source(styles[0]!)]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(page.headers.get('permissions-policy')).toContain('camera=()');
  });

  test('the logout pages run exactly their own auto-submitting script, allowed by hash', async () => {
    const client = new OidcTestClient(origin);
    const tokens = await client.signIn('urednik@example.si', 'demo');
    const url = new URL(`${origin}/auth/realms/moj-travnik/protocol/openid-connect/logout`);
    url.searchParams.set('id_token_hint', tokens.id_token!);
    url.searchParams.set('post_logout_redirect_uri', `${origin}/`);
    // With the provider's session (our page) and without it (oidc-provider's own form_post page).
    for (const send of [
      (u: URL) => client.fetch(u.href, { headers: { accept: 'text/html' } }),
      (u: URL) => fetch(u, { redirect: 'manual', headers: { accept: 'text/html' } }),
    ]) {
      const response = await send(url);
      expect(response.status).toBe(200);
      const html = await response.text();
      const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(scripts).toHaveLength(1);
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp.get('script-src')).toContain(sha256Source(scripts[0]!));
      expect(csp.get('script-src')!.every((source) => source.startsWith("'sha256-"))).toBe(true);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
    }
  });
});

describe('headers that depend on the deployment', () => {
  test('HSTS only behind an https PUBLIC_URL; with AUTH=keycloak the app may call and frame that Keycloak', async () => {
    const { origin, close } = await startApp({
      auth: 'keycloak',
      keycloak: { url: 'https://sso.example.si/auth', realm: 'travnik' },
      publicUrl: 'https://travnik.example.si',
      authenticate: async () => null,
    });
    try {
      const response = await fetch(`${origin}/keycloak.json`);
      expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000');
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp.get('connect-src')).toEqual(["'self'", 'https://sso.example.si']);
      expect(csp.get('frame-src')).toEqual(["'self'", 'https://sso.example.si']);
      expect(csp.get('script-src')).toEqual(["'self'"]);
    } finally {
      await close();
    }
  });
});

describe('the sign-in throttle', () => {
  let origin: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ origin, close } = await startApp({ demo: true, auth: 'embedded', trustProxy: true, loginLimits: { perAccount: 3, perAddress: 5, windowMs: 60_000 } }));
  });
  afterAll(async () => close());

  async function loginPage(): Promise<{ client: OidcTestClient; url: string }> {
    const client = new OidcTestClient(origin);
    const start = await client.startLogin();
    return { client, url: start.location! };
  }
  const post = (client: OidcTestClient, url: string, username: string, password: string, address: string) =>
    client.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
      body: new URLSearchParams({ username, password }).toString(),
    });

  test('per account: after 3 wrong passwords even the right one waits, with Retry-After; other accounts go on', async () => {
    const { client, url } = await loginPage();
    for (let i = 0; i < 3; i += 1) expect((await post(client, url, 'bralec@example.si', `narobe${i}`, '203.0.113.1')).status).toBe(200);
    // From another address too: the account is what is guessed at.
    const blocked = await post(client, url, 'BRALEC@example.si', 'demo', '203.0.113.2');
    expect(blocked.status).toBe(429);
    const wait = Number(blocked.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    const html = await blocked.text();
    expect(html).toContain(slAuth.login.tooManyAttempts(wait));
    expect(html).toContain('role="alert"');
    const other = await loginPage();
    expect((await post(other.client, other.url, 'urednik@example.si', 'demo', '203.0.113.1')).status).toBe(303);
  });

  test('per address: 5 failures across accounts from one address stop that address only', async () => {
    const { client, url } = await loginPage();
    for (const login of ['a@example.si', 'b@example.si', 'c@example.si', 'd@example.si', 'e@example.si']) {
      expect((await post(client, url, login, 'narobe', '203.0.113.50')).status).toBe(200);
    }
    const blocked = await post(client, url, 'kmet1@example.si', 'demo', '203.0.113.50');
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await blocked.text()).toContain('Preveč neuspešnih poskusov');
    // The same account from another address signs in.
    expect((await post(client, url, 'kmet1@example.si', 'demo', '203.0.113.51')).status).toBe(303);
  });
});

describe('the sign-in throttle of Basic credentials', () => {
  test('after the account limit: 429 with Retry-After in the catalogue shape, not 401', async () => {
    const { origin, close } = await startApp({ demo: true, auth: 'basic', loginLimits: { perAccount: 2 } });
    try {
      const as = (password: string) =>
        fetch(`${origin}/api/PublicApp/1/roles`, { headers: { authorization: `Basic ${Buffer.from(`kmet1@example.si:${password}`).toString('base64')}` } });
      expect((await as('narobe1')).status).toBe(401);
      expect((await as('narobe2')).status).toBe(401);
      const blocked = await as('demo');
      expect(blocked.status).toBe(429);
      const wait = Number(blocked.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0);
      expect(await blocked.json()).toEqual({ status: 429, message: 'Generic Error', detail: slSecurity.rateLimited(wait) });
    } finally {
      await close();
    }
  });
});

describe("the identity provider's request limits", () => {
  let origin: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ origin, close } = await startApp({
      demo: true,
      auth: 'embedded',
      trustProxy: true,
      identityLimits: { perAddress: 4, perAccount: 4, windowMs: 60_000 },
    }));
  });
  afterAll(async () => close());

  /** A client whose every request comes from `address` (the proxy's X-Forwarded-For). */
  const from = (address: string) => {
    const client = new OidcTestClient(origin);
    const plain = client.fetch.bind(client);
    client.fetch = (url, init = {}) => plain(url, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': address } });
    return client;
  };

  test('the token endpoint per account: a refresh token replayed past the limit waits, with Retry-After; another account goes on', async () => {
    // Sign-in: the login form and the code exchange count for the account (2 of 4), each from an address of its own.
    const tokens = await from('198.51.100.1').signIn('kmet2@example.si', 'demo');
    const refresh = (address: string) =>
      fetch(tokens.discovery.token_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
        body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'moj-travnik-app', refresh_token: tokens.refresh_token! }).toString(),
      });
    expect((await refresh('198.51.100.2')).status).toBe(200);
    expect((await refresh('198.51.100.3')).status).toBe(200);
    // The fifth request for the account, from yet another address.
    const refused = await refresh('198.51.100.4');
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({ error: 'too_many_requests', error_description: slSecurity.rateLimited(wait) });
    expect((await from('198.51.100.5').signIn('urednik@example.si', 'demo')).access_token).toBeTruthy();
  });

  test('the authorization endpoint and the login page per address', async () => {
    const client = from('198.51.100.20');
    const start = await client.startLogin(); // authorization: 1 for the address
    expect(start.location).toBeTruthy();
    expect((await client.fetch(start.location!)).status).toBe(200); // login page: 2
    expect((await client.submitLogin(start.location!, 'neznan@example.si', 'narobe')).status).toBe(200); // 3
    expect((await client.fetch(start.location!)).status).toBe(200); // 4
    const refused = await client.fetch(start.location!);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toContain('Preveč zahtev v kratkem času');
    const again = await client.startLogin();
    expect(again.response.status).toBe(429);
    expect(again.response.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another address goes on.
    expect((await from('198.51.100.21').startLogin()).location).toBeTruthy();
  });

  test('the activation links per address', async () => {
    const link = (address: string) => fetch(`${origin}${ACTIVATION_ROUTE}/${'x'.repeat(43)}`, { headers: { 'x-forwarded-for': address } });
    for (let i = 0; i < 4; i += 1) expect((await link('198.51.100.30')).status).toBe(404);
    const refused = await link('198.51.100.30');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await link('198.51.100.31')).status).toBe(404);
  });
});
