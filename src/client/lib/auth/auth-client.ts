/**
 * The one wrapper around keycloak-js (each heavy library is wrapped once). It signs in
 * with the authorization code flow and PKCE S256 against whatever /keycloak.json names — the
 * embedded provider or a real Keycloak — and keeps the session alive:
 *
 * - refresh TOKEN_REFRESH_MARGIN_S (30 s) before the access token expires, and when the tab
 *   becomes visible again (a sleeping phone runs no timers);
 * - a failed refresh is logged; a 400 from the token endpoint (session ended, refresh token
 *   revoked or expired) clears the token — any other failure (offline, 5xx) keeps it;
 * - offline, nothing here redirects: the last identity (`user`, `token` in localStorage) is used
 *   and the caller offers sign-in once the server is reachable again.
 *
 * Keycloak's session iframe (login-status-iframe.html, polled every 5 s) is switched off
 * (checkLoginIframe: false): it needs the identity server every 5 s, which an offline-first app
 * in the field does not have, keycloak-js waits on it without a timeout during init, and it
 * relies on third-party cookies that browsers now block. A session ended elsewhere is noticed at
 * the next refresh instead (400 → token cleared), as the token rule says (docs/architecture.md, States and timers).
 */
import Keycloak, { type KeycloakInitOptions } from 'keycloak-js';
import { IDENTITY_MESSAGE_TIMEOUT_MS, TOKEN_REFRESH_MARGIN_S } from '../../../common/constants';
import { safeLocalStorage } from '../local-storage';
import {
  clearIdentity,
  clearTokens,
  decodeClaims,
  keepReturnAddress,
  purgeLoginState,
  readTokens,
  readUser,
  takeReturnAddress,
  userFromClaims,
  writeIdentity,
  writeTokens,
  type AuthUser,
} from './local-identity';

/** What we use of a keycloak-js instance (the real class satisfies it). */
export interface KeycloakLike {
  token?: string;
  refreshToken?: string;
  idToken?: string;
  tokenParsed?: Record<string, unknown> & { exp?: number };
  idTokenParsed?: Record<string, unknown>;
  authenticated?: boolean;
  loginRequired?: boolean;
  timeSkew?: number | null;
  init(options: KeycloakInitOptions): Promise<boolean>;
  updateToken(minValidity: number): Promise<boolean>;
  login(options?: { redirectUri?: string }): Promise<void>;
  logout(options?: { redirectUri?: string }): Promise<void>;
}

export type AuthEvent =
  | { type: 'restored'; user: AuthUser; token: string | null }
  | { type: 'authenticated'; user: AuthUser; token: string }
  | { type: 'token-refreshed'; token: string }
  | { type: 'token-cleared' }
  | { type: 'refresh-failed' }
  | { type: 'sign-in-required' }
  | { type: 'signed-out' };

export type StartResult = 'authenticated' | 'offline' | 'needs-sign-in' | 'redirecting';

export interface AuthClientOptions {
  /** Where keycloak-js reads auth-server-url, realm and resource. */
  configUrl?: string;
  storage?: Storage | null;
  createKeycloak?: (configUrl: string) => KeycloakLike;
  location?: Pick<Location, 'href' | 'origin' | 'pathname' | 'search' | 'hash'>;
  /** Where the address a sign-in started from is put back (the router follows the hashchange). */
  window?: Pick<Window, 'history' | 'dispatchEvent'>;
  now?: () => number;
  logger?: Pick<Console, 'error' | 'warn'>;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

/** keycloak-js rejects with a NetworkError carrying the response; 400 = the grant is gone. */
function statusOf(error: unknown): number | undefined {
  const response = (error as { response?: { status?: unknown } } | null)?.response;
  return typeof response?.status === 'number' ? response.status : undefined;
}

export class AuthClient {
  private keycloak: KeycloakLike | null = null;
  private initialised = false;
  private readonly listeners = new Set<(event: AuthEvent) => void>();
  private timer: unknown = null;
  private readonly storage: Storage | null;
  private readonly configUrl: string;
  private readonly now: () => number;
  private readonly logger: Pick<Console, 'error' | 'warn'>;
  private readonly location: Pick<Location, 'href' | 'origin' | 'pathname' | 'search' | 'hash'>;
  private readonly window: Pick<Window, 'history' | 'dispatchEvent'> | null;

