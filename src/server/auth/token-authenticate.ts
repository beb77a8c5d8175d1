/**
 * Bearer token authentication for the embedded provider and for an external Keycloak.
 *
 * Checks, in order: a JWS signed with an allowed algorithm (RS256, ES256, PS256 — never `none` or
 * HMAC, which would let anyone holding the public key forge tokens) by a key of the issuer's JWKS;
 * `iss`; `exp`/`nbf` with 30 s clock skew; the audience; and that it is an access token, not an
 * ID token. Access tokens say so differently: RFC 9068 tokens (oidc-provider) carry the header
 * `typ: at+jwt`; Keycloak's carry the claim `typ: "Bearer"` (its ID tokens say `"ID"`).
 *
 * Audience: our tokens must name the API (`aud` contains moj-travnik-api). Keycloak's adapters
 * skip the audience check by default; we keep it on but, for Keycloak, also accept a token whose
 * authorised party (`azp`) is our client, because a stock Keycloak realm puts `account` in `aud`
 * unless an audience mapper is configured (see README, Sign-in).
 *
 * Key rotation: a token with an unknown `kid` makes us reload the key set once (remote JWKS:
 * jose refetches, at most every 30 s; embedded: re-read from the database) before rejecting it.
 */
import type { FastifyRequest } from 'fastify';
import { createLocalJWKSet, createRemoteJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { unauthenticated } from '../domain-errors';
import type { Authenticate, Principal } from './principal';
import { credentialsOf } from './credentials';

const ALLOWED_ALGORITHMS = ['RS256', 'ES256', 'PS256'] as const;
const CLOCK_SKEW_S = 30;

export interface TokenAuthenticateOptions {
  /** Key resolution. */
  keys: KeySource;
  /** Accepted issuer(s) for this request. */
  issuers(request: FastifyRequest): string[];
  /** The API audience that must be in `aud`. */
  audience: string;
  /** Also accept tokens whose `azp` is this client (external Keycloak without an audience mapper). */
  azpClientId?: string;
}

export interface KeySource {
  getKey: JWTVerifyGetKey;
  /** Called once when the token's kid is unknown; returns true when something new was loaded. */
  refresh?(): Promise<boolean>;
}

/** Keys of the embedded provider, read from the database (no HTTP call to ourselves). */
export function localKeySource(load: () => JSONWebKeySet, reload: () => Promise<JSONWebKeySet>): KeySource {
  let current = load();
  let set = createLocalJWKSet(current);
  let lastReload = 0;
  return {
    getKey: (header, token) => set(header, token),
    async refresh() {
      // At most one reload per 30 s: a stream of tokens with made-up kids must not hammer the DB.
      if (Date.now() - lastReload < 30_000) return false;
      lastReload = Date.now();
      const next = await reload();
      const known = new Set(current.keys.map((k) => k.kid));
      current = next;
      set = createLocalJWKSet(next);
      return next.keys.some((k) => !known.has(k.kid));
    },
  };
}

/** Keys of an external issuer: its JWKS URL, cached; jose refetches on an unknown kid (30 s cooldown). */
export function remoteKeySource(jwksUri: string, cooldownMs = 30_000): KeySource {
  return { getKey: createRemoteJWKSet(new URL(jwksUri), { cooldownDuration: cooldownMs, cacheMaxAge: 10 * 60_000 }) };
}

function isAccessToken(header: { typ?: string }, payload: JWTPayload): boolean {
  const typ = header.typ?.toLowerCase().replace(/^application\//, '');
  if (typ === 'at+jwt') return true;
  return payload.typ === 'Bearer';
}

function describe(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'token expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `token claim ${error.claim} rejected (${error.reason})`;
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'token signature invalid';
  if (error instanceof joseErrors.JWKSNoMatchingKey) return 'token signed by an unknown key';
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'token algorithm not allowed';
  if (error instanceof joseErrors.JWSInvalid || error instanceof joseErrors.JWTInvalid) return 'token malformed';
  return 'token invalid';
}

export function createTokenAuthenticate(options: TokenAuthenticateOptions): Authenticate {
  const verify = async (token: string, issuers: string[]) => {
    const params = { issuer: issuers, algorithms: [...ALLOWED_ALGORITHMS], clockTolerance: CLOCK_SKEW_S };
    try {
      return await jwtVerify(token, options.keys.getKey, params);
    } catch (error) {
      if (error instanceof joseErrors.JWKSNoMatchingKey && options.keys.refresh && (await options.keys.refresh())) {
        return jwtVerify(token, options.keys.getKey, params);
      }
      throw error;
    }
  };

  return async (request) => {
    const credentials = credentialsOf(request);
    if (!credentials) return null;
    if (credentials.kind !== 'bearer') throw unauthenticated('a bearer token is required');

    let result: Awaited<ReturnType<typeof jwtVerify>>;
    try {
      result = await verify(credentials.token, options.issuers(request));
    } catch (error) {
      throw unauthenticated(describe(error));
    }
    const { payload, protectedHeader } = result;
    if (!isAccessToken(protectedHeader, payload)) throw unauthenticated('not an access token');
    // jose requires exp only when told to; a token without expiry is never accepted.
    if (typeof payload.exp !== 'number') throw unauthenticated('token has no expiry');
    const audiences = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
    const audienceOk = audiences.includes(options.audience) || (options.azpClientId !== undefined && payload.azp === options.azpClientId);
    if (!audienceOk) throw unauthenticated('token audience rejected');
    if (typeof payload.sub !== 'string' || !payload.sub) throw unauthenticated('token has no subject');
    if (typeof payload.email !== 'string' || !payload.email) throw unauthenticated('token has no e-mail');

    const principal: Principal = { subject: payload.sub, email: payload.email.toLowerCase(), via: 'token' };
    if (typeof payload.name === 'string') principal.name = payload.name;
    return principal;
  };
}
