/**
 * AUTH=keycloak: tokens shaped like a stock Keycloak realm issues them (header typ JWT, claim
 * typ "Bearer", aud "account", azp = our client), verified against the realm's JWKS fetched over
 * HTTP from a stand-in issuer on a loopback port. Covers the azp rule, ID tokens (typ "ID"), and
 * key rotation: a token with a new kid makes the server refetch the JWKS once.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';
import { buildIdentityApp, type IdentityApp } from './identity-app';

interface Key {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function newKey(kid: string, alg: 'RS256' | 'ES256'): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

let keycloak: Server;
let keycloakUrl: string;
let published: Key[] = [];
let jwksFetches = 0;
let ctx: IdentityApp;
let issuer: string;

beforeAll(async () => {
  published = [await newKey('k1', 'RS256')];
  keycloak = createServer((req, res) => {
    if (req.url === '/realms/moj-travnik/protocol/openid-connect/certs') {
      jwksFetches += 1;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: published.map((k) => k.publicJwk) }));
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => keycloak.listen(0, '127.0.0.1', resolve));
  const address = keycloak.address();
  keycloakUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  issuer = `${keycloakUrl}/realms/moj-travnik`;
  ctx = await buildIdentityApp({
    listen: true,
    auth: 'keycloak',
    keycloak: { url: keycloakUrl, realm: 'moj-travnik', clientId: 'moj-travnik-app' },
    // No cooldown between JWKS fetches, so the rotation case needs no waiting.
    identity: { jwksCooldownMs: 0 },
  });
});

afterAll(async () => {
  await ctx?.close();
  await new Promise((resolve) => keycloak.close(resolve));
});

const now = () => Math.floor(Date.now() / 1000);

function keycloakClaims(overrides: JWTPayload = {}): JWTPayload {
  return {
    iss: issuer,
    sub: 'f2a1',
    typ: 'Bearer',
    aud: 'account',
    azp: 'moj-travnik-app',
    email: 'Urednik@Example.si',
    name: 'Urednik',
    iat: now(),
    exp: now() + 300,
    ...overrides,
  };
}

async function sign(claims: JWTPayload, key: Key = published[0]!, alg: 'RS256' | 'ES256' = 'RS256') {
  return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT', kid: key.kid }).sign(key.privateKey);
}

async function status(token: string) {
  const response = await fetch(`${ctx.origin}/api/whoami`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('AUTH=keycloak', () => {
  test('a stock Keycloak access token (aud account, azp our client) → 200, e-mail lower-cased', async () => {
    const result = await status(await sign(keycloakClaims()));
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ email: 'urednik@example.si', subject: 'f2a1', via: 'token' });
  });

  test('with an audience mapper (aud contains moj-travnik-api) → 200 even for another azp', async () => {
    expect((await status(await sign(keycloakClaims({ aud: ['account', 'moj-travnik-api'], azp: 'other-client' })))).status).toBe(200);
  });

  test.each([
    ['ID token (typ ID)', keycloakClaims({ typ: 'ID', aud: 'moj-travnik-app' })],
    ['another client, no API audience', keycloakClaims({ azp: 'other-client' })],
    ['another realm', keycloakClaims({ iss: `${keycloakUrl}/realms/other` })],
    ['expired', keycloakClaims({ exp: now() - 120 })],
    ['no typ claim and no at+jwt header', keycloakClaims({ typ: undefined })],
  ])('%s → 401', async (_name, claims) => {
    expect((await status(await sign(claims))).status).toBe(401);
  });

  test('rotation: a token signed by a newly published key verifies after one JWKS refetch', async () => {
    const before = jwksFetches;
    const next = await newKey('k2', 'ES256');
    published = [next, ...published];
    expect((await status(await sign(keycloakClaims(), next, 'ES256'))).status).toBe(200);
    expect(jwksFetches).toBe(before + 1);
    // Now cached: the next one needs no fetch.
    expect((await status(await sign(keycloakClaims(), next, 'ES256'))).status).toBe(200);
    expect(jwksFetches).toBe(before + 1);
  });

  test('a kid the issuer never published → 401 (after one refetch)', async () => {
    const stranger = await newKey('k-unknown', 'RS256');
    expect((await status(await sign(keycloakClaims(), stranger))).status).toBe(401);
  });
});