  constructor(private readonly options: AuthClientOptions = {}) {
    this.storage = options.storage === undefined ? safeLocalStorage() : options.storage;
    this.configUrl = options.configUrl ?? '/keycloak.json';
    this.now = options.now ?? (() => Date.now());
    this.logger = options.logger ?? console;
    this.location = options.location ?? window.location;
    this.window = options.window ?? (typeof window === 'undefined' ? null : window);
  }

  subscribe(listener: (event: AuthEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: AuthEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** The identity stored on this device (for an offline start). Also purges old login state. */
  restore(): { user: AuthUser; token: string | null } | null {
    purgeLoginState(this.storage, this.now());
    const user = readUser(this.storage);
    if (!user) return null;
    const restored = { user, token: readTokens(this.storage).token };
    this.emit({ type: 'restored', ...restored });
    return restored;
  }

  hasStoredSession(): boolean {
    return Boolean(readTokens(this.storage).refreshToken);
  }

  /** The app was opened by the provider's redirect (`?code=…&state=…`). */
  isLoginCallback(): boolean {
    const url = new URL(this.location.href);
    return url.searchParams.has('state') && (url.searchParams.has('code') || url.searchParams.has('error'));
  }

  /** The current access token (possibly expired: the server decides). */
  getToken(): string | null {
    return this.keycloak?.token ?? readTokens(this.storage).token;
  }

  isAuthenticated(): boolean {
    return Boolean(this.keycloak?.authenticated && this.keycloak.token);
  }

  /**
   * Before the login page: keeps the app address the user asked for (a link to a form, a path),
   * which the redirect back cannot carry (OAuth forbids a fragment in the redirect URI).
   */
  private keepAddress(): void {
    const hash = this.location.hash;
    if (hash && hash !== '#' && hash !== '#/') keepReturnAddress(this.storage, hash);
  }

  /**
   * Back from the login page, signed in: the kept address replaces the bare one keycloak-js left
   * (no new history entry), and a hashchange tells the router. The screen's own checks apply as
   * for any link: another farmer's record still says it is not theirs (the server answers 404).
   */
  private returnToAddress(): void {
    const hash = takeReturnAddress(this.storage);
    if (!hash || !this.window || (this.location.hash && this.location.hash !== '#' && this.location.hash !== '#/')) return;
    const { history } = this.window;
    history.replaceState(history.state, '', `${this.location.pathname}${this.location.search}${hash}`);
    this.window.dispatchEvent(new HashChangeEvent('hashchange'));
  }

  private redirectUri(): string {
    // Hash routes (#/paths/3) stay out of the redirect URI: OAuth forbids fragments there.
    return `${this.location.origin}${this.location.pathname}`;
  }

  private initOptions(): KeycloakInitOptions {
    return {
      pkceMethod: 'S256',
      checkLoginIframe: false,
      responseMode: 'query',
      scope: 'openid profile email',
      redirectUri: this.redirectUri(),
      messageReceiveTimeout: IDENTITY_MESSAGE_TIMEOUT_MS,
      enableLogging: false,
    };
  }

  private instance(): KeycloakLike {
    if (!this.keycloak) {
      const create = this.options.createKeycloak ?? ((url: string) => new Keycloak(url) as unknown as KeycloakLike);
      this.keycloak = create(this.configUrl);
    }
    return this.keycloak;
  }

  /**
   * Starts the session. `reachable`: the server answered just now. `allowRedirect`: with no
   * usable session, go to the login page (login-required) — the caller says no when edits wait
   * to sync and the user should rather be asked.
   */
  async start({ reachable, allowRedirect }: { reachable: boolean; allowRedirect: boolean }): Promise<StartResult> {
    const callback = this.isLoginCallback();
    if (!reachable && !callback) return 'offline';
    if (this.initialised && this.isAuthenticated()) return 'authenticated';
    const keycloak = this.instance();
    const stored = readTokens(this.storage);
    try {
      if (!this.initialised && callback) {
        this.initialised = true;
        await keycloak.init({ ...this.initOptions(), onLoad: 'login-required' });
      } else if (!this.initialised && stored.token && stored.refreshToken) {
        this.initialised = true;
        // keycloak-js renews at once (updateToken(-1)); no onLoad, so a failure throws here
        // instead of leaving the page.
        await keycloak.init({
          ...this.initOptions(),
          token: stored.token,
          refreshToken: stored.refreshToken,
          ...(stored.idToken ? { idToken: stored.idToken } : {}),
        });
      } else if (!this.initialised) {
        this.initialised = true;
        if (allowRedirect) {
          this.keepAddress();
          await keycloak.init({ ...this.initOptions(), onLoad: 'login-required' });
          if (!keycloak.authenticated) return 'redirecting';
        } else {
          await keycloak.init(this.initOptions());
        }
      } else if (keycloak.refreshToken) {
        await keycloak.updateToken(-1);
      }
    } catch (error) {
      return this.afterFailedRenewal(error, allowRedirect);
    }
    // From here on our code decides about redirects: keycloak-js would otherwise jump to the
    // login page by itself when a later refresh gets a 400 (clearToken → login()).
    keycloak.loginRequired = false;
    if (!keycloak.authenticated || !keycloak.token) {
      if (allowRedirect) {
        this.keepAddress();
        await keycloak.login({ redirectUri: this.redirectUri() });
        return 'redirecting';
      }
      this.emit({ type: 'sign-in-required' });
      return 'needs-sign-in';
    }
    this.tokensChanged('authenticated');
    if (callback) this.returnToAddress();
    return 'authenticated';
  }

  private async afterFailedRenewal(error: unknown, allowRedirect: boolean): Promise<StartResult> {
    const status = statusOf(error);
    this.logger.error('token refresh failed', error);
    if (status === 400) {
      clearTokens(this.storage);
      this.emit({ type: 'token-cleared' });
      if (allowRedirect) {
        await this.login();
        return 'redirecting';
      }
      this.emit({ type: 'sign-in-required' });
      return 'needs-sign-in';
    }
    if (status === undefined || status >= 500) {
      // Unreachable after all: keep everything, try again when the server answers.
      this.initialised = this.keycloak?.authenticated === true;
      this.emit({ type: 'refresh-failed' });
      return 'offline';
    }
    this.emit({ type: 'sign-in-required' });
    return 'needs-sign-in';
  }

  private tokensChanged(kind: 'authenticated' | 'token-refreshed'): void {
    const keycloak = this.keycloak!;
    const token = keycloak.token!;
    const user = userFromClaims(keycloak.idTokenParsed) ?? userFromClaims(keycloak.tokenParsed ?? decodeClaims(token));
    const tokens = { token, refreshToken: keycloak.refreshToken ?? null, idToken: keycloak.idToken ?? null };
    if (user) writeIdentity(this.storage, user, tokens);
    else writeTokens(this.storage, tokens);
    this.schedule();
    if (kind === 'authenticated' && user) this.emit({ type: 'authenticated', user, token });
    else this.emit({ type: 'token-refreshed', token });
  }

  /** Seconds until the access token expires, by the server's clock (keycloak-js measures the skew). */
  private secondsLeft(): number | null {
    const exp = this.keycloak?.tokenParsed?.exp;
    if (typeof exp !== 'number') return null;
    return exp - this.now() / 1000 + (this.keycloak?.timeSkew ?? 0);
  }

  private schedule(): void {
    const clear = this.options.clearTimeout ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>));
    const later = this.options.setTimeout ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
    if (this.timer !== null) clear(this.timer);
    this.timer = null;
    const left = this.secondsLeft();
    if (left === null) return;
    // Normally `margin` seconds before expiry. A token that lives no longer than the margin
    // (a short test lifetime, or a skewed clock) is refreshed at half its remaining life instead,
    // so a fresh token never triggers the next refresh at once (a loop hammering the server).
    const delayMs = left > TOKEN_REFRESH_MARGIN_S ? (left - TOKEN_REFRESH_MARGIN_S) * 1000 : Math.max(1_000, left * 500);
    this.timer = later(() => {
      this.timer = null;
      // Forced: at exactly `margin` seconds left keycloak-js's own check says "not yet".
      void this.refresh(-1);
    }, delayMs);
  }

