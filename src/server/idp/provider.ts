/**
 * Builds an oidc-provider instance for one issuer (one public origin). Speaks Keycloak's URL
 * layout (constants.ts) and issues what keycloak-js and our API expect: code flow with PKCE S256
 * only, JWT access tokens (`typ: at+jwt`, `aud: moj-travnik-api`) with e-mail and name claims,
 * refresh tokens for the public client, RP-initiated logout.
 */
import Provider, { errors } from 'oidc-provider';
import { slAuth } from '../../common/i18n/sl';
import { createAdapterFactory } from './adapter';
import { API_AUDIENCE, API_RESOURCE, APP_SCOPES, CLIENT_ID, DEFAULT_TTL, LOGIN_ACTIONS_PATH, REALM_PATH, ROUTES } from './constants';
import type { IdentityKeys } from './keys';
import { autoLogoutPage, logoutPage, messagePage } from './pages';
import { refreshTokenEnvelope } from './refresh-token-wrapper';
import type { IdentityDb, UserStore } from './store';

export interface TokenTtls {
  accessToken: number;
  refreshToken: number;
}

export interface ProviderSetup {
  issuer: string;
  origin: string;
  db: IdentityDb;
  users: UserStore;
  keys: IdentityKeys;
  /** Demo mode also accepts redirects to any http://localhost:* / 127.0.0.1:* (dev servers). */
  demo: boolean;
  /** Extra app origins allowed as redirect targets (a client served from another host). */
  appOrigins: readonly string[];
  ttl: TokenTtls;
  trustProxy: boolean;
  /**
   * Counts a token request against its account's limit (endpoint-limits.ts): whole seconds to
   * wait when over it, else 0. The account is the refresh token's or the code's owner.
   */
  limitAccount?: (accountId: string) => Promise<number>;
  /** The answer of a refused token request (429), Slovenian. */
  refusal?: (seconds: number) => string;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** May the app at this URL receive codes (redirect_uri) or be sent back after logout? */
function redirectAllowed(value: string, setup: Pick<ProviderSetup, 'origin' | 'demo' | 'appOrigins'>): boolean {
  const url = URL.parse(value);
  if (!url || url.hash || url.username || url.password) return false;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.origin === setup.origin || setup.appOrigins.includes(url.origin)) return true;
  return setup.demo && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

export function createProvider(setup: ProviderSetup): Provider {
  const { issuer, origin, users, keys, ttl } = setup;

  const provider = new Provider(issuer, {
    adapter: createAdapterFactory(setup.db),
    clients: [
      {
        client_id: CLIENT_ID,
        client_name: 'Moj travnik',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        // The real check is redirectAllowed() below; these are what the registration lists.
        redirect_uris: [`${origin}/`],
        post_logout_redirect_uris: [`${origin}/`],
      },
    ],
    jwks: keys.privateJwks,
    cookies: {
      keys: keys.cookieKeys,
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    pkce: { required: () => true },
    responseTypes: ['code'],
    scopes: ['openid', 'profile', 'email'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username'],
    },
    // keycloak-js reads the user's name and e-mail from the ID token (idTokenParsed) as Keycloak
    // puts them there; oidc-provider would otherwise move them to userinfo only.
    conformIdTokenClaims: false,
    async findAccount(_ctx: unknown, sub: string) {
      const account = await users.findById(sub);
      if (!account) return undefined;
      return {
        accountId: account.id,
        claims: () => ({
          sub: account.id,
          email: account.email,
          email_verified: true,
          name: account.name,
          preferred_username: account.username ?? account.email,
        }),
      };
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // keycloak-js sends id_token_hint: like Keycloak, sign out without asking; a bare
        // logout link (no hint) still asks, so a stray link cannot sign the user out.
        async logoutSource(ctx: { body: string; oidc: { params: Record<string, unknown> } }, form: string) {
          if (ctx.oidc.params.id_token_hint) {
            ctx.body = autoLogoutPage(form);
            return;
          }
          ctx.body = logoutPage(form);
        },
        async postLogoutSuccessSource(ctx: { body: string }) {
          ctx.body = messagePage(slAuth.logout.title, slAuth.logout.done, slAuth.logout.done, {
            href: `${origin}/`,
            label: slAuth.login.backToApp,
          });
        },
      },
      resourceIndicators: {
        enabled: true,
        // keycloak-js never sends `resource`: every token is for our API.
        defaultResource: () => API_RESOURCE,
        useGrantedResource: () => true,
        async getResourceServerInfo(_ctx: unknown, resource: string) {
          if (resource !== API_RESOURCE) throw new errors.InvalidTarget();
          return {
            scope: APP_SCOPES,
            audience: API_AUDIENCE,
            accessTokenTTL: ttl.accessToken,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    // Put what the API needs into the access token itself, so it needs no userinfo call.
    async extraTokenClaims(_ctx: unknown, token: { accountId?: string; clientId?: string }) {
      if (!token.accountId) return undefined;
      const account = await users.findById(token.accountId);
      if (!account) return undefined;
      return {
        email: account.email,
        name: account.name,
        preferred_username: account.username ?? account.email,
        // Keycloak names the client in `azp`; our verifier accepts it the same way for both.
        azp: token.clientId,
      };
    },
    // First-party app: no consent screen. The grant covers the app's scopes and the API.
    async loadExistingGrant(ctx: {
      oidc: {
        client: { clientId: string };
        session: { accountId: string; grantIdFor(id: string): string | undefined };
        result?: { consent?: { grantId?: string } };
        provider: Provider;
      };
    }) {
      const { client, session, result } = ctx.oidc;
      const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(APP_SCOPES);
      grant.addResourceScope(API_RESOURCE, APP_SCOPES);
      await grant.save();
      return grant;
    },
    // Refresh tokens for the public client without offline_access (keycloak-js asks for none).
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    // Rotate only late in the token's life. Rotating on every use (the default for public
    // clients) revokes the whole grant when a refresh response is lost on a bad mobile link and
    // the app retries with the old token — that would sign farmers out in the field.
    rotateRefreshToken: (ctx: { oidc: { entities: { RefreshToken: { ttlPercentagePassed(): number } } } }) =>
      ctx.oidc.entities.RefreshToken.ttlPercentagePassed() >= 70,
    clientBasedCORS: (_ctx: unknown, requestOrigin: string) => redirectAllowed(`${requestOrigin}/`, setup),
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `${REALM_PATH}${LOGIN_ACTIONS_PATH}/${interaction.uid}`,
    },
    routes: ROUTES,
    ttl: {
      AccessToken: ttl.accessToken,
      AuthorizationCode: DEFAULT_TTL.authorizationCode,
      IdToken: DEFAULT_TTL.idToken,
      RefreshToken: ttl.refreshToken,
      Session: DEFAULT_TTL.session,
      Interaction: DEFAULT_TTL.interaction,
      Grant: DEFAULT_TTL.grant,
    },
    async renderError(ctx: { type: string; body: string }, out: { error?: string; error_description?: string }) {
      ctx.type = 'html';
      const detail = out.error_description ? ` (${out.error_description})` : '';
      ctx.body = messagePage(slAuth.error.title, slAuth.error.heading, `${slAuth.error.text}${detail}`, {
        href: `${origin}/`,
        label: slAuth.login.backToApp,
      });
    },
  });

  provider.proxy = setup.trustProxy;
  provider.use(
    refreshTokenEnvelope(
      { token: ROUTES.token, revocation: ROUTES.revocation },
      async (opaque) => {
        const token = (await provider.RefreshToken.find(opaque)) as { exp?: number; iat?: number; clientId?: string; accountId?: string } | undefined;
        return { exp: token?.exp, iat: token?.iat, azp: token?.clientId, sub: token?.accountId };
      },
      async (ctx, params) => {
        const { limitAccount } = setup;
        if (!limitAccount || ctx.path !== ROUTES.token) return false;
        const owner = async () => {
          if (params.grant_type === 'refresh_token' && typeof params.refresh_token === 'string')
            return ((await provider.RefreshToken.find(params.refresh_token)) as { accountId?: string } | undefined)?.accountId;
          if (params.grant_type === 'authorization_code' && typeof params.code === 'string')
            return ((await provider.AuthorizationCode.find(params.code)) as { accountId?: string } | undefined)?.accountId;
          return undefined;
        };
        const accountId = await owner();
        const wait = accountId === undefined ? 0 : await limitAccount(accountId);
        if (wait === 0) return false;
        ctx.status = 429;
        ctx.set('Retry-After', String(wait));
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { error: 'too_many_requests', error_description: setup.refusal?.(wait) ?? '' };
        return true;
      },
    ),
  );
  // Registered URIs cannot express "any path of this origin" or "any loopback port"; decide here.
  provider.Client.prototype.redirectUriAllowed = function redirectUriAllowed(value: string) {
    return redirectAllowed(value, setup);
  };
  provider.Client.prototype.postLogoutRedirectUriAllowed = function postLogoutRedirectUriAllowed(value: string) {
    return redirectAllowed(value, setup);
  };
  return provider;
}
