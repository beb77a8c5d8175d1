/**
 * The editors' audit trail: every entry of `record_history` in a project, newest first, filtered
 * by farmer (every row that ever hung under the farmer, deleted ones included, by the ownership
 * chain as it stands now), by record (the same, under one record), table and a time window, paged in SQL with a total. Each entry says
 * what changed as column names with the value before and after (common/history-diff.ts), and
 * names the record and each value that has a name (record-labels.ts: the farmer, meadow, form…,
 * not their ids), so the screen and the CSV need no table metadata of their own.
 *
 * Pages are `limit/offset` over the history's primary key (descending): the same entry order on
 * SQLite and PostgreSQL, and a total for the pager. The CSV walks the whole selection in keyset
 * batches (`id < last`), so an export of millions of entries never holds them all in memory.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import { slAudit } from '../../common/i18n/sl';
import { geometryChanged, propertyChanges } from '../../common/history-diff';
import type { AuditChange, AuditEntry, AuditPage, AuditQuery } from '../../common/schemas/audit';
import { inList, loadOwnedChain, loadRowsUnder, type OwnedChain } from '../access/scope';
import type { Database } from '../db/types';
import { invalid } from '../domain-errors';
import type { RepoContext } from './context';
import { loadLabelRows, recordLabel, valueLabel } from './record-labels';
import { historyRowToEntry } from './record-mapper';

/** Entries read per statement when the CSV walks a whole selection. */
const CSV_BATCH = 1000;

type HistoryQuery = SelectQueryBuilder<Database, 'record_history', object>;

/** The selection as a query, after checking the farmer and table belong to the project. */
async function selection(ctx: RepoContext, query: AuditQuery): Promise<HistoryQuery> {
  const t = slAudit.invalid;
  if (query.tableId !== undefined && !ctx.schema.tablesById.has(query.tableId)) throw invalid(t.table(query.tableId));
  if (query.from && query.to && query.from >= query.to) throw invalid(t.range);
  let q: HistoryQuery = ctx.db.selectFrom('record_history');
  q = q.where('table_id', 'in', query.tableId !== undefined ? [query.tableId] : ctx.schema.tables.map((table) => table.id));
  if (query.farmerId !== undefined) {
    const farmers = ctx.schema.tablesByKey.get('farmers');
    const farmer = farmers
      ? await ctx.db.selectFrom('records').select('id').where('id', '=', query.farmerId).where('table_id', '=', farmers.id).executeTakeFirst()
      : undefined;
    if (!farmer) throw invalid(t.farmer(query.farmerId));
    q = q.where(inList(sql.ref('record_history.record_id'), idsOf(await loadOwnedChain(ctx.db, ctx.dialect, ctx.schema, query.farmerId, true))));
  }
  if (query.recordId !== undefined) {
    // Deleted records keep their trail: the record is looked up whatever its state.
    const record = await ctx.db
      .selectFrom('records')
      .select('table_id')
      .where('id', '=', query.recordId)
      .where('project_id', '=', ctx.schema.id)
      .executeTakeFirst();
    const table = record ? ctx.schema.tablesById.get(record.table_id) : undefined;
    if (!table) throw invalid(t.record(query.recordId));
    q = q.where(inList(sql.ref('record_history.record_id'), idsOf(await loadRowsUnder(ctx.db, ctx.dialect, ctx.schema, table.key, query.recordId))));
  }
  if (query.from) q = q.where('changed_at', '>=', query.from);
  if (query.to) q = q.where('changed_at', '<', query.to);
  return q;
}

function idsOf(chain: OwnedChain): Set<number> {
  const ids = new Set<number>();
  for (const owned of chain.values()) for (const id of owned) ids.add(id);
  return ids;
}

type HistoryRow = Parameters<typeof historyRowToEntry>[0];

/** Entries of `rows`, each record and each named value by what an adviser knows it as (record-labels.ts). */
async function toEntries(ctx: RepoContext, rows: HistoryRow[]): Promise<AuditEntry[]> {
  const entries = rows.map((row) => ({ row, entry: historyRowToEntry(row) }));
  const ids = new Set<number>();
  for (const { row, entry } of entries) {
    ids.add(entry.recordId);
    const table = ctx.schema.tablesById.get(row.table_id);
    for (const snapshot of [entry.old, entry.new]) {
      for (const [key, value] of Object.entries(snapshot?.properties ?? {})) {
        if (typeof value === 'number' && table?.columnsById.get(Number(key))?.type === 'reference') ids.add(value);
      }
    }
  }
  const labels = await loadLabelRows(ctx, ids);
  return entries.map(({ row, entry }) => toEntry(ctx, row, entry, labels));
}

function toEntry(
  ctx: RepoContext,
  row: HistoryRow,
  entry: ReturnType<typeof historyRowToEntry>,
  labels: Awaited<ReturnType<typeof loadLabelRows>>,
): AuditEntry {
  const table = ctx.schema.tablesById.get(row.table_id);
  const name = (key: string) => table?.columnsById.get(Number(key))?.name ?? key;
  const changes: AuditChange[] = propertyChanges(entry.old, entry.new).map((c) => {
    const column = name(c.key);
    const oldText = valueLabel(labels, table, column, c.old);
    const newText = valueLabel(labels, table, column, c.new);
    return { column, old: c.old, new: c.new, ...(oldText !== null ? { oldText } : {}), ...(newText !== null ? { newText } : {}) };
  });
  const record = recordLabel(labels, entry.recordId);
  if (geometryChanged(entry.old, entry.new)) changes.push({ column: 'geometry', old: entry.old?.geometry ?? null, new: entry.new?.geometry ?? null });
  return {
    id: entry.id,
    changedAt: entry.changedAt,
    changedBy: entry.changedBy,
    action: entry.action,
    tableId: row.table_id,
    table: table?.key ?? String(row.table_id),
    recordId: entry.recordId,
    ...(record !== null ? { record } : {}),
    changes,
  };
}

/** One page (1-based) of the selection, newest first, and how many entries it has in all. */
export async function auditPage(ctx: RepoContext, query: AuditQuery, page: number, perPage: number): Promise<AuditPage> {
  const q = await selection(ctx, query);
  const rows = await q
    .selectAll()
    .orderBy('id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  const offset = (page - 1) * perPage;
  // A short page that is not past the end already tells the total.
  const totalCount =
    rows.length < perPage && (rows.length > 0 || offset === 0)
      ? offset + rows.length
      : Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return { entries: await toEntries(ctx, rows), totalCount };
}

/**
 * Every entry of the selection, newest first, in batches (for the CSV). The query is checked
 * before the first batch is asked for, so a bad one fails before any byte is sent.
 */
export async function auditEntries(ctx: RepoContext, query: AuditQuery, batchSize = CSV_BATCH): Promise<AsyncGenerator<AuditEntry[]>> {
  return batches(ctx, await selection(ctx, query), batchSize);
}

async function* batches(ctx: RepoContext, q: HistoryQuery, batchSize: number): AsyncGenerator<AuditEntry[]> {
  let before: number | null = null;
  for (;;) {
    const rows = await q
      .selectAll()
      .$if(before !== null, (b) => b.where('id', '<', before!))
      .orderBy('id', 'desc')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return;
    yield await toEntries(ctx, rows);
    if (rows.length < batchSize) return;
    before = rows[rows.length - 1]!.id;
  }
}
