/**
 * The change history ("Zgodovina sprememb", docs/architecture.md, Audit trail): who a write is
 * recorded as, and the history row of each insert, update, delete, archive and restore. Both
 * writers build their rows here; the single writer inserts them at once, a bulk call
 * (bulk-writes.ts) in multi-row statements.
 */
import type { Insertable } from 'kysely';
import type { Database, RecordRow } from '../db/types';
import type { RepoContext } from './context';

export type HistoryValues = Insertable<Database['record_history']>;

export type HistoryAction = 'insert' | 'update' | 'delete' | 'archive' | 'unarchive';

/** Who the write is recorded as: the caller's e-mail, else the token's subject. */
export function actor(ctx: RepoContext): string {
  return ctx.access.email || ctx.access.principal.subject;
}

/** A row's properties and geometry as one JSON text: both columns are JSON texts already (not parsed and written again). */
function snapshot(r: { properties: string; geometry: string | null } | null): string | null {
  return r ? `{"properties":${r.properties},"geometry":${r.geometry ?? 'null'}}` : null;
}

export function historyValues(
  ctx: RepoContext,
  row: { id: number; table_id: number },
  action: HistoryAction,
  before: RecordRow | null,
  after: { properties: string; geometry: string | null } | null,
): HistoryValues {
  return {
    record_id: row.id,
    table_id: row.table_id,
    action,
    changed_by: actor(ctx),
    changed_at: ctx.now,
    old_value: snapshot(before),
    new_value: snapshot(after),
  };
}

/** Inserts one history row at once (deletes and archives, which no bulk call buffers). */
export async function recordHistory(
  ctx: RepoContext,
  row: { id: number; table_id: number },
  action: HistoryAction,
  before: RecordRow | null,
  after: { properties: string; geometry: string | null } | null,
): Promise<void> {
  await ctx.db
    .insertInto('record_history')
    .values(historyValues(ctx, row, action, before, after))
    .execute();
}
