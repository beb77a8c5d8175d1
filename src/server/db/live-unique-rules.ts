/**
 * Rules "at most one live row per value" enforced by the database itself (defence in depth behind
 * the writers' own check, repositories/live-rows.ts): a form holds at most one live (not deleted) indicator
 * row per indicator key. Properties live in one JSON column of `records`, so each rule is a
 * partial unique expression index `records_live_unique_<tableId>` on the rule's columns' values,
 * over the live rows of that table (DialectLayer.createLiveUniqueIndex). createProject adds them
 * to a new project; migration 0300_one_live_indicator_per_key added them to existing databases.
 */
import { sql } from 'kysely';
import type { DialectLayer, Executor } from './dialect';

/** table key → the columns whose values together are unique among its live rows. */
export const LIVE_UNIQUE_RULES: Readonly<Record<string, readonly string[]>> = {
  indicators: ['parent', 'key'],
};

/** The tables with a rule in this database, with the rule's column ids (a table lacking one of them is skipped). */
async function rulesOf(db: Executor): Promise<Array<{ tableId: number; columnIds: number[] }>> {
  const columns = await db
    .selectFrom('table_columns')
    .innerJoin('project_tables', 'project_tables.id', 'table_columns.table_id')
    .select(['table_columns.id as id', 'table_columns.name as name', 'project_tables.id as tableId', 'project_tables.key as key'])
    .where('project_tables.key', 'in', Object.keys(LIVE_UNIQUE_RULES))
    .execute();
  const byTable = new Map<number, { key: string; ids: Map<string, number> }>();
  for (const column of columns) {
    const entry = byTable.get(column.tableId) ?? { key: column.key, ids: new Map() };
    entry.ids.set(column.name, column.id);
    byTable.set(column.tableId, entry);
  }
  return [...byTable].flatMap(([tableId, { key, ids }]) => {
    const columnIds = LIVE_UNIQUE_RULES[key]!.map((name) => ids.get(name));
    return columnIds.every((id) => id !== undefined) ? [{ tableId, columnIds: columnIds as number[] }] : [];
  });
}

/**
 * Existing rows that break a rule (made before it existed) are settled first: of each group the
 * most recently written row stays live (the user's latest answer), the others are marked deleted
 * with a new version, as a delete through the API would. Returns how many rows were settled.
 */
async function settleExistingDuplicates(db: Executor, dialect: DialectLayer, tableId: number, columnIds: number[], now: string): Promise<number> {
  const values = columnIds.map((id) => dialect.prop(id, 'text'));
  const rows = await db
    .selectFrom('records')
    .select(['id', 'updated_at', ...values.map((value, i) => value.as(`v${i}`))])
    .where('table_id', '=', tableId)
    .where('deleted', '=', 0)
    .where(({ and }) => and(values.map((value) => sql<boolean>`${value} is not null`)))
    .orderBy('id')
    .execute();
  const newest = new Map<string, { id: number; updated_at: string }>();
  const losers: number[] = [];
  for (const row of rows as Array<Record<string, unknown> & { id: number; updated_at: string }>) {
    const key = JSON.stringify(columnIds.map((_, i) => row[`v${i}`]));
    const kept = newest.get(key);
    if (!kept) {
      newest.set(key, row);
    } else if (row.updated_at >= kept.updated_at) {
      losers.push(kept.id);
      newest.set(key, row);
    } else {
      losers.push(row.id);
    }
  }
  if (losers.length) {
    await db
      .updateTable('records')
      .set((eb) => ({ deleted: 1, version: eb('version', '+', 1), updated_at: now }))
      .where('id', 'in', losers)
      .execute();
  }
  return losers.length;
}

/** Creates the rules' indexes of every project in the database (idempotent), settling rows that break them first. */
export async function ensureLiveUniqueRules(db: Executor, dialect: DialectLayer, options: { now?: string } = {}): Promise<number> {
  let settled = 0;
  for (const rule of await rulesOf(db)) {
    settled += await settleExistingDuplicates(db, dialect, rule.tableId, rule.columnIds, options.now ?? new Date().toISOString());
    await dialect.createLiveUniqueIndex(db, rule.tableId, rule.columnIds);
  }
  return settled;
}

/** Whether a database error is a breach of one of these rules (so a writer can answer 409, not 500). */
export function isLiveUniqueViolation(error: unknown): boolean {
  const message = String((error as { message?: unknown })?.message ?? '');
  // SQLite: "UNIQUE constraint failed: index 'records_live_unique_7'"; PostgreSQL: "… violates unique constraint "records_live_unique_7"".
  return message.includes('records_live_unique_');
}
