/** GET /api/Test: the client's reachability probe every 10 s. Cheap, public, never cached. */
import type { FastifyInstance } from 'fastify';

export default async function testRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/api/Test',
    {
      config: { public: true },
      schema: {
        tags: ['Test'],
        summary: 'Reachability probe (200 = reachable; no authentication)',
        response: { 200: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { ok: true };
    },
  );
}
