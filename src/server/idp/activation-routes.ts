/**
 * The page behind a farmer's one-time activation link, `…/login-actions/activate/<token>`, served
 * next to the login page and with its look (pages.ts). GET shows the form, POST sets the password
 * (twice, PASSWORD_MIN_LENGTH…PASSWORD_MAX_LENGTH characters) and uses up the link; afterwards the
 * farmer signs in through the normal login with e-mail and password. A used, replaced, unknown or
 * expired link gets a page saying so (410 Gone / 404). Requests with bad links are throttled per
 * client address with the login throttle, so links cannot be probed in bulk (they are 256-bit
 * random anyway); every request also counts against the identity provider's limits per address,
 * and a form post per account (endpoint-limits.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fillText, slSeasonServer } from '../../common/i18n/sl';
import { activationState, completeActivation, type AnyExecutor, type LinkState } from './activations';
import { ACTIVATION_PATH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, REALM_PATH } from './constants';
import type { IdentityLimits } from '../env';
import { createEndpointLimiter, type EndpointRequest } from './endpoint-limits';
import { limitCountersOf } from '../plugins/limit-counters';
import { LoginThrottle } from './login-throttle';
import { PAGE_POLICY, activationPage, messagePage } from './pages';

export const ACTIVATION_ROUTE = `${REALM_PATH}${ACTIVATION_PATH}`;

export interface ActivationRouteOptions {
  db: AnyExecutor;
  /** Where "open the app" leads after the password is set. */
  appOrigin: (request: FastifyRequest) => string;
  /** Requests per address and account (IDP_LIMIT_*; default none). */
  limits?: IdentityLimits;
}

const t = slSeasonServer.activation;

export async function registerActivationPage(app: FastifyInstance, options: ActivationRouteOptions): Promise<void> {
  const throttle = new LoginThrottle(limitCountersOf(app), 'activation');
  const limiter = createEndpointLimiter(limitCountersOf(app), options.limits);
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    const html = (reply: FastifyReply, status: number, body: string) =>
      reply
        .status(status)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        // The link is a secret: never sent onwards as a referrer.
        .header('referrer-policy', 'no-referrer')
        .header('content-security-policy', PAGE_POLICY)
        .send(body);

    const attempt = (request: FastifyRequest) => ({ address: request.ip });
    const linkBroken = async (request: FastifyRequest, reply: FastifyReply, link: Exclude<LinkState, { state: 'valid' }>) => {
      await throttle.failed(attempt(request));
      const expired = link.state === 'expired';
      return html(
        reply,
        link.state === 'invalid' ? 404 : 410,
        messagePage(t.title, expired ? t.expiredHeading : t.invalidHeading, expired ? t.expired : t.invalid),
      );
    };
    /** Refuses a throttled or limited address (or account) with 429 and Retry-After; false when it may go on. */
    const refused = async (request: FastifyRequest, reply: FastifyReply, who: EndpointRequest = { address: request.ip }) => {
      const wait = Math.max(await limiter.count(who), await throttle.retryAfter(attempt(request)));
      return wait > 0 && html(reply.header('retry-after', String(wait)), 429, messagePage(t.title, t.invalidHeading, t.tooManyAttempts));
    };

    const path = `${ACTIVATION_ROUTE}/:token`;
    scope.get<{ Params: { token: string } }>(path, { schema: { hide: true } }, async (request, reply) => {
      const tooMany = await refused(request, reply);
      if (tooMany) return tooMany;
      const link = await activationState(options.db, request.params.token);
      if (link.state !== 'valid') return linkBroken(request, reply, link);
      return html(reply, 200, activationPage({ action: request.url.split('?')[0]!, email: link.email }));
    });

    scope.post<{ Params: { token: string } }>(path, { schema: { hide: true } }, async (request, reply) => {
      const tooMany = await refused(request, reply);
      if (tooMany) return tooMany;
      const link = await activationState(options.db, request.params.token);
      if (link.state !== 'valid') return linkBroken(request, reply, link);
      // The link names its account: tries at one account's password are counted across addresses too.
      const accountLimited = await refused(request, reply, { account: link.userId });
      if (accountLimited) return accountLimited;
      const body = (request.body ?? {}) as Record<string, unknown>;
      const password = typeof body.password === 'string' ? body.password : '';
      const repeat = typeof body.repeat === 'string' ? body.repeat : '';
      const again = (error: string) => html(reply, 200, activationPage({ action: request.url.split('?')[0]!, email: link.email, error }));
      if (!password || !repeat) return again(t.missing);
      if ([...password].length < PASSWORD_MIN_LENGTH) return again(fillText(t.tooShort, { min: PASSWORD_MIN_LENGTH }));
      if ([...password].length > PASSWORD_MAX_LENGTH) return again(fillText(t.tooLong, { max: PASSWORD_MAX_LENGTH }));
      if (password !== repeat) return again(t.mismatch);
      const done = await completeActivation(options.db, request.params.token, password);
      if (done.state !== 'valid') return linkBroken(request, reply, done);
      request.log.info({ user: done.userId }, 'account activated');
      return html(reply, 200, messagePage(t.title, t.doneHeading, t.done, { href: `${options.appOrigin(request)}/`, label: t.toApp }));
    });
  });
}
