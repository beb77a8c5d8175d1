/**
 * The embedded provider end to end over real HTTP (loopback, port 0): Keycloak's URL layout in
 * the discovery document, code + PKCE sign-in through the Slovenian login page, refresh, userinfo,
 * logout, what is refused (no PKCE, foreign redirect URI, wrong password), and that a restart
 * keeps tokens and sessions valid (keys and provider storage live in the database).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { slAuth } from '../../../src/common/i18n/sl';
import { buildIdentityApp, type IdentityApp } from './identity-app';
import { OidcTestClient, type TokenSet } from './oidc-client';

let ctx: IdentityApp;
let realm: string;
beforeAll(async () => {
  ctx = await buildIdentityApp({ listen: true, identity: { accessTokenTtl: 120 } });
  realm = `${ctx.origin}/auth/realms/moj-travnik`;
});
afterAll(async () => ctx.close());

describe('discovery under the Keycloak layout', () => {
  test('every endpoint sits under {auth-server-url}/realms/{realm}/protocol/openid-connect', async () => {
    const d = await new OidcTestClient(ctx.origin).discovery();
    expect(d.issuer).toBe(realm);
    expect(d.authorization_endpoint).toBe(`${realm}/protocol/openid-connect/auth`);
    expect(d.token_endpoint).toBe(`${realm}/protocol/openid-connect/token`);
    expect(d.end_session_endpoint).toBe(`${realm}/protocol/openid-connect/logout`);
    expect(d.userinfo_endpoint).toBe(`${realm}/protocol/openid-connect/userinfo`);
    expect(d.jwks_uri).toBe(`${realm}/protocol/openid-connect/certs`);
    expect(d.code_challenge_methods_supported).toEqual(['S256']);
    expect(d.response_types_supported).toEqual(['code']);
  });

  test('the certs endpoint publishes public keys only', async () => {
    const jwks = (await (await fetch(`${realm}/protocol/openid-connect/certs`)).json()) as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const key of jwks.keys) {
      expect(key.kid).toEqual(expect.any(String));
      expect(key).not.toHaveProperty('d');
      expect(key).not.toHaveProperty('p');
    }
  });
});

describe('sign-in, API call, refresh, userinfo, logout', () => {
  let client: OidcTestClient;
  let tokens: TokenSet & { discovery: { token_endpoint: string; end_session_endpoint: string } };

  beforeAll(async () => {
    client = new OidcTestClient(ctx.origin);
    tokens = await client.signIn('kmet2@example.si', 'demo');
  });

  test('the access token is an RFC 9068 JWT for the API with e-mail and name', () => {
    expect(decodeProtectedHeader(tokens.access_token).typ).toBe('at+jwt');
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({ iss: realm, aud: 'moj-travnik-api', azp: 'moj-travnik-app', email: 'kmet2@example.si', name: 'Marija Horvat' });
    expect(tokens.expires_in).toBe(120);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    // keycloak-js shows the user from the ID token: it carries the same identity.
    expect(decodeJwt(tokens.id_token!)).toMatchObject({ email: 'kmet2@example.si', name: 'Marija Horvat', aud: 'moj-travnik-app' });
  });

  test('the refresh token is JWT-shaped, as keycloak-js decodes it (the opaque token rides inside)', () => {
    const parts = tokens.refresh_token!.split('.');
    expect(parts).toHaveLength(3);
    const claims = decodeJwt(tokens.refresh_token!);
    expect(claims).toMatchObject({ typ: 'Refresh', azp: 'moj-travnik-app' });
    expect(claims.exp).toBeGreaterThan(Math.floor(Date.now() / 1000) + 24 * 3600);
  });

  test('a refresh token whose inner value was changed is refused with 400', async () => {
    const [h, p, inner] = tokens.refresh_token!.split('.');
    const changed = `${h}.${p}.${inner!.slice(0, -2)}${inner!.endsWith('AA') ? 'BB' : 'AA'}`;
    const response = await client.refresh(tokens.discovery.token_endpoint, changed);
    expect(response.status).toBe(400);
  });

  test('the API accepts it', async () => {
    const response = await fetch(`${ctx.origin}/api/whoami`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ email: 'kmet2@example.si', via: 'token' });
  });

  test('userinfo answers for the access token (as Keycloak does), 401 without one', async () => {
    const ok = await fetch(`${realm}/protocol/openid-connect/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ email: 'kmet2@example.si', name: 'Marija Horvat', email_verified: true });
    expect((await fetch(`${realm}/protocol/openid-connect/userinfo`)).status).toBe(401);
  });

  test('refresh gives a new, valid access token; a wrong refresh token gets 400 (the client then clears its token)', async () => {
    const refreshed = await client.refresh(tokens.discovery.token_endpoint, tokens.refresh_token!);
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as TokenSet;
    expect(next.access_token).not.toBe(tokens.access_token);
    expect(decodeJwt(next.access_token)).toMatchObject({ email: 'kmet2@example.si', aud: 'moj-travnik-api' });
    const api = await fetch(`${ctx.origin}/api/whoami`, { headers: { authorization: `Bearer ${next.access_token}` } });
    expect(api.status).toBe(200);

    const bad = await client.refresh(tokens.discovery.token_endpoint, 'not-a-refresh-token');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'invalid_grant' });
  });

  test('logout with id_token_hint ends the session: the refresh token stops working', async () => {
    const url = new URL(tokens.discovery.end_session_endpoint);
    url.searchParams.set('id_token_hint', tokens.id_token!);
    url.searchParams.set('post_logout_redirect_uri', `${ctx.origin}/`);
    url.searchParams.set('client_id', 'moj-travnik-app');
    const page = await client.fetch(url.href);
    expect(page.status).toBe(200);
    const html = await page.text();
    // The confirmation form submits itself (keycloak-js logout needs no click, like Keycloak).
    const action = /<form[^>]*action="([^"]+)"/.exec(html)![1]!;
    const fields = Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    expect(fields.logout).toBe('yes');
    const confirm = await client.fetch(new URL(action, ctx.origin).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    expect(confirm.status).toBe(303);
    const done = new URL(confirm.headers.get('location')!, ctx.origin);
    expect(`${done.origin}${done.pathname}`).toBe(`${ctx.origin}/`);

    const after = await client.refresh(tokens.discovery.token_endpoint, tokens.refresh_token!);
    expect(after.status).toBe(400);
  });
});

describe('what the provider refuses', () => {
  test('authorization without PKCE is sent back with an error', async () => {
    const start = await new OidcTestClient(ctx.origin).startLogin({ pkce: false });
    const location = new URL(start.location!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  test('a redirect URI of a foreign origin gets an error page and no redirect', async () => {
    const start = await new OidcTestClient(ctx.origin).startLogin({ redirectUri: 'https://evil.example/' });
    expect(start.response.status).toBe(400);
    expect(start.location).toBeUndefined();
    const html = await start.response.text();
    expect(html).toContain(slAuth.error.heading);
    expect(html).toContain('lang="sl"');
  });

  test('demo mode accepts a dev server on another loopback port', async () => {
    const start = await new OidcTestClient(ctx.origin).startLogin({ redirectUri: 'http://localhost:9000/' });
    expect(start.response.status).toBe(303);
    expect(start.location).toContain('/login-actions/');
  });

  test('wrong password: the login page again, with the Slovenian error, nothing signed in', async () => {
    const client = new OidcTestClient(ctx.origin);
    const start = await client.startLogin();
    const page = await client.fetch(start.location!);
    expect(page.status).toBe(200);
    const form = await page.text();
    expect(form).toContain('<label for="username">E-pošta ali uporabniško ime</label>');
    expect(form).toContain('<label for="password">Geslo</label>');
    expect(form).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)/); // nothing from elsewhere
    expect(form).toContain('kmet1@example.si (kmet)'); // demo mode lists the demo accounts, in Slovenian

    const wrong = await client.submitLogin(start.location!, 'kmet1@example.si', 'napačno');
    expect(wrong.status).toBe(200);
    const html = await wrong.text();
    expect(html).toContain(slAuth.login.invalidCredentials);
    expect(html).toContain('role="alert"');
    expect(html).toContain('value="kmet1@example.si"'); // the login stays filled in

    const unknown = await client.submitLogin(start.location!, 'nihce@example.si', 'demo');
    expect(await unknown.text()).toContain(slAuth.login.invalidCredentials);

    const empty = await client.submitLogin(start.location!, '', '');
    expect(await empty.text()).toContain(slAuth.login.missingFields);

    // The same interaction still signs in with the right password.
    const right = await client.submitLogin(start.location!, 'KMET1@example.si ', 'demo');
    expect(right.status).toBe(303);
  });

  test('after 10 wrong passwords for one login, even the right one is refused for a while', async () => {
    const client = new OidcTestClient(ctx.origin);
    const start = await client.startLogin();
    for (let i = 0; i < 10; i += 1) {
      expect(await (await client.submitLogin(start.location!, 'bralec@example.si', `narobe${i}`)).text()).toContain(slAuth.login.invalidCredentials);
    }
    const blocked = await client.submitLogin(start.location!, 'bralec@example.si', 'demo');
    expect(blocked.status).toBe(429);
    const wait = Number(blocked.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(await blocked.text()).toContain(slAuth.login.tooManyAttempts(wait));
  });

  test('logout refuses to send the browser to a foreign post_logout_redirect_uri', async () => {
    const tokens = await new OidcTestClient(ctx.origin).signIn('urednik@example.si', 'demo');
    const url = new URL(`${realm}/protocol/openid-connect/logout`);
    url.searchParams.set('id_token_hint', tokens.id_token!);
    url.searchParams.set('post_logout_redirect_uri', 'https://evil.example/');
    // As a browser asks for it (an API client asking for JSON gets the error as JSON).
    const response = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain(slAuth.error.heading);
  });

  test('a login page without its interaction cookie (expired or forged) says so', async () => {
    const client = new OidcTestClient(ctx.origin);
    const start = await client.startLogin();
    const stranger = await fetch(start.location!, { redirect: 'manual' });
    expect(stranger.status).toBe(400);
    expect(await stranger.text()).toContain(slAuth.login.expired);
    const post = await fetch(start.location!, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=kmet1%40example.si&password=demo',
    });
    expect(post.status).toBe(400);
  });
});

describe('restart', () => {
  test('tokens and refresh tokens issued before a restart stay valid (keys and storage in the database)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'travnik-restart-'));
    try {
      const first = await buildIdentityApp({ listen: true, dataDir });
      const tokens = await new OidcTestClient(first.origin).signIn('urednik@example.si', 'demo');
      await first.close();

      const second = await buildIdentityApp({ listen: true, dataDir });
      try {
        // Same host (127.0.0.1), new port: a new issuer, so the old access token is refused as
        // from another origin — but the keys are the same and the refresh token still works.
        const refreshed = await new OidcTestClient(second.origin).refresh(
          `${second.origin}/auth/realms/moj-travnik/protocol/openid-connect/token`,
          tokens.refresh_token!,
        );
        expect(refreshed.status).toBe(200);
        const next = (await refreshed.json()) as TokenSet;
        expect(decodeProtectedHeader(next.access_token).kid).toBe(decodeProtectedHeader(tokens.access_token).kid);
        const api = await fetch(`${second.origin}/api/whoami`, { headers: { authorization: `Bearer ${next.access_token}` } });
        expect(api.status).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