  /**
   * Refreshes when the token expires within `minValidity` seconds (-1: always). Resolves true
   * when a valid token is in place afterwards.
   */
  async refresh(minValidity: number = TOKEN_REFRESH_MARGIN_S): Promise<boolean> {
    const keycloak = this.keycloak;
    if (!keycloak?.refreshToken || !this.initialised) return false;
    // Another tab of the app may have refreshed (and, late in its life, rotated) the refresh
    // token; using the consumed old one would make the provider revoke the whole session.
    const stored = readTokens(this.storage).refreshToken;
    if (stored && stored !== keycloak.refreshToken) keycloak.refreshToken = stored;
    try {
      const refreshed = await keycloak.updateToken(minValidity);
      if (refreshed) this.tokensChanged('token-refreshed');
      return Boolean(keycloak.token);
    } catch (error) {
      this.logger.error('token refresh failed', error);
      if (statusOf(error) === 400) {
        clearTokens(this.storage);
        this.emit({ type: 'token-cleared' });
        this.emit({ type: 'sign-in-required' });
      } else {
        this.emit({ type: 'refresh-failed' });
      }
      return false;
    }
  }

  /** The tab became visible: a phone that slept ran no timers, so check the token now. */
  onVisible(): Promise<boolean> {
    return this.refresh(TOKEN_REFRESH_MARGIN_S);
  }

