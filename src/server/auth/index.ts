/**
 * registerIdentity: the one call buildApp makes for sign-in. Picks the mode (AUTH):
 * - embedded (default): our own OpenID Connect provider under /auth (Keycloak's URL layout),
 *   bearer JWTs verified against its keys;
 * - keycloak: an external Keycloak (KEYCLOAK_URL/REALM/CLIENT_ID), tokens verified against its JWKS;
 * - basic: HTTP Basic credentials against the users table;
 * - none: a fixed demo user, loopback requests only, never in production.
 * Returns the Authenticate the API hook uses. A test passing `authenticate` gets it back as is and
 * no provider is started (no key generation, no demo accounts).
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { IdentityLimits, LoginLimits } from '../env';
import { unauthenticated } from '../domain-errors';
import { API_AUDIENCE, CLIENT_ID, REALM, REALM_PATH, ROUTES } from '../idp/constants';
import { registerEmbeddedIdp, type EmbeddedIdp } from '../idp';
import { UserStore, type IdentityDb } from '../idp/store';
import { limitCountersOf } from '../plugins/limit-counters';
import { createBasicAuthenticate } from './basic-authenticate';
import { createNoneAuthenticate } from './none-authenticate';
import type { Authenticate } from './principal';
import { createTokenAuthenticate, localKeySource, remoteKeySource } from './token-authenticate';

export type AuthMode = 'embedded' | 'keycloak' | 'basic' | 'none';

export interface IdentityOptions {
  /** The app's database (Kysely); the identity tables come from migration 0100_identity. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Kysely database that ran our migration
  db: Kysely<any>;
  auth?: AuthMode;
  keycloak?: { url: string; realm?: string; clientId?: string };
  publicUrl?: string;
  production?: boolean;
  demo?: boolean;
  authenticate?: Authenticate;
  /** Sign-in throttle of the login page and of Basic credentials (default DEFAULT_LOGIN_LIMITS). */
  loginLimits?: Partial<LoginLimits>;
  /** Requests to the embedded provider's endpoints and the activation links per address and account (default: none — server.ts passes IDP_LIMIT_*). */
  identityLimits?: IdentityLimits;
  /** Embedded provider tuning (tests: short access tokens to see a refresh). */
  identity?: {
    accessTokenTtl?: number;
    refreshTokenTtl?: number;
    appOrigins?: string[];
    trustProxy?: boolean;
    /** AUTH=keycloak: least time between two JWKS fetches for unknown kids (default 30 s). */
    jwksCooldownMs?: number;
  };
}

export interface Identity {
  mode: AuthMode;
  authenticate: Authenticate;
  /** The embedded provider, when mode is embedded. */
  idp?: EmbeddedIdp;
}

export async function registerIdentity(app: FastifyInstance, options: IdentityOptions): Promise<Identity> {
  const mode: AuthMode = options.auth ?? 'embedded';
  if (options.authenticate) return { mode, authenticate: options.authenticate };

  const db = options.db as IdentityDb;
  const production = Boolean(options.production);
  switch (mode) {
    case 'embedded': {
      const idp = await registerEmbeddedIdp(app, {
        db,
        demo: Boolean(options.demo),
        production,
        ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
        appOrigins: options.identity?.appOrigins ?? [],
        ttl: {
          ...(options.identity?.accessTokenTtl ? { accessToken: options.identity.accessTokenTtl } : {}),
          ...(options.identity?.refreshTokenTtl ? { refreshToken: options.identity.refreshTokenTtl } : {}),
        },
        // PUBLIC_URL means a reverse proxy in front (TLS ends there): trust its X-Forwarded-*
        // so the provider's absolute URLs say https like the issuer does.
        trustProxy: options.identity?.trustProxy ?? Boolean(options.publicUrl),
        loginLimits: options.loginLimits,
        identityLimits: options.identityLimits,
      });
      const authenticate = createTokenAuthenticate({
        keys: localKeySource(
          () => idp.keys().publicJwks,
          async () => (await idp.reloadKeys()).publicJwks,
        ),
        issuers: (request) => [idp.issuerForRequest(request)],
        audience: API_AUDIENCE,
      });
      registerUserinfo(app, authenticate, idp);
      return { mode, authenticate, idp };
    }
    case 'keycloak': {
      if (!options.keycloak?.url) throw new Error('AUTH=keycloak needs the Keycloak URL (KEYCLOAK_URL)');
      const base = options.keycloak.url.replace(/\/+$/, '');
      const issuer = `${base}/realms/${encodeURIComponent(options.keycloak.realm ?? REALM)}`;
      const authenticate = createTokenAuthenticate({
        keys: remoteKeySource(`${issuer}${ROUTES.jwks}`, options.identity?.jwksCooldownMs),
        issuers: () => [issuer],
        audience: API_AUDIENCE,
        azpClientId: options.keycloak.clientId ?? CLIENT_ID,
      });
      return { mode, authenticate };
    }
    case 'basic': {
      const users = new UserStore(db);
      if (production) {
        const { refuseDemoAccountsInProduction } = await import('../idp/demo-accounts');
        await refuseDemoAccountsInProduction(users, Boolean(options.demo));
      } else if (options.demo) {
        const { ensureDemoAccounts } = await import('../idp/demo-accounts');
        await ensureDemoAccounts(users);
      }
      return { mode, authenticate: createBasicAuthenticate(users, limitCountersOf(app), options.loginLimits) };
    }
    case 'none': {
      if (production) throw new Error('AUTH=none is for local demos only and is refused when NODE_ENV=production');
      app.log.warn('AUTH=none: every request from this machine acts as the demo farmer; do not expose this server');
      return { mode, authenticate: createNoneAuthenticate() };
    }
    default:
      throw new Error(`unknown AUTH mode ${String(mode)}`);
  }
}

/**
 * Keycloak's userinfo endpoint, answered by us rather than by oidc-provider: the provider only
 * accepts tokens minted for itself at userinfo, while ours are minted for the API (aud
 * moj-travnik-api). keycloak-js's loadUserInfo() sends exactly such a token.
 */
function registerUserinfo(app: FastifyInstance, authenticate: Authenticate, idp: EmbeddedIdp): void {
  const handler = async (request: Parameters<Authenticate>[0]) => {
    const principal = await authenticate(request);
    if (!principal) throw unauthenticated('a bearer token is required');
    const account = await idp.users.findById(principal.subject);
    if (!account) throw unauthenticated('unknown user');
    return {
      sub: account.id,
      email: account.email,
      email_verified: true,
      name: account.name,
      preferred_username: account.username ?? account.email,
    };
  };
  const url = `${REALM_PATH}${ROUTES.userinfo}`;
  const schema = { hide: true };
  app.get(url, { schema }, handler);
  app.post(url, { schema }, handler);
}
