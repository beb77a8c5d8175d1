/**
 * Who may do what in a project (docs/architecture.md, Roles). `resolveAccess` turns a principal into the caller's
 * role in a project: editor or reader from `project_roles` (by lower-case e-mail), otherwise a
 * farmer identified by the farmers record whose `email` matches. Everything else in this folder
 * derives from the resulting Access.
 */
import { sql } from 'kysely';
import type { Principal } from '../auth/principal';
import type { Executor, DialectLayer } from '../db/dialect';
import type { ProjectSchema } from '../project-schema';
import { loadOwnedChain, type OwnedChain } from './scope';

type Role = 'editor' | 'reader' | 'farmer';

export interface Access {
  principal: Principal;
  /** Key for per-caller state (idempotency keys, applied bulk operations). */
  caller: string;
  projectId: number;
  role: Role;
  editor: boolean;
  reader: boolean;
  /** The caller's farmers record (farmers only; null when none matches their e-mail). */
  farmerId: number | null;
  /** Lower-case e-mail, used for EqualsUserEmail. */
  email: string;
  /** Farmers: ids of their own rows along the chain (see scope.ts). */
  owned?: OwnedChain;
}

/** The message of the 403 answered to a user who is neither editor, reader nor a known farmer. */
export const NO_FARMER_RECORD = 'No farmer record for this user';

function callerKey(principal: Principal): string {
  return `${principal.via}:${principal.subject}`;
}

export async function resolveAccess(db: Executor, dialect: DialectLayer, schema: ProjectSchema, principal: Principal): Promise<Access> {
  const email = principal.email.trim().toLowerCase();
  const roles = email ? await db.selectFrom('project_roles').select('role').where('project_id', '=', schema.id).where('email', '=', email).execute() : [];
  const editor = roles.some((r) => r.role === 'editor');
  const reader = roles.some((r) => r.role === 'reader');
  let farmerId: number | null = null;
  if (!editor && !reader && email) farmerId = await findFarmerId(db, dialect, schema, email);
  const access: Access = {
    principal,
    caller: callerKey(principal),
    projectId: schema.id,
    role: editor ? 'editor' : reader ? 'reader' : 'farmer',
    editor,
    reader: reader && !editor,
    farmerId,
    email,
  };
  if (farmerId !== null) access.owned = await loadOwnedChain(db, dialect, schema, farmerId);
  return access;
}

async function findFarmerId(db: Executor, dialect: DialectLayer, schema: ProjectSchema, email: string): Promise<number | null> {
  const farmers = schema.tablesByKey.get('farmers');
  const emailColumn = farmers?.columnsByName.get('email');
  if (!farmers || !emailColumn) return null;
  const row = await db
    .selectFrom('records')
    .select('id')
    .where('table_id', '=', farmers.id)
    .where('deleted', '=', 0)
    .where(sql<boolean>`${dialect.lower(dialect.prop(emailColumn.id, 'text'))} = ${email}`)
    .orderBy('id')
    .executeTakeFirst();
  return row?.id ?? null;
}
