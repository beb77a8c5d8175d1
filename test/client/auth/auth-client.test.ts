/**
 * The keycloak-js wrapper with the real keycloak-js: only the network is replaced (a stub
 * `fetch` playing the token endpoint), since what is under test is when we refresh and what we
 * do with the answers — refresh margin, visibility refresh, 400 clears the token, offline open.
 */
import { afterEach, beforeEach, describe, expect, jest, test } from '@jest/globals';
import Keycloak from 'keycloak-js';
import { LOGIN_STATE_TTL_MS, TOKEN_REFRESH_MARGIN_S } from '../../../src/common/constants';
import { AuthClient, type AuthEvent, type KeycloakLike } from '../../../src/client/lib/auth/auth-client';

// keycloak-js 26 uses Promise.withResolvers (Node 22+, every current browser); Node 20 lacks it.
if (!('withResolvers' in Promise)) {
  Object.assign(Promise, {
    withResolvers<T>() {
      let resolve!: (value: T) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

const ORIGIN = 'http://localhost';
const TOKEN_URL = `${ORIGIN}/auth/realms/moj-travnik/protocol/openid-connect/token`;
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: object) => `${b64({ alg: 'RS256', typ: 'at+jwt' })}.${b64(claims)}.c2ln`;
const nowS = () => Math.floor(Date.now() / 1000);

function tokenSet(lifetime: number, n: number) {
  const iat = nowS();
  const claims = { sub: 'u1', email: 'kmet1@example.si', name: 'Kmet Ena', iat, exp: iat + lifetime, n };
  return {
    access_token: jwt(claims),
    id_token: jwt({ ...claims, aud: 'moj-travnik-app' }),
    refresh_token: jwt({ typ: 'Refresh', iat, exp: iat + 86400, n }),
    expires_in: lifetime,
    token_type: 'Bearer',
  };
}

type Answer = { status: number; body?: unknown } | 'network-error';
let answers: Answer[];
let fetchCalls: Array<{ url: string; body: string }>;
let tokenCounter: number;

function installFetch(lifetime: number) {
  tokenCounter = 0;
  fetchCalls = [];
  answers = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    fetchCalls.push({ url, body: String(init?.body ?? '') });
    const answer = answers.shift() ?? { status: 200, body: tokenSet(lifetime, ++tokenCounter) };
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    return {
      ok: answer.status >= 200 && answer.status < 300,
      status: answer.status,
      json: async () => answer.body ?? { error: 'invalid_grant' },
    } as Response;
  }) as typeof fetch;
}

function makeClient(events: AuthEvent[] = [], logger = { error: jest.fn(), warn: jest.fn() }) {
  const client = new AuthClient({
    storage: window.localStorage,
    location: { href: `${ORIGIN}/`, origin: ORIGIN, pathname: '/', search: '', hash: '' },
    createKeycloak: () => new Keycloak({ url: `${ORIGIN}/auth`, realm: 'moj-travnik', clientId: 'moj-travnik-app' }) as unknown as KeycloakLike,
    logger,
  });
  client.subscribe((event) => events.push(event));
  return { client, logger, events };
}

/** A returning user: tokens on the device from an earlier visit. */
function storeSession(lifetime = 300) {
  const set = tokenSet(lifetime, 0);
  window.localStorage.setItem('user', JSON.stringify({ sub: 'u1', email: 'kmet1@example.si', name: 'Kmet Ena' }));
  window.localStorage.setItem('token', set.access_token);
  window.localStorage.setItem('refreshToken', set.refresh_token);
  window.localStorage.setItem('idToken', set.id_token);
  return set;
}

const refreshCalls = () => fetchCalls.filter((c) => c.url === TOKEN_URL && c.body.includes('grant_type=refresh_token')).length;

beforeEach(() => {
  window.localStorage.clear();
  jest.useFakeTimers({ now: new Date('2026-05-20T08:00:00Z') });
});
afterEach(() => {
  jest.useRealTimers();
});

describe('refresh margin', () => {
  test(`refreshes ${TOKEN_REFRESH_MARGIN_S} s before expiry, not earlier, and keeps the new token`, async () => {
    installFetch(120);
    storeSession();
    const { client, events } = makeClient();
    expect(await client.start({ reachable: true, allowRedirect: false })).toBe('authenticated');
    expect(refreshCalls()).toBe(1); // init renews the stored session once
    const first = client.getToken();

    await jest.advanceTimersByTimeAsync((120 - TOKEN_REFRESH_MARGIN_S - 2) * 1000);
    expect(refreshCalls()).toBe(1);
    await jest.advanceTimersByTimeAsync(3_000);
    expect(refreshCalls()).toBe(2);
    expect(client.getToken()).not.toBe(first);
    expect(window.localStorage.getItem('token')).toBe(client.getToken());
    expect(events.map((e) => e.type)).toEqual(['authenticated', 'token-refreshed']);
  });

  test('a token living less than the margin is refreshed at half its life, not in a loop', async () => {
    installFetch(20);
    storeSession();
    const { client } = makeClient();
    await client.start({ reachable: true, allowRedirect: false });
    expect(refreshCalls()).toBe(1);
    await jest.advanceTimersByTimeAsync(9_000);
    expect(refreshCalls()).toBe(1);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(refreshCalls()).toBe(2);
    await jest.advanceTimersByTimeAsync(11_000);
    expect(refreshCalls()).toBe(3);
  });

  test('freshToken() refreshes a token inside the margin before handing it out', async () => {
    installFetch(600);
    storeSession();
    const { client } = makeClient();
    await client.start({ reachable: true, allowRedirect: false });
    jest.setSystemTime(Date.now() + (600 - TOKEN_REFRESH_MARGIN_S + 5) * 1000); // clock moves, timers did not run
    const before = client.getToken();
    const token = await client.freshToken();
    expect(token).not.toBe(before);
    expect(refreshCalls()).toBe(2);
  });
});

describe('several tabs', () => {
  test('a refresh uses the newest refresh token another tab stored, not its own older one', async () => {
    installFetch(300);
    storeSession();
    const { client } = makeClient();
    await client.start({ reachable: true, allowRedirect: false });
    const fromOtherTab = tokenSet(300, 99).refresh_token;
    window.localStorage.setItem('refreshToken', fromOtherTab);
    await client.refresh(-1);
    const last = fetchCalls.at(-1)!;
    expect(new URLSearchParams(last.body).get('refresh_token')).toBe(fromOtherTab);
  });
});

describe('visibility', () => {
  test('a tab shown again after the phone slept refreshes when the token is within the margin', async () => {
    installFetch(300);
    storeSession();
    const { client } = makeClient();
    await client.start({ reachable: true, allowRedirect: false });
    expect(await client.onVisible()).toBe(true);
    expect(refreshCalls()).toBe(1); // far from expiry: nothing to do

    jest.setSystemTime(Date.now() + 280_000); // asleep: no timer fired
    expect(await client.onVisible()).toBe(true);
    expect(refreshCalls()).toBe(2);
  });
});

describe('refresh failures', () => {
  test('a 400 from the token endpoint clears the token (logged), keeps who the user was', async () => {
    installFetch(300);
    storeSession();
    const { client, events, logger } = makeClient();
    await client.start({ reachable: true, allowRedirect: false });
    answers.push({ status: 400, body: { error: 'invalid_grant' } });
    expect(await client.refresh(-1)).toBe(false);
    expect(logger.error).toHaveBeenCalledWith('token refresh failed', expect.anything());
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('refreshToken')).toBeNull();
    expect(client.getToken()).toBeNull();
    expect(JSON.parse(window.localStorage.getItem('user')!)).toMatchObject({ email: 'kmet1@example.si' });
    expect(events.map((e) => e.type)).toEqual(['authenticated', 'token-cleared', 'sign-in-required']);
  });

  test('a network failure keeps the token for the next try (logged)', async () => {
    installFetch(300);
    storeSession();
    const { client, events, logger } = makeClient();
    await client.start({ reachable: true, allowRedirect: false });
    const token = client.getToken();
    answers.push('network-error');
    expect(await client.refresh(-1)).toBe(false);
    expect(logger.error).toHaveBeenCalled();
    expect(client.getToken()).toBe(token);
    expect(window.localStorage.getItem('token')).toBe(token);
    expect(events.map((e) => e.type)).toEqual(['authenticated', 'refresh-failed']);
  });

  test('a stored session refused at start (400) asks for sign-in instead of redirecting when told not to', async () => {
    installFetch(300);
    storeSession();
    answers.push({ status: 400, body: { error: 'invalid_grant' } });
    const { client, events } = makeClient();
    expect(await client.start({ reachable: true, allowRedirect: false })).toBe('needs-sign-in');
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(events.map((e) => e.type)).toEqual(['token-cleared', 'sign-in-required']);
  });
});

