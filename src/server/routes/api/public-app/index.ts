/** GET /api/PublicApp/{projectId}/roles: the caller's roles; neither editor nor reader = farmer (docs/architecture.md, Roles). */
import type { FastifyInstance } from 'fastify';
import { ProjectParams, ref, RolesResult } from '../../../../common/schemas/wire';
import { unauthenticated } from '../../../domain-errors';
import { errorResponses } from '../../../http/schemas';

export default async function publicAppRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { projectId: number } }>(
    '/api/PublicApp/:projectId/roles',
    {
      // Answered even when no farmers record matches: the client then shows sl.farmer.missing.
      config: { allowNoFarmer: true },
      schema: {
        tags: ['PublicApp'],
        summary: "The caller's roles in the project",
        params: ProjectParams,
        response: { 200: ref(RolesResult), ...errorResponses },
      },
    },
    async (request): Promise<RolesResult> => {
      const access = request.access;
      if (!access) throw unauthenticated('authentication required');
      const roles: RolesResult['roles'] = [];
      if (access.editor) roles.push('editor');
      if (access.reader) roles.push('reader');
      return { roles, editor: access.editor, reader: access.reader };
    },
  );
}
