/**
 * The embedded identity provider as a Fastify plugin. oidc-provider is a Koa app: for every
 * request under /auth/realms/moj-travnik we hand the raw Node request and response to it
 * (reply.hijack()), with the prefix stripped from req.url and given as req.baseUrl so the
 * provider builds its URLs (discovery, redirects, cookie paths) under the mount path. Fastify's
 * body parsers are kept away from those routes (the provider reads its own bodies).
 *
 * One provider instance per public origin: the issuer is an absolute URL, and the same server is
 * reached as localhost, 127.0.0.1, a LAN address or (in tests) a random port. With PUBLIC_URL set
 * there is exactly one. All instances share keys and storage.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { slAuth, slSecurity } from '../../common/i18n/sl';
import type { IdentityLimits, LoginLimits } from '../env';
import { purgeExpired } from './adapter';
import { API_RESOURCE, APP_SCOPES, DEFAULT_TTL, LOGIN_ACTIONS_PATH, REALM_PATH, ROUTES, issuerFor } from './constants';
import { createEndpointLimiter } from './endpoint-limits';
import { DEMO_ACCOUNTS, ensureDemoAccounts, refuseDemoAccountsInProduction } from './demo-accounts';
import { loadKeys, type IdentityKeys } from './keys';
import { limitCountersOf } from '../plugins/limit-counters';
import { LoginThrottle } from './login-throttle';
import { PAGE_POLICY, loginPage, messagePage } from './pages';
import { createProvider, type TokenTtls } from './provider';
import { SecretStore, UserStore, normaliseLogin, type IdentityDb } from './store';

export interface EmbeddedIdpOptions {
  db: IdentityDb;
  /** Demo mode: demo accounts are created, loopback redirect URIs accepted. */
  demo: boolean;
  production: boolean;
  /** Fixed public origin (PUBLIC_URL); otherwise each request's own origin. */
  publicUrl?: string;
  /** More origins whose pages may receive codes (a client served elsewhere). */
  appOrigins?: readonly string[];
  /** Token lifetimes in seconds (tests shorten the access token to see a refresh). */
  ttl?: Partial<TokenTtls>;
  trustProxy?: boolean;
  /** Wrong passwords allowed per login and per address (LOGIN_* settings). */
  loginLimits?: Partial<LoginLimits>;
  /** Requests to the authorization, token and login endpoints per address and account (IDP_LIMIT_*; default none). */
  identityLimits?: IdentityLimits;
}

export interface EmbeddedIdp {
  users: UserStore;
  /** The issuer this request's origin signs with. */
  issuerForRequest(request: FastifyRequest): string;
  /** Current keys; reload() re-reads them from the database (after a rotation elsewhere). */
  keys(): IdentityKeys;
  reloadKeys(): Promise<IdentityKeys>;
  providerFor(origin: string): Provider;
}

const MAX_PROVIDERS = 16;
/** Host header values we build issuers from: names, IPv4, bracketed IPv6, optional port. */
const HOST_PATTERN = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

export function originOf(request: FastifyRequest, publicUrl?: string): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  const host = request.host;
  if (!HOST_PATTERN.test(host)) throw Object.assign(new Error('bad Host header'), { statusCode: 400 });
  return `${request.protocol}://${host.toLowerCase()}`;
}

