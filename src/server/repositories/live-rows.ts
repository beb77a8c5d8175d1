/**
 * The rules of rows that must be live only once: one live row per value of a table's rule columns
 * (db/live-unique-rules.ts: one live indicator per key on a form; a second insert is refused with
 * 409), and links identified by their columns (natural keys: one live durationPath per path per
 * duration; inserting an existing link answers it). Both writers check them through their
 * RecordWrites (write-sink.ts); a bulk call looks the rule's rows up in one go (bulk-writes.ts)
 * with `findLiveRow` as its fallback.
 */
import { sql } from 'kysely';
import type { Properties } from '../../common/schemas/wire';
import { LIVE_UNIQUE_RULES } from '../db/live-unique-rules';
import { indexKindOf } from '../db/property-indexes';
import type { RecordRow } from '../db/types';
import { conflict } from '../domain-errors';
import type { ColumnInfo, TableInfo } from '../project-schema';
import type { RepoContext } from './context';
import { rowToRecord } from './record-mapper';
import { visibleRows } from './record-repository';
import { prefixOf } from './write-checks';
import type { RecordWrites } from './write-sink';

/** The rule columns of a table with a one-live-row rule (LIVE_UNIQUE_RULES), or undefined. */
export function liveRuleColumns(table: TableInfo): ColumnInfo[] | undefined {
  // Asked for every insert of a bulk call: worked out once per table.
  if (!ruleColumnsByTable.has(table)) {
    const names = LIVE_UNIQUE_RULES[table.key];
    const columns = names?.map((name) => table.columnsByName.get(name));
    ruleColumnsByTable.set(table, columns?.every((column) => column !== undefined) ? (columns as ColumnInfo[]) : undefined);
  }
  return ruleColumnsByTable.get(table);
}

const ruleColumnsByTable = new WeakMap<TableInfo, ColumnInfo[] | undefined>();

/** Compares a rule column's value in SQL as the unique index does (by its index kind). */
function liveRuleValue(ctx: RepoContext, column: ColumnInfo, value: unknown) {
  const kind = indexKindOf(column.type) ?? 'text';
  return { prop: ctx.dialect.prop(column.id, kind), param: ctx.dialect.param(value as string | number | boolean, kind) };
}

/** The live (not deleted) row of `table` with `values` in the rule's `columns`, the oldest if several. */
export async function findLiveRow(
  ctx: RepoContext,
  table: TableInfo,
  columns: readonly ColumnInfo[],
  values: readonly unknown[],
): Promise<RecordRow | undefined> {
  let query = ctx.db.selectFrom('records').selectAll().where('table_id', '=', table.id).where('deleted', '=', 0);
  columns.forEach((column, i) => {
    const { prop, param } = liveRuleValue(ctx, column, values[i]);
    query = query.where(sql<boolean>`${prop} = ${param}`);
  });
  return query.orderBy('id').executeTakeFirst();
}

/**
 * Tables whose rows are links identified by these columns: one live (not deleted, not archived)
 * row per combination (one live durationPath per path per duration). Two phones that
 * both created the missing link offline must not end up with two links, so inserting an existing
 * link answers the live row instead of a new one — the client then maps its local id to it and
 * the forms it made under the link land on the same row.
 */
const NATURAL_KEYS: Record<string, string[]> = {
  durationPaths: ['duration_id', 'path_id'],
};

/** Whether the table's rows are links with a natural key (a bulk call writes what it holds before looking one up). */
export function hasNaturalKey(table: TableInfo): boolean {
  return NATURAL_KEYS[table.key] !== undefined;
}

/** The live link with the natural key of `props`, else undefined (also for tables without one). */
export async function findLiveNaturalDuplicate(ctx: RepoContext, table: TableInfo, props: Properties): Promise<RecordRow | undefined> {
  const names = NATURAL_KEYS[table.key];
  if (!names) return undefined;
  const columns = names.map((name) => table.columnsByName.get(name));
  if (columns.some((c) => !c)) return undefined;
  const values = columns.map((c) => props[String(c!.id)]);
  if (values.some((v) => v === undefined || v === null)) return undefined;
  let query = visibleRows(ctx, table).selectAll('records').where('records.archived', '=', 0);
  columns.forEach((column, i) => {
    query = query.where(sql<boolean>`${ctx.dialect.prop(column!.id, 'number')} = ${values[i] as number}`);
  });
  return query.orderBy('records.id').executeTakeFirst();
}

/**
 * One live row per value of a table's rule columns (db/live-unique-rules.ts: a form holds one
 * live indicator per key). A second insert is refused with 409, `current` = the row the form
 * holds and `duplicateOf` = its id, so the client turns its insert into an update of that row
 * (nothing lost, no duplicate). The database's unique index is the last line behind this check.
 */
export async function refuseSecondLiveRow(
  ctx: RepoContext,
  table: TableInfo,
  props: Properties,
  path: string,
  writes: Pick<RecordWrites, 'pendingTableOf' | 'liveRow'>,
): Promise<void> {
  const columns = liveRuleColumns(table);
  if (!columns) return;
  const values = columns.map((column) => props[String(column.id)]);
  if (values.some((value) => value === undefined || value === null)) return;
  // A parent inserted earlier in this bulk call has no rows in the database yet.
  if (values.some((value) => typeof value === 'number' && writes.pendingTableOf(value) !== undefined)) return;
  const existing = await writes.liveRow(table, columns, values);
  if (!existing) return;
  const described = columns.map((column, i) => `${column.name} ${JSON.stringify(values[i])}`).join(', ');
  throw conflict(`${prefixOf(path)}${table.key} already holds a live row with ${described}: record ${existing.id}`, rowToRecord(existing), {
    duplicateOf: existing.id,
  });
}
