/**
 * Bearer token verification of the embedded mode: every way a token can be wrong gets 401, a
 * good one gets through. Tokens are minted two ways: by the real provider through the real
 * sign-in (the good case and the ID-token case), and by signing crafted claims with the
 * provider's own key (to vary exactly one thing at a time) or with a stranger's key.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { API_AUDIENCE, CLIENT_ID } from '../../../src/server/idp/constants';
import { rotateSigningKey } from '../../../src/server/idp/keys';
import { SecretStore, type IdentityDb } from '../../../src/server/idp/store';
import { buildIdentityApp, type IdentityApp } from './identity-app';
import { OidcTestClient } from './oidc-client';

let ctx: IdentityApp;
let issuer: string;
let signingJwk: JWK;
let real: Awaited<ReturnType<OidcTestClient['signIn']>>;

beforeAll(async () => {
  ctx = await buildIdentityApp({ listen: true });
  issuer = `${ctx.origin}/auth/realms/moj-travnik`;
  signingJwk = ctx.identity.idp!.keys().privateJwks.keys[0]!;
  real = await new OidcTestClient(ctx.origin).signIn('kmet1@example.si', 'demo');
});
afterAll(async () => ctx.close());

const now = () => Math.floor(Date.now() / 1000);

function claims(overrides: JWTPayload = {}): JWTPayload {
  return {
    iss: issuer,
    sub: 'user-1',
    aud: API_AUDIENCE,
    azp: CLIENT_ID,
    client_id: CLIENT_ID,
    email: 'kmet1@example.si',
    name: 'Kmet Ena',
    iat: now(),
    exp: now() + 300,
    ...overrides,
  };
}

async function sign(payload: JWTPayload, { jwk = signingJwk, typ = 'at+jwt', kid = signingJwk.kid, alg = 'RS256' } = {}): Promise<string> {
  const key = await importJWK(jwk, alg);
  const header: { alg: string; typ?: string; kid?: string } = { alg };
  if (typ) header.typ = typ;
  if (kid) header.kid = kid;
  return new SignJWT(payload).setProtectedHeader(header).sign(key);
}

async function call(token: string | undefined, scheme = 'Bearer') {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = `${scheme} ${token}`;
  // Real HTTP rather than app.inject: inject loads the ESM-only `cookie` package, which jest's
  // CommonJS loader cannot require.
  const response = await fetch(`${ctx.origin}/api/whoami`, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('valid tokens', () => {
  test('the access token from a real sign-in → 200 with the e-mail', async () => {
    const { status, body } = await call(real.access_token);
    expect(status).toBe(200);
    expect(body).toMatchObject({ email: 'kmet1@example.si', name: 'Janez Novak', via: 'token' });
  });

  test('a crafted token signed with the provider key → 200', async () => {
    expect((await call(await sign(claims()))).status).toBe(200);
  });

  test('expired 10 s ago is still inside the 30 s clock skew → 200', async () => {
    expect((await call(await sign(claims({ exp: now() - 10 })))).status).toBe(200);
  });

  test('Keycloak style: header typ JWT with claim typ Bearer → 200', async () => {
    expect(await call(await sign(claims({ typ: 'Bearer' }), { typ: 'JWT' }))).toMatchObject({ status: 200 });
  });

  test('no Authorization header → no principal (the probe answers 401, message from the catalogue)', async () => {
    const { status, body } = await call(undefined);
    expect(status).toBe(401);
    expect(body.message).toBe('Unauthorized');
  });
});

describe('rejected tokens → 401', () => {
  const cases: Array<[string, () => Promise<string>]> = [
    ['expired (2 min ago)', () => sign(claims({ exp: now() - 120 }))],
    ['not yet valid (nbf in 2 min)', () => sign(claims({ nbf: now() + 120 }))],
    ['without exp', async () => sign(Object.fromEntries(Object.entries(claims()).filter(([k]) => k !== 'exp')))],
    ['wrong issuer', () => sign(claims({ iss: 'http://evil.example/auth/realms/moj-travnik' }))],
    ['wrong audience', () => sign(claims({ aud: 'some-other-api' }))],
    ['audience missing even though azp is our client (embedded mode is strict)', () => sign(claims({ aud: undefined }))],
    ['ID token shape (no at+jwt, aud = client)', () => sign(claims({ aud: CLIENT_ID }), { typ: '' })],
    ['Keycloak ID token (typ claim ID)', () => sign(claims({ typ: 'ID' }), { typ: 'JWT' })],
    ['without e-mail', () => sign(claims({ email: undefined }))],
    [
      'forged: signed by another key under the known kid',
      async () => {
        const { privateKey } = await generateKeyPair('RS256', { extractable: true });
        return sign(claims(), { jwk: await exportJWK(privateKey) });
      },
    ],
    [
      'unknown kid (another key)',
      async () => {
        const { privateKey } = await generateKeyPair('RS256', { extractable: true });
        return sign(claims(), { jwk: await exportJWK(privateKey), kid: 'not-a-known-kid' });
      },
    ],
    [
      'alg none',
      async () => {
        const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
        return `${part({ alg: 'none', typ: 'at+jwt' })}.${part(claims())}.`;
      },
    ],
    [
      'HS256 with the public key as the secret (algorithm confusion)',
      async () => {
        const secret = new TextEncoder().encode(JSON.stringify({ kty: signingJwk.kty, n: signingJwk.n, e: signingJwk.e }));
        return new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: signingJwk.kid! }).sign(secret);
      },
    ],
    [
      'tampered payload (e-mail changed after signing)',
      async () => {
        const [h, , s] = real.access_token.split('.');
        const payload = JSON.parse(Buffer.from(real.access_token.split('.')[1]!, 'base64url').toString()) as JWTPayload;
        payload.email = 'kmet2@example.si';
        return `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
      },
    ],
    ['the real ID token', async () => real.id_token!],
    ['the real refresh token', async () => real.refresh_token!],
    ['garbage', async () => 'not.a.token'],
  ];

  test.each(cases)('%s', async (_name, make) => {
    const { status, body } = await call(await make());
    expect(status).toBe(401);
    expect(body).toMatchObject({ status: 401, message: 'Unauthorized' });
  });

  test('Basic credentials in token mode', async () => {
    expect((await call(Buffer.from('kmet1@example.si:demo').toString('base64'), 'Basic')).status).toBe(401);
  });
});

describe('key rotation', () => {
  // Its own server: the unknown-kid cases above already used up the reload allowance (one
  // reload per 30 s) of the shared one.
  test('a token signed with a key rotated in by another process verifies after one reload', async () => {
    const own = await buildIdentityApp({ listen: true });
    try {
      const before = own.identity.idp!.keys().privateJwks.keys[0]!;
      const ownIssuer = `${own.origin}/auth/realms/moj-travnik`;
      const rotated = await rotateSigningKey(new SecretStore(own.db as unknown as IdentityDb));
      const newKey = rotated.privateJwks.keys[0]!;
      expect(newKey.kid).not.toBe(before.kid);
      const get = async (token: string) => (await fetch(`${own.origin}/api/whoami`, { headers: { authorization: `Bearer ${token}` } })).status;
      expect(await get(await sign(claims({ iss: ownIssuer }), { jwk: newKey, kid: newKey.kid }))).toBe(200);
      // The previous key still verifies tokens it signed before the rotation.
      expect(await get(await sign(claims({ iss: ownIssuer }), { jwk: before, kid: before.kid }))).toBe(200);
    } finally {
      await own.close();
    }
  }, 30_000); // Builds its own app (migrations, signing keys): over 5 s on a loaded 2-core machine.
});