export async function registerEmbeddedIdp(app: FastifyInstance, options: EmbeddedIdpOptions): Promise<EmbeddedIdp> {
  const users = new UserStore(options.db);
  const secrets = new SecretStore(options.db);

  if (options.production) await refuseDemoAccountsInProduction(users, options.demo);
  else if (options.demo) await ensureDemoAccounts(users);

  let keys = await loadKeys(secrets);
  const ttl: TokenTtls = {
    accessToken: options.ttl?.accessToken ?? DEFAULT_TTL.accessToken,
    refreshToken: options.ttl?.refreshToken ?? DEFAULT_TTL.refreshToken,
  };
  const throttle = new LoginThrottle(limitCountersOf(app), 'login', options.loginLimits);
  const limiter = createEndpointLimiter(limitCountersOf(app), options.identityLimits);

  const providers = new Map<string, { provider: Provider; handle: (req: IncomingMessage, res: ServerResponse) => void }>();
  const entryFor = (origin: string) => {
    let entry = providers.get(origin);
    if (!entry) {
      const provider = createProvider({
        issuer: issuerFor(origin),
        origin,
        db: options.db,
        users,
        keys,
        demo: options.demo && !options.production,
        appOrigins: options.appOrigins ?? [],
        ttl,
        trustProxy: Boolean(options.trustProxy),
        limitAccount: (accountId) => limiter.count({ account: accountId }),
        refusal: slSecurity.rateLimited,
      });
      provider.on('server_error', (_ctx: unknown, error: unknown) => app.log.error({ err: error }, 'identity provider error'));
      // A Host header flood must not grow this map without bound: drop the oldest.
      if (providers.size >= MAX_PROVIDERS) providers.delete(providers.keys().next().value!);
      entry = { provider, handle: provider.callback() };
      providers.set(origin, entry);
    }
    return entry;
  };
  const providerForRequest = (request: FastifyRequest) => entryFor(originOf(request, options.publicUrl));

  // Expired sessions, codes and tokens are deleted now and every hour.
  await purgeExpired(options.db);
  const purgeTimer = setInterval(
    () => {
      purgeExpired(options.db).catch((error: unknown) => app.log.warn({ err: error }, 'purging identity payloads failed'));
    },
    60 * 60 * 1000,
  );
  purgeTimer.unref();
  app.addHook('onClose', async () => clearInterval(purgeTimer));

  // 1. Everything of the protocol goes to oidc-provider untouched.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // Leave the body stream unread: oidc-provider parses it itself.
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const limited = new Set<string>([ROUTES.authorization, ROUTES.token]);
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const { handle } = providerForRequest(request);
      // The authorization and token endpoints count per address here (the token endpoint also per
      // account, once the provider's middleware has read the form: provider.ts).
      const route = request.url.slice(REALM_PATH.length).split('?')[0]!;
      if (limited.has(route)) {
        const wait = await limiter.count({ address: request.ip });
        if (wait > 0) {
          reply.status(429).header('retry-after', String(wait)).header('cache-control', 'no-store');
          if (route === ROUTES.token) return reply.send({ error: 'too_many_requests', error_description: slSecurity.rateLimited(wait) });
          return reply
            .header('content-type', 'text/html; charset=utf-8')
            .header('content-security-policy', PAGE_POLICY)
            .send(messagePage(slAuth.login.title, slAuth.error.heading, slSecurity.rateLimited(wait)));
        }
      }
      reply.hijack();
      const raw = request.raw as IncomingMessage & { baseUrl?: string };
      raw.url = raw.url!.slice(REALM_PATH.length) || '/';
      raw.baseUrl = REALM_PATH;
      handle(raw, reply.raw);
    };
    scope.all(`${REALM_PATH}/*`, { schema: { hide: true } }, handler);
  });

  // 2. Our login page (the provider's "interaction"), in Slovenian.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    const path = `${REALM_PATH}${LOGIN_ACTIONS_PATH}/:uid`;
    const demoAccounts = options.demo && !options.production ? DEMO_ACCOUNTS.map((a) => `${a.email} (${slAuth.login.demoRoles[a.role]})`) : undefined;

    const html = (reply: FastifyReply, status: number, body: string) =>
      reply
        .status(status)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        // The page needs nothing from anywhere else; say so to the browser.
        .header('content-security-policy', PAGE_POLICY)
        .send(body);

    /** The interaction of this request, or undefined when the cookie/uid is missing or expired. */
    const interactionOf = async (request: FastifyRequest, reply: FastifyReply) => {
      const { provider } = providerForRequest(request);
      try {
        const details = await provider.interactionDetails(request.raw, reply.raw);
        if (details.uid !== (request.params as { uid: string }).uid) return undefined;
        return { provider, details };
      } catch {
        return undefined;
      }
    };

    const expired = (reply: FastifyReply, request: FastifyRequest) =>
      html(
        reply,
        400,
        messagePage(slAuth.login.title, slAuth.error.heading, slAuth.login.expired, {
          href: `${originOf(request, options.publicUrl)}/`,
          label: slAuth.login.backToApp,
        }),
      );

    /** Finishes a non-login prompt (consent) for our first-party app without asking. */
    const finishConsent = async (request: FastifyRequest, reply: FastifyReply, provider: Provider, accountId: string, clientId: string) => {
      const grant = new provider.Grant({ accountId, clientId });
      grant.addOIDCScope(APP_SCOPES);
      grant.addResourceScope(API_RESOURCE, APP_SCOPES);
      const grantId = await grant.save();
      const to = await provider.interactionResult(request.raw, reply.raw, { consent: { grantId } }, { mergeWithLastSubmission: true });
      return reply.redirect(to, 303);
    };

    scope.get(path, { schema: { hide: true } }, async (request, reply) => {
      const wait = await limiter.count({ address: request.ip });
      if (wait > 0)
        return html(reply.header('retry-after', String(wait)), 429, messagePage(slAuth.login.title, slAuth.error.heading, slSecurity.rateLimited(wait)));
      const found = await interactionOf(request, reply);
      if (!found) return expired(reply, request);
      const { provider, details } = found;
      if (details.prompt.name !== 'login' && details.session?.accountId) {
        return finishConsent(request, reply, provider, details.session.accountId, String(details.params.client_id));
      }
      const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
      return html(reply, 200, loginPage({ action: request.url.split('?')[0]!, login: hint, demoAccounts }));
    });

    scope.post(path, { schema: { hide: true } }, async (request, reply) => {
      const found = await interactionOf(request, reply);
      if (!found) return expired(reply, request);
      const { provider } = found;
      const body = (request.body ?? {}) as Record<string, unknown>;
      const login = typeof body.username === 'string' ? body.username : '';
      const password = typeof body.password === 'string' ? body.password : '';
      const action = request.url.split('?')[0]!;
      const again = (error: string, status = 200) => html(reply, status, loginPage({ action, login, error, demoAccounts }));

      // One account, one count: its id, as the token endpoint and the activation links count it; a
      // login that names no account is counted under what was typed (guessing at accounts that do not exist).
      const typed = login.trim() ? ((await users.idForLogin(login)) ?? `login:${normaliseLogin(login)}`) : undefined;
      const limitedFor = await limiter.count({ address: request.ip, account: typed });
      if (limitedFor > 0) {
        reply.header('retry-after', String(limitedFor));
        return again(slSecurity.rateLimited(limitedFor), 429);
      }
      if (!login.trim() || !password) return again(slAuth.login.missingFields);
      const attempt = { account: normaliseLogin(login), address: request.ip };
      const wait = await throttle.retryAfter(attempt);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return again(slAuth.login.tooManyAttempts(wait), 429);
      }
      const account = await users.verify(login, password);
      if (!account) {
        await throttle.failed(attempt);
        request.server.opsMetrics?.loginFailed();
        request.log.info({ login: attempt.account }, 'sign-in failed');
        return again(slAuth.login.invalidCredentials);
      }
      await throttle.succeeded(attempt);
      request.log.info({ sub: account.id }, 'signed in');
      const to = await provider.interactionResult(request.raw, reply.raw, { login: { accountId: account.id } }, { mergeWithLastSubmission: false });
      return reply.redirect(to, 303);
    });
  });

  return {
    users,
    issuerForRequest: (request) => issuerFor(originOf(request, options.publicUrl)),
    keys: () => keys,
    reloadKeys: async () => {
      keys = await loadKeys(secrets);
      return keys;
    },
    providerFor: (origin) => entryFor(origin).provider,
  };
}