describe('offline open', () => {
  test('opens with the last identity and token, without touching the network or redirecting', async () => {
    installFetch(300);
    const stored = storeSession(-600); // expired ten minutes ago
    const events: AuthEvent[] = [];
    const { client } = makeClient(events);
    const restored = client.restore();
    expect(restored).toEqual({ user: { sub: 'u1', email: 'kmet1@example.si', name: 'Kmet Ena' }, token: stored.access_token });
    expect(await client.start({ reachable: false, allowRedirect: true })).toBe('offline');
    expect(fetchCalls).toHaveLength(0);
    expect(client.getToken()).toBe(stored.access_token);
    expect(events.map((e) => e.type)).toEqual(['restored']);
  });

  test('when the server is back, the stored session is renewed silently', async () => {
    installFetch(300);
    storeSession(-600);
    const { client } = makeClient();
    client.restore();
    await client.start({ reachable: false, allowRedirect: true });
    expect(await client.start({ reachable: true, allowRedirect: true })).toBe('authenticated');
    expect(refreshCalls()).toBe(1);
  });
});

describe('login state entries', () => {
  test(`older than ${LOGIN_STATE_TTL_MS / 60_000} min (or unreadable) are removed at start; fresh ones stay`, () => {
    const now = Date.now();
    window.localStorage.setItem('kc-callback-old', JSON.stringify({ state: 'old', expires: now - 1 }));
    window.localStorage.setItem('kc-callback-fresh', JSON.stringify({ state: 'fresh', expires: now + LOGIN_STATE_TTL_MS - 1000 }));
    window.localStorage.setItem('kc-callback-broken', '{');
    window.localStorage.setItem('unrelated', 'stays');
    makeClient().client.restore();
    expect(window.localStorage.getItem('kc-callback-old')).toBeNull();
    expect(window.localStorage.getItem('kc-callback-broken')).toBeNull();
    expect(window.localStorage.getItem('kc-callback-fresh')).not.toBeNull();
    expect(window.localStorage.getItem('unrelated')).toBe('stays');
  });
});

