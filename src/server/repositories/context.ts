/**
 * What every repository call needs: the executor (the request's transaction for writes), the
 * dialect layer, the project's metadata, the caller's access and the request's clock reading.
 */
import type { Access } from '../access/access';
import type { DialectLayer, Executor } from '../db/dialect';
import { invalid, notFound } from '../domain-errors';
import type { ProjectSchema, TableInfo } from '../project-schema';

export interface RepoContext {
  db: Executor;
  dialect: DialectLayer;
  schema: ProjectSchema;
  access: Access;
  /** ISO instant used for timestamps and AfterNow/BeforeNow within one request. */
  now: string;
  /**
   * Set by a bulk call: forms whose stored score must be recomputed once, at the end of the call,
   * instead of after every indicator write (which grows with the square of a form's indicators).
   */
  rescoreLater?: Set<number>;
  /**
   * Set when sign-in accounts live in our own users table (embedded provider, Basic): a farmer
   * written with an e-mail gets a pending account, in the write's transaction (record-rules.ts).
   */
  farmerAccounts?: FarmerAccounts;
}

/** Makes sure a sign-in account exists for a farmer's e-mail (idp/activations.ts ensureFarmerAccount). */
export type FarmerAccounts = (db: Executor, email: string, name: string) => Promise<void>;

/** The table with this id in the project, or 404. */
export function tableOf(ctx: RepoContext, tableId: number): TableInfo {
  const table = ctx.schema.tablesById.get(tableId);
  if (!table) throw notFound(`table ${tableId} not found in project ${ctx.schema.id}`);
  return table;
}

/** Like tableOf for ids given in a body or query: an unknown table there is a bad request. */
export function tableInBody(ctx: RepoContext, tableId: number, path: string): TableInfo {
  const table = ctx.schema.tablesById.get(tableId);
  if (!table) throw invalid(`${path}: table ${tableId} not found in project ${ctx.schema.id}`);
  return table;
}
