/**
 * The repository context of a request, after the access hooks ran: the database (or the
 * transaction `db`), the project's schema and the caller's access.
 */
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../db/dialect';
import type { RepoContext } from '../repositories/context';
import { unauthenticated } from '../domain-errors';
import './fastify-types';

export function requestContext(request: FastifyRequest, db?: Executor): RepoContext {
  if (!request.access || !request.projectSchema) throw unauthenticated('authentication required');
  const { farmerAccounts } = request.server;
  return {
    db: db ?? request.server.db,
    dialect: request.server.dialect,
    schema: request.projectSchema,
    access: request.access,
    now: new Date().toISOString(),
    ...(farmerAccounts ? { farmerAccounts } : {}),
  };
}
