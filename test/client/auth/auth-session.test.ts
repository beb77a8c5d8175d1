/**
 * The session in the store: offline open with the last identity (no redirect, status offline),
 * renewal when the server comes back, sign-in asked (not forced) when edits wait, and sign-out
 * that refuses to delete unsynced edits unless the user insists. Real store, real keycloak-js;
 * the network is a stub (probe answers, token endpoint).
 */
import { afterEach, beforeEach, describe, expect, jest, test } from '@jest/globals';
import Keycloak from 'keycloak-js';
import { makeStore } from '../../../src/client/app/store';
import type { RootState } from '../../../src/client/app/store-types';
import { AuthClient, type KeycloakLike } from '../../../src/client/lib/auth';
import { getCredentialsProvider } from '../../../src/client/lib/api/credentials';
import { startAuthSession } from '../../../src/client/features/auth/auth-session';
import { signOut } from '../../../src/client/features/auth/sign-out';

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

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: object) => `${b64({ alg: 'RS256' })}.${b64(claims)}.c2ln`;
const nowS = () => Math.floor(Date.now() / 1000);

function tokens(lifetime: number) {
  const iat = nowS();
  const claims = { sub: 'u1', email: 'kmet1@example.si', name: 'Kmet Ena', iat, exp: iat + lifetime };
  return { access_token: jwt(claims), id_token: jwt(claims), refresh_token: jwt({ typ: 'Refresh', iat, exp: iat + 86400 }), expires_in: lifetime };
}

let tokenStatus = 200;
let tokenRequests = 0;

beforeEach(() => {
  window.localStorage.clear();
  tokenStatus = 200;
  tokenRequests = 0;
  globalThis.fetch = jest.fn(async () => {
    tokenRequests += 1;
    return { ok: tokenStatus === 200, status: tokenStatus, json: async () => (tokenStatus === 200 ? tokens(300) : { error: 'invalid_grant' }) } as Response;
  }) as typeof fetch;
  const expired = tokens(-600);
  window.localStorage.setItem('user', JSON.stringify({ sub: 'u1', email: 'kmet1@example.si', name: 'Kmet Ena' }));
  window.localStorage.setItem('token', expired.access_token);
  window.localStorage.setItem('refreshToken', expired.refresh_token);
});

let stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
});

function client() {
  return new AuthClient({
    storage: window.localStorage,
    location: { href: 'http://localhost/', origin: 'http://localhost', pathname: '/', search: '', hash: '' },
    createKeycloak: () => new Keycloak({ url: 'http://localhost/auth', realm: 'moj-travnik', clientId: 'moj-travnik-app' }) as unknown as KeycloakLike,
    logger: { error: jest.fn(), warn: jest.fn() },
  });
}

function withState(base: RootState, patch: { pendingCount?: number; reachable?: boolean | null }): Partial<RootState> {
  return {
    ...base,
    sync: { ...base.sync, pendingCount: patch.pendingCount ?? 0 },
    connectivity: { ...base.connectivity, serverReachable: patch.reachable ?? null },
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('offline with an expired token', () => {
  test('the app opens as the last user, nothing redirects; back online the session is renewed', async () => {
    const store = makeStore();
    let reachable = false;
    const win = new EventTarget() as unknown as Window & { navigator: { onLine: boolean } };
    (win as unknown as { navigator: { onLine: boolean } }).navigator = { onLine: false };
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' }) as unknown as Document;
    stops.push(
      startAuthSession({
        dispatch: store.dispatch,
        getState: store.getState,
        subscribe: store.subscribe,
        client: client(),
        probe: async () => reachable,
        window: win,
        document: doc,
      }),
    );
    await flush();
    expect(store.getState().auth).toMatchObject({ status: 'offline', user: { email: 'kmet1@example.si' } });
    expect(tokenRequests).toBe(0);
    // Requests still carry the stored token: the server answers 401 and the outbox holds the work.
    expect(await getCredentialsProvider()()).toEqual({ kind: 'bearer', token: window.localStorage.getItem('token') });

    reachable = true;
    (win as unknown as { navigator: { onLine: boolean } }).navigator.onLine = true;
    win.dispatchEvent(new Event('online'));
    await flush();
    await flush();
    expect(store.getState().auth.status).toBe('authenticated');
    expect(tokenRequests).toBe(1);
  });

  test('back online but the session is gone (400) while edits wait: sign-in is asked, not forced', async () => {
    const base = makeStore().getState();
    const store = makeStore(withState(base, { pendingCount: 3 }));
    tokenStatus = 400;
    const c = client();
    const login = jest.spyOn(c, 'login').mockResolvedValue(undefined);
    stops.push(startAuthSession({ dispatch: store.dispatch, getState: store.getState, client: c, probe: async () => true }));
    await flush();
    await flush();
    expect(store.getState().auth).toMatchObject({ status: 'needs-sign-in', token: null, user: { email: 'kmet1@example.si' } });
    expect(login).not.toHaveBeenCalled();
  });

  test('with nothing waiting, a gone session goes to the login page (login-required)', async () => {
    tokenStatus = 400;
    const store = makeStore();
    const c = client();
    const login = jest.spyOn(c, 'login').mockResolvedValue(undefined);
    stops.push(startAuthSession({ dispatch: store.dispatch, getState: store.getState, client: c, probe: async () => true }));
    await flush();
    await flush();
    expect(login).toHaveBeenCalledTimes(1);
  });
});

describe('sign-out', () => {
  test('with edits waiting it stops and asks; insisting clears the user data', async () => {
    const base = makeStore().getState();
    const store = makeStore(withState(base, { pendingCount: 2, reachable: false }));
    stops.push(startAuthSession({ dispatch: store.dispatch, getState: store.getState, client: client(), probe: async () => false }));
    await flush();

    expect(await store.dispatch(signOut()).unwrap()).toBe('blocked');
    expect(store.getState().auth.signOutPendingEdits).toBe(2);
    expect(window.localStorage.getItem('user')).not.toBeNull();

    const deleteDb = jest.spyOn(store.extra.db, 'delete');
    expect(await store.dispatch(signOut({ force: true })).unwrap()).toBe('signed-out');
    expect(deleteDb).toHaveBeenCalled();
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(store.getState().auth).toMatchObject({ status: 'signed-out', user: null, token: null, signOutPendingEdits: null });
  });
});
