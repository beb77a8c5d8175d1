/**
 * A minimal OpenID Connect relying party for tests, speaking to the embedded provider over real
 * HTTP the way keycloak-js does: authorization code + PKCE S256, the login form, token and
 * refresh grants. Keeps a cookie jar so the provider's session and interaction cookies work.
 */
import { createHash, randomBytes } from 'node:crypto';

const CLIENT_ID = 'moj-travnik-app';

class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export interface TokenSet {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_in: number;
  token_type: string;
}

export interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  end_session_endpoint: string;
  userinfo_endpoint: string;
  jwks_uri: string;
  [key: string]: unknown;
}

const b64url = (buf: Buffer) => buf.toString('base64url');

export class OidcTestClient {
  readonly jar = new CookieJar();

  constructor(
    readonly origin: string,
    readonly realmUrl = `${origin}/auth/realms/moj-travnik`,
  ) {}

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.jar.header();
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.jar.store(response);
    return response;
  }

  async discovery(): Promise<Discovery> {
    const response = await fetch(`${this.realmUrl}/.well-known/openid-configuration`);
    if (!response.ok) throw new Error(`discovery ${response.status}`);
    return (await response.json()) as Discovery;
  }

  /** Starts a sign-in; returns the login page URL and what the token request will need. */
  async startLogin(options: { redirectUri?: string; pkce?: boolean } = {}) {
    const d = await this.discovery();
    const verifier = b64url(randomBytes(32));
    const challenge = b64url(createHash('sha256').update(verifier).digest());
    const state = b64url(randomBytes(16));
    const redirectUri = options.redirectUri ?? `${this.origin}/`;
    const params = new URLSearchParams({
      client_id: CLIENT_ID,
      redirect_uri: redirectUri,
      response_type: 'code',
      response_mode: 'query',
      scope: 'openid profile email',
      state,
      nonce: b64url(randomBytes(16)),
    });
    if (options.pkce !== false) {
      params.set('code_challenge', challenge);
      params.set('code_challenge_method', 'S256');
    }
    const response = await this.fetch(`${d.authorization_endpoint}?${params}`);
    const location = response.headers.get('location');
    return { response, location: location ? new URL(location, this.origin).href : undefined, verifier, state, redirectUri, discovery: d };
  }

  /** Posts the login form; returns the response (303 onwards on success, 200 page with an error otherwise). */
  async submitLogin(loginUrl: string, username: string, password: string): Promise<Response> {
    return this.fetch(loginUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password }).toString(),
    });
  }

  /** Follows redirects until one leaves the provider (the app's redirect_uri) and returns that URL. */
  async followToApp(start: string, redirectUri: string): Promise<URL> {
    let url = start;
    for (let i = 0; i < 10; i += 1) {
      const parsed = new URL(url);
      if (`${parsed.origin}${parsed.pathname}` === redirectUri) return parsed;
      const response = await this.fetch(url);
      const location = response.headers.get('location');
      if (!location) throw new Error(`expected a redirect from ${url}, got ${response.status}: ${(await response.text()).slice(0, 300)}`);
      url = new URL(location, url).href;
    }
    throw new Error('too many redirects');
  }

  async exchangeCode(tokenEndpoint: string, code: string, verifier: string, redirectUri: string): Promise<Response> {
    return fetch(tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: CLIENT_ID,
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri,
      }).toString(),
    });
  }

  async refresh(tokenEndpoint: string, refreshToken: string): Promise<Response> {
    return fetch(tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: CLIENT_ID, refresh_token: refreshToken }).toString(),
    });
  }

  /** The whole sign-in: returns the token set. */
  async signIn(username: string, password: string): Promise<TokenSet & { discovery: Discovery }> {
    const start = await this.startLogin();
    if (!start.location) throw new Error(`authorization did not redirect: ${start.response.status}`);
    const login = await this.submitLogin(start.location, username, password);
    const next = login.headers.get('location');
    if (login.status !== 303 || !next) throw new Error(`login failed: ${login.status}`);
    const back = await this.followToApp(new URL(next, this.origin).href, start.redirectUri);
    const code = back.searchParams.get('code');
    if (!code || back.searchParams.get('state') !== start.state) throw new Error(`no code in ${back.href}`);
    const tokens = await this.exchangeCode(start.discovery.token_endpoint, code, start.verifier, start.redirectUri);
    if (!tokens.ok) throw new Error(`token ${tokens.status}: ${await tokens.text()}`);
    return { ...((await tokens.json()) as TokenSet), discovery: start.discovery };
  }
}
