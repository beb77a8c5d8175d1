/**
 * "May this caller read / write record R?" for code outside the record repositories (the
 * attachment routes). Same rules as every record route: a row outside the caller's scope is a
 * 404; a visible row the role may not change is a 403.
 */
import type { FastifyRequest } from 'fastify';
import type { WireRecord } from '../../common/schemas/wire';
import '../http/fastify-types';
import { notFound, unauthorized } from '../http/errors';
import type { RepoContext } from '../repositories/context';
import { findVisibleRow } from '../repositories/record-repository';
import { rowToRecord } from '../repositories/record-mapper';
import type { Executor } from '../db/dialect';
import { assertMayWrite, type WriteAction } from './policy';

/** Repository context of a request (after the access hooks ran). `db` may be a transaction. */
export function requestContext(request: FastifyRequest, db?: Executor): RepoContext {
  if (!request.access || !request.projectSchema) throw unauthorized('authentication required');
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

/**
 * Finds record `recordId` of the project (any table) if the caller may see it, else 404. With
 * `write`, also checks the role may perform that action on the record's table (attachments of a
 * record count as an 'update' of it), else 403.
 */
export async function assertRecordAccess(ctx: RepoContext, recordId: number, write?: WriteAction): Promise<WireRecord> {
  const located = await ctx.db.selectFrom('records').select('table_id').where('id', '=', recordId).where('project_id', '=', ctx.schema.id).executeTakeFirst();
  const table = located ? ctx.schema.tablesById.get(located.table_id) : undefined;
  const row = table ? await findVisibleRow(ctx, table, recordId) : undefined;
  if (!table || !row) throw notFound(`record ${recordId} not found`);
  if (write) assertMayWrite(ctx.access, table.key, write);
  return rowToRecord(row);
}