describe('the address a sign-in started from', () => {
  /** A stand-in for keycloak-js: the login page is a redirect it does not follow; a callback signs in. */
  function fakeKeycloak(signedIn: boolean): KeycloakLike {
    const set = tokenSet(300, 1);
    const keycloak: KeycloakLike = {
      init: async () => {
        if (signedIn)
          Object.assign(keycloak, {
            authenticated: true,
            token: set.access_token,
            refreshToken: set.refresh_token,
            idToken: set.id_token,
            tokenParsed: JSON.parse(Buffer.from(set.access_token.split('.')[1]!, 'base64url').toString()),
          });
        return signedIn;
      },
      updateToken: async () => true,
      login: async () => undefined,
      logout: async () => undefined,
    };
    return keycloak;
  }
  const browserWindow = () => ({ history: { state: null, replaceState: jest.fn() }, dispatchEvent: jest.fn(() => true) });

  test('a link opened signed out (#/forms/12) is kept across the login page and put back once signed in, as a hashchange', async () => {
    const away = new AuthClient({
      storage: window.localStorage,
      location: { href: `${ORIGIN}/#/forms/12`, origin: ORIGIN, pathname: '/', search: '', hash: '#/forms/12' },
      createKeycloak: () => fakeKeycloak(false),
      window: browserWindow() as unknown as Window,
    });
    expect(await away.start({ reachable: true, allowRedirect: true })).toBe('redirecting');

    // Back from the provider: keycloak-js has read ?code&state and left the bare address.
    const back = browserWindow();
    const returned = new AuthClient({
      storage: window.localStorage,
      location: { href: `${ORIGIN}/?code=c&state=s`, origin: ORIGIN, pathname: '/', search: '', hash: '' },
      createKeycloak: () => fakeKeycloak(true),
      window: back as unknown as Window,
    });
    expect(await returned.start({ reachable: true, allowRedirect: true })).toBe('authenticated');
    expect(back.history.replaceState).toHaveBeenCalledWith(null, '', '/#/forms/12');
    expect((back.dispatchEvent.mock.calls[0] as unknown as [Event])[0].type).toBe('hashchange');
    // Taken once: a later sign-in does not jump there again.
    expect(window.localStorage.getItem('returnTo')).toBeNull();
  });

  test('a sign-in from the home screen keeps nothing and moves nowhere', async () => {
    const home = new AuthClient({
      storage: window.localStorage,
      location: { href: `${ORIGIN}/#/`, origin: ORIGIN, pathname: '/', search: '', hash: '#/' },
      createKeycloak: () => fakeKeycloak(false),
      window: browserWindow() as unknown as Window,
    });
    expect(await home.start({ reachable: true, allowRedirect: true })).toBe('redirecting');
    expect(window.localStorage.getItem('returnTo')).toBeNull();
  });
});