  /** A token good for at least the margin when one can be had; else the current one (or null). */
  async freshToken(): Promise<string | null> {
    if (this.isAuthenticated()) {
      const left = this.secondsLeft();
      const parsed = this.keycloak?.tokenParsed;
      const lifetime = typeof parsed?.exp === 'number' && typeof parsed.iat === 'number' ? parsed.exp - parsed.iat : Infinity;
      // Same threshold as the timer: never refresh a token that was just issued.
      if (left !== null && left < Math.min(TOKEN_REFRESH_MARGIN_S, lifetime / 2)) await this.refresh(-1);
    }
    return this.getToken();
  }

  /** Goes to the login page (online only). Unsynced edits stay in IndexedDB meanwhile. */
  async login(): Promise<void> {
    const keycloak = this.instance();
    if (!this.initialised) {
      this.initialised = true;
      await keycloak.init(this.initOptions());
    }
    this.keepAddress();
    await keycloak.login({ redirectUri: this.redirectUri() });
  }

  /** Forgets the identity on this device and ends the provider session when reachable. */
  async logout({ reachable }: { reachable: boolean }): Promise<void> {
    const idToken = this.keycloak?.idToken ?? readTokens(this.storage).idToken;
    clearIdentity(this.storage);
    this.emit({ type: 'signed-out' });
    if (!reachable) return;
    const keycloak = this.instance();
    if (!this.initialised) {
      this.initialised = true;
      await keycloak.init(this.initOptions()).catch(() => false);
    }
    if (idToken && !keycloak.idToken) keycloak.idToken = idToken;
    await keycloak.logout({ redirectUri: this.redirectUri() });
  }
}
