/**
 * Signing keys and cookie secrets of the embedded provider. Generated on first start and kept in
 * the database (identity_secrets), so a restart — or a second server process on the same database —
 * keeps issued tokens and sessions valid. The first key signs; older ones stay in the JWKS so
 * tokens signed before a rotation still verify until they expire.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { SecretStore } from './store';

const SIGNING_KEYS = 'oidc-signing-keys';
const COOKIE_KEYS = 'oidc-cookie-keys';

export interface IdentityKeys {
  /** Private keys, the signing one first (the format oidc-provider's `jwks` option takes). */
  privateJwks: { keys: JWK[] };
  /** Public halves, for our own token verification. */
  publicJwks: { keys: JWK[] };
  cookieKeys: string[];
}

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

function publicPart(jwk: JWK): JWK {
  const { kty, n, e, crv, x, y, kid, alg, use } = jwk;
  return Object.fromEntries(Object.entries({ kty, n, e, crv, x, y, kid, alg, use }).filter(([, v]) => v !== undefined)) as JWK;
}

export async function loadKeys(secrets: SecretStore): Promise<IdentityKeys> {
  const signing = JSON.parse(await secrets.getOrCreate(SIGNING_KEYS, async () => JSON.stringify({ keys: [await newSigningKey()] }))) as { keys: JWK[] };
  const cookieKeys = JSON.parse(await secrets.getOrCreate(COOKIE_KEYS, async () => JSON.stringify([randomBytes(32).toString('base64url')]))) as string[];
  return { privateJwks: signing, publicJwks: { keys: signing.keys.map(publicPart) }, cookieKeys };
}

/**
 * Puts a new signing key in front; the previous ones are kept (at most `keep` in all) so tokens
 * they signed verify until expiry. Running servers pick the new key up on restart; verifiers
 * reload the key set when they meet an unknown `kid`.
 */
export async function rotateSigningKey(secrets: SecretStore, keep = 3): Promise<IdentityKeys> {
  const current = await loadKeys(secrets);
  const keys = [await newSigningKey(), ...current.privateJwks.keys].slice(0, keep);
  await secrets.set(SIGNING_KEYS, JSON.stringify({ keys }));
  return loadKeys(secrets);
}
