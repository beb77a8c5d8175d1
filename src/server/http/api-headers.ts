/**
 * API answers carry personal field data and change with every sync: no browser, proxy or
 * service-worker cache may keep them (`Cache-Control: no-store`) unless a route set its own
 * policy (e.g. attachment downloads).
 */
import type { FastifyInstance } from 'fastify';

export function registerApiHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
