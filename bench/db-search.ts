/**
 * The search of the bench run directly on the database, through the same repository the route
 * uses (filter compiler → Kysely → SQLite) but without HTTP, JSON or authentication: the floor the
 * HTTP figures are compared with.
 */
import type { FastifyInstance } from 'fastify';
import type { SearchRequest } from '../src/common/filter';
import type { Principal } from '../src/server/auth/principal';
import { resolveAccess } from '../src/server/access/access';
import { searchRecords } from '../src/server/repositories/record-repository';

export async function runDbSearch(app: FastifyInstance, projectId: number, principal: Principal, request: SearchRequest): Promise<{ totalCount: number }> {
  const schema = await app.projects.get(projectId);
  if (!schema) throw new Error(`project ${projectId} not found`);
  const access = await resolveAccess(app.db, app.dialect, schema, principal);
  const result = await searchRecords({ db: app.db, dialect: app.dialect, schema, access, now: new Date().toISOString() }, request);
  return { totalCount: result.totalCount };
}
