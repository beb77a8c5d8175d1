/**
 * The identity kept on the device (user and token), so
 * the app opens offline with the last signed-in user. localStorage keys: `user` (JSON), `token`
 * (the access token), and `refreshToken`/`idToken` so a returning user is renewed without a
 * redirect; `returnTo`, the app address a sign-in started from. They are bearer secrets in origin storage, like keycloak-js's own callback state; the
 * app has no third-party scripts and a strict CSP is the defence that matters here.
 *
 * Also purges keycloak-js's login state entries (`kc-callback-*`) older than LOGIN_STATE_TTL_MS
 * (login state entries expire after 1 h), which a sign-in abandoned halfway leaves behind.
 */
import { LOGIN_STATE_TTL_MS } from '../../../common/constants';

export interface AuthUser {
  sub: string;
  email: string;
  name?: string;
  username?: string;
}

export interface StoredTokens {
  token: string | null;
  refreshToken: string | null;
  idToken: string | null;
}

const STORAGE_KEYS = { user: 'user', token: 'token', refreshToken: 'refreshToken', idToken: 'idToken', returnTo: 'returnTo' } as const;
const LOGIN_STATE_PREFIX = 'kc-callback-';

/** The entries a signed-in identity is made of (what the login page leaves on a new device). */
export const IDENTITY_STORAGE_KEYS: readonly string[] = [STORAGE_KEYS.user, STORAGE_KEYS.token, STORAGE_KEYS.refreshToken, STORAGE_KEYS.idToken];

function get(storage: Storage | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function set(storage: Storage | null, key: string, value: string | null): void {
  try {
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Storage full or blocked: the session still works in memory for this visit.
  }
}

export function readUser(storage: Storage | null): AuthUser | null {
  const raw = get(storage, STORAGE_KEYS.user);
  if (!raw) return null;
  try {
    const user = JSON.parse(raw) as AuthUser;
    return typeof user?.email === 'string' && typeof user.sub === 'string' ? user : null;
  } catch {
    return null;
  }
}

export function readTokens(storage: Storage | null): StoredTokens {
  return {
    token: get(storage, STORAGE_KEYS.token),
    refreshToken: get(storage, STORAGE_KEYS.refreshToken),
    idToken: get(storage, STORAGE_KEYS.idToken),
  };
}

export function writeIdentity(storage: Storage | null, user: AuthUser, tokens: StoredTokens): void {
  set(storage, STORAGE_KEYS.user, JSON.stringify(user));
  writeTokens(storage, tokens);
}

export function writeTokens(storage: Storage | null, tokens: StoredTokens): void {
  set(storage, STORAGE_KEYS.token, tokens.token);
  set(storage, STORAGE_KEYS.refreshToken, tokens.refreshToken);
  set(storage, STORAGE_KEYS.idToken, tokens.idToken);
}

/** The session can no longer be renewed: drop the tokens, keep who it was (their data stays). */
export function clearTokens(storage: Storage | null): void {
  writeTokens(storage, { token: null, refreshToken: null, idToken: null });
}

/** Sign-out: nothing of the user stays. */
export function clearIdentity(storage: Storage | null): void {
  clearTokens(storage);
  set(storage, STORAGE_KEYS.user, null);
}

/** Removes login state entries that expired (or are unreadable); returns how many. */
export function purgeLoginState(storage: Storage | null, now: number): number {
  if (!storage) return 0;
  const stale: string[] = [];
  try {
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i);
      if (!key?.startsWith(LOGIN_STATE_PREFIX)) continue;
      let expires: unknown;
      try {
        expires = (JSON.parse(storage.getItem(key) ?? 'null') as { expires?: unknown } | null)?.expires;
      } catch {
        expires = undefined;
      }
      // keycloak-js writes `expires` = creation + 1 h; never trust one further out than the TTL.
      if (typeof expires !== 'number' || expires <= now || expires > now + LOGIN_STATE_TTL_MS) stale.push(key);
    }
    for (const key of stale) storage.removeItem(key);
  } catch {
    return 0;
  }
  return stale.length;
}

/** Reads the claims of a JWT without verifying it (the server verifies; we only display). */
export function decodeClaims(token: string | null | undefined): Record<string, unknown> | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json = decodeURIComponent(
      Array.from(atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=')), (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(
        '',
      ),
    );
    return JSON.parse(json) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export function userFromClaims(claims: Record<string, unknown> | null | undefined): AuthUser | null {
  if (!claims || typeof claims.sub !== 'string' || typeof claims.email !== 'string') return null;
  const user: AuthUser = { sub: claims.sub, email: claims.email };
  if (typeof claims.name === 'string') user.name = claims.name;
  if (typeof claims.preferred_username === 'string') user.username = claims.preferred_username;
  return user;
}

/**
 * The app address (`#/forms/12`) a sign-in started from: OAuth redirect URIs carry no fragment,
 * so it is kept here across the provider's login page and taken back once (null when none).
 */
export function keepReturnAddress(storage: Storage | null, hash: string): void {
  set(storage, STORAGE_KEYS.returnTo, hash);
}

export function takeReturnAddress(storage: Storage | null): string | null {
  const hash = get(storage, STORAGE_KEYS.returnTo);
  set(storage, STORAGE_KEYS.returnTo, null);
  return hash;
}
