/**
 * One log line per request, when it is answered: method, URL without secrets (request-context.ts),
 * status, response time, route family and the caller's role. Fastify's own request lines are off
 * (buildApp's LogController with disableRequestLogging): its "incoming request" line comes before
 * authentication, so it could name no role, and it logs the raw URL, activation tokens and OAuth
 * codes included.
 * Lines a handler logs carry the family from the start and the role once the caller is known.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callerRole, loggableUrl, routeFamily } from './request-labels';

export function registerRequestLog(app: FastifyInstance): void {
  // Requests whose logger already carries the role (a key bound twice would appear twice in a line).
  const roleBound = new WeakSet<FastifyRequest>();
  const bindRole = async (request: FastifyRequest) => {
    request.log = request.log.child({ role: callerRole(request) });
    roleBound.add(request);
  };
  app.addHook('onRequest', async (request) => {
    request.log = request.log.child({ family: routeFamily(request) });
  });
  // Route-level preHandlers run after the app's, where the access hook has resolved the role.
  app.addHook('onRoute', (route) => {
    const own = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [...own, bindRole];
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        req: { method: request.method, url: loggableUrl(request.url), remoteAddress: request.ip },
        res: { statusCode: reply.statusCode },
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
        ...(roleBound.has(request) ? {} : { role: callerRole(request) }),
      },
      'request completed',
    );
  });
}
