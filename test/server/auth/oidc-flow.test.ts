import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { buildIdentityApp, type IdentityApp } from './identity-app';
import { OidcTestClient } from './oidc-client';

let ctx: IdentityApp;
beforeAll(async () => {
  ctx = await buildIdentityApp({ listen: true, identity: { accessTokenTtl: 60 } });
});
afterAll(async () => ctx.close());

describe('embedded provider: code + PKCE + refresh over real HTTP', () => {
  test('a farmer signs in, calls the API, refreshes', async () => {
    const client = new OidcTestClient(ctx.origin);
    const tokens = await client.signIn('kmet1@example.si', 'demo');
    const header = decodeProtectedHeader(tokens.access_token);
    const claims = decodeJwt(tokens.access_token);
    console.log(header, claims, tokens);
    expect(header.typ).toBe('at+jwt');
  });
});
