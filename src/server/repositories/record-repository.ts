/**
 * Reading records: single rows, filtered/sorted/paged search, ids, text search, spatial and
 * extent queries. The caller's scope (access/scope.ts) is ANDed into every query here, so no
 * filter a client sends can widen a farmer's view. Deleted rows are excluded unless asked for.
 */
import type { Geometry } from 'geojson';
import { sql, type SelectQueryBuilder } from 'kysely';
import { PAGE_SIZE } from '../../common/constants';
import type { SearchRequest } from '../../common/filter';
import type { Extent, HistoryEntry, WireRecord } from '../../common/schemas/wire';
import { assertMayWrite, type WriteAction } from '../access/policy';
import { scopePredicate } from '../access/scope';
import type { Executor } from '../db/dialect';
import type { Database, RecordRow } from '../db/types';
import { invalid, notFound } from '../domain-errors';
import { tableInBody, tableOf, type RepoContext } from './context';
import { compileFilter, compileSorts, type FilterContext } from './filter-compiler';
import { bboxOf, bboxPolygon, intersects, type BBox } from './geometry';
import type { TableInfo } from '../project-schema';
import { historyRowToEntry, rowToRecord } from './record-mapper';

/** Upper bound of rows an extent query answers (the rest is counted in totalCount). */
const MAX_EXTENT_RESULTS = 50_000;

type RecordQuery = SelectQueryBuilder<Database, 'records', object>;

function filterContext(ctx: RepoContext, table: TableInfo): FilterContext {
  return { table, dialect: ctx.dialect, email: ctx.access.email, now: ctx.now };
}

/** Rows of `table` the caller may see. */
export function visibleRows(ctx: RepoContext, table: TableInfo, options: { includeDeleted?: boolean } = {}): RecordQuery {
  let query: RecordQuery = ctx.db.selectFrom('records').where('records.project_id', '=', ctx.schema.id).where('records.table_id', '=', table.id);
  if (!options.includeDeleted) query = query.where('records.deleted', '=', 0);
  const scope = scopePredicate(ctx.access, ctx.schema, ctx.dialect, table);
  if (scope) query = query.where(scope);
  return query;
}

/** One row the caller may see, or undefined (another farmer's row looks exactly like a missing one). */
export async function findVisibleRow(
  ctx: RepoContext,
  table: TableInfo,
  id: number,
  options: { includeDeleted?: boolean } = {},
): Promise<RecordRow | undefined> {
  return visibleRows(ctx, table, options).selectAll('records').where('records.id', '=', id).executeTakeFirst();
}

export async function getRecord(ctx: RepoContext, tableId: number, id: number): Promise<WireRecord> {
  const table = tableOf(ctx, tableId);
  const row = await findVisibleRow(ctx, table, id);
  if (!row) throw notFound(`record ${id} not found in table ${table.key} (${table.id})`);
  return rowToRecord(row);
}

function paging(page: number | undefined, perPage: number | undefined): { limit: number; offset: number } {
  const p = page ?? 1;
  const size = perPage ?? PAGE_SIZE;
  if (!Number.isInteger(p) || p < 1) throw invalid('page: must be an integer >= 1');
  if (!Number.isInteger(size) || size < 1 || size > PAGE_SIZE) throw invalid(`perPage: must be an integer from 1 to ${PAGE_SIZE}`);
  return { limit: size, offset: (p - 1) * size };
}

function filteredQuery(ctx: RepoContext, request: SearchRequest): { table: TableInfo; query: RecordQuery; fctx: FilterContext } {
  const table = tableInBody(ctx, request.tableId, 'tableId');
  const fctx = filterContext(ctx, table);
  let query = visibleRows(ctx, table, { includeDeleted: request.includeDeleted === true });
  if (request.filters !== undefined && request.filters !== null) query = query.where(compileFilter(request.filters, fctx));
  return { table, query, fctx };
}

/**
 * The two statements of a search: the page of rows and the totalCount. Exported so tests can
 * EXPLAIN exactly what the route runs (test/server/property-indexes.test.ts).
 */
export function searchQueries(ctx: RepoContext, request: SearchRequest) {
  const { query, fctx } = filteredQuery(ctx, request);
  const { limit, offset } = paging(request.page, request.perPage);
  let rowsQuery = query.selectAll('records');
  for (const part of compileSorts(request.sorts, fctx)) rowsQuery = rowsQuery.orderBy(part);
  return { rows: rowsQuery.limit(limit).offset(offset), count: countQuery(query), limit, offset };
}

export async function searchRecords(ctx: RepoContext, request: SearchRequest): Promise<{ records: WireRecord[]; totalCount: number }> {
  const { rows: rowsQuery, count, limit, offset } = searchQueries(ctx, request);
  const rows = await rowsQuery.execute();
  const totalCount = await countOf(count, rows.length, offset, limit);
  return { records: rows.map(rowToRecord), totalCount };
}

export async function searchIds(ctx: RepoContext, request: SearchRequest): Promise<{ ids: number[]; totalCount: number }> {
  const { query, fctx } = filteredQuery(ctx, request);
  const { limit, offset } = paging(request.page, request.perPage);
  let idsQuery = query.select('records.id');
  for (const part of compileSorts(request.sorts, fctx)) idsQuery = idsQuery.orderBy(part);
  const rows = await idsQuery.limit(limit).offset(offset).execute();
  const totalCount = await countOf(countQuery(query), rows.length, offset, limit);
  return { ids: rows.map((r) => r.id), totalCount };
}

/** The count of a filtered query (no order, no paging: the planner counts over the narrowest index). */
function countQuery(query: RecordQuery) {
  return query.select((eb) => eb.fn.countAll<number>().as('n'));
}

/** totalCount without a second query when the page shows the result is complete. */
async function countOf(count: ReturnType<typeof countQuery>, got: number, offset: number, limit: number): Promise<number> {
  if (got < limit && (got > 0 || offset === 0)) return offset + got;
  const row = await count.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The visible, non-deleted rows among `ids`, in the order asked. */
export async function recordsByIds(ctx: RepoContext, tableId: number, ids: number[]): Promise<WireRecord[]> {
  const table = tableInBody(ctx, tableId, 'tableId');
  if (ids.length === 0) return [];
  const rows = await visibleRows(ctx, table).selectAll('records').where('records.id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return [...new Set(ids)].flatMap((id) => {
    const row = byId.get(id);
    return row ? [rowToRecord(row)] : [];
  });
}

/** Tables a multi-table query names, checked against the project. */
function tablesFor(ctx: RepoContext, tableIds: number[] | undefined, path: string): TableInfo[] {
  if (!tableIds || tableIds.length === 0) return ctx.schema.tables;
  return [...new Set(tableIds)].map((id) => tableInBody(ctx, id, path));
}

/** Records of several tables the caller may see: (table_id = A and scopeA) or (table_id = B and scopeB)… */
function visibleInTables(ctx: RepoContext, tables: TableInfo[]): RecordQuery {
  const parts = tables.map((table) => {
    const scope = scopePredicate(ctx.access, ctx.schema, ctx.dialect, table);
    return scope ? sql<boolean>`(records.table_id = ${table.id} and ${scope})` : sql<boolean>`records.table_id = ${table.id}`;
  });
  return ctx.db
    .selectFrom('records')
    .where('records.project_id', '=', ctx.schema.id)
    .where('records.deleted', '=', 0)
    .where(parts.length ? sql<boolean>`(${sql.join(parts, sql` or `)})` : sql<boolean>`1 = 0`);
}

/**
 * GET …/search/{profileId}/{limit}/{page}/{query}: accent- and case-insensitive text search over
 * the text columns of the profile's tables, every word matched as a prefix, best match first.
 */
export async function textSearch(
  ctx: RepoContext,
  input: { profileId: number; limit: number; page: number; query: string; tableIds?: number[] },
): Promise<{ records: WireRecord[]; totalCount: number }> {
  const profile = await ctx.db
    .selectFrom('search_profiles')
    .selectAll()
    .where('id', '=', input.profileId)
    .where('project_id', '=', ctx.schema.id)
    .executeTakeFirst();
  if (!profile) throw notFound(`search profile ${input.profileId} not found in project ${ctx.schema.id}`);
  const profileTables = profile.table_ids ? new Set<number>(JSON.parse(profile.table_ids) as number[]) : null;
  let tables = tablesFor(ctx, input.tableIds, 'tableIds');
  if (profileTables) tables = tables.filter((t) => profileTables.has(t.id));
  const hits = ctx.dialect.textSearchSql(input.query);
  if (!hits || tables.length === 0) return { records: [], totalCount: 0 };
  const { limit, offset } = paging(input.page, input.limit);
  const base = visibleInTables(ctx, tables).innerJoin(sql<{ id: number; rank: number }>`(${hits})`.as('hits'), (join) =>
    join.onRef('hits.id', '=', 'records.id'),
  );
  const rows = await base.selectAll('records').orderBy('hits.rank').orderBy('records.id').limit(limit).offset(offset).execute();
  const totalCount = await countOfJoined(base, rows.length, offset, limit);
  return { records: rows.map(rowToRecord), totalCount };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function countOfJoined(query: SelectQueryBuilder<any, any, object>, got: number, offset: number, limit: number): Promise<number> {
  if (got < limit && (got > 0 || offset === 0)) return offset + got;
  const row = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number((row as { n: number }).n);
}

function bboxFilter(query: RecordQuery, box: BBox): RecordQuery {
  const [minX, minY, maxX, maxY] = box;
  return query.where('records.min_x', '<=', maxX).where('records.max_x', '>=', minX).where('records.min_y', '<=', maxY).where('records.max_y', '>=', minY);
}

/** Rows of the given tables whose geometry intersects `geometry`: bbox index prefilter, then an exact test. */
async function intersecting(ctx: RepoContext, tables: TableInfo[], geometry: Geometry): Promise<RecordRow[]> {
  const box = bboxOf(geometry);
  // PostGIS: the GiST index and ST_Intersects do both steps in the database.
  const exact = ctx.dialect.intersectsSql(geometry);
  if (exact) return visibleInTables(ctx, tables).where(exact).selectAll('records').orderBy('records.id').execute();
  const candidates = await bboxFilter(visibleInTables(ctx, tables), box).selectAll('records').orderBy('records.id').execute();
  return candidates.filter((row) => row.geometry !== null && intersects(JSON.parse(row.geometry) as Geometry, geometry));
}

/** POST …/spatial: records of `tableIds` intersecting a geometry, paged. */
export async function spatialSearch(
  ctx: RepoContext,
  input: { tableIds: number[]; geometry: Geometry; page?: number; perPage?: number },
): Promise<{ records: WireRecord[]; totalCount: number }> {
  const tables = tablesFor(ctx, input.tableIds, 'tableIds');
  const { limit, offset } = paging(input.page, input.perPage);
  const rows = await intersecting(ctx, tables, input.geometry);
  return { records: rows.slice(offset, offset + limit).map(rowToRecord), totalCount: rows.length };
}

function validateExtent(extent: Extent): BBox {
  const { minX, minY, maxX, maxY } = extent;
  for (const [name, value] of Object.entries({ minX, minY, maxX, maxY })) {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(`extent.${name}: must be a number`);
  }
  if (minX < -180 || maxX > 180) throw invalid('extent: longitude out of range [-180, 180]');
  if (minY < -90 || maxY > 90) throw invalid('extent: latitude out of range [-90, 90]');
  if (minX > maxX) throw invalid('extent: minX is greater than maxX');
  if (minY > maxY) throw invalid('extent: minY is greater than maxY');
  return [minX, minY, maxX, maxY];
}

/**
 * GET …/extenttables: records of `tableIds` intersecting the extent. `columnIds` (optional) limits
 * the returned properties to those columns (map layers need only a few).
 */
export async function extentSearch(
  ctx: RepoContext,
  input: { tableIds: number[]; extent: Extent; columnIds?: number[] },
): Promise<{ records: WireRecord[]; totalCount: number }> {
  const tables = tablesFor(ctx, input.tableIds, 'tableIds');
  const box = validateExtent(input.extent);
  if (input.columnIds) {
    for (const id of input.columnIds) {
      if (!tables.some((t) => t.columnsById.has(id))) throw invalid(`columnIds: unknown column ${id} in the requested tables`);
    }
  }
  const rows = await intersecting(ctx, tables, bboxPolygon(box));
  const keep = input.columnIds ? new Set(input.columnIds.map(String)) : null;
  const records = rows.slice(0, MAX_EXTENT_RESULTS).map((row) => {
    const record = rowToRecord(row);
    if (keep) record.properties = Object.fromEntries(Object.entries(record.properties).filter(([key]) => keep.has(key)));
    return record;
  });
  return { records, totalCount: rows.length };
}

/** Change history of a record, oldest first (who, when, old → new). */
export async function historyOf(ctx: RepoContext, recordId: number): Promise<HistoryEntry[]> {
  const rows = await ctx.db.selectFrom('record_history').selectAll().where('record_id', '=', recordId).orderBy('id').execute();
  return rows.map(historyRowToEntry);
}

/**
 * Record `recordId` of the project (any table) if the caller may see it, else 404 — for code
 * outside the record routes (attachments, `full`), with the same rules. With `write`, also checks
 * the role may perform that action on the record's table (attachments of a record count as an
 * 'update' of it), else 403.
 */
export async function assertRecordAccess(ctx: RepoContext, recordId: number, write?: WriteAction): Promise<WireRecord> {
  const located = await ctx.db.selectFrom('records').select('table_id').where('id', '=', recordId).where('project_id', '=', ctx.schema.id).executeTakeFirst();
  const table = located ? ctx.schema.tablesById.get(located.table_id) : undefined;
  const row = table ? await findVisibleRow(ctx, table, recordId) : undefined;
  if (!table || !row) throw notFound(`record ${recordId} not found`);
  if (write) assertMayWrite(ctx.access, table.key, write);
  return rowToRecord(row);
}

/** Where a live record lives (project, table) and its properties, whoever may see it: callers check access. */
export async function locateLiveRecord(db: Executor, id: number): Promise<{ project_id: number; table_id: number; properties: string } | undefined> {
  return db.selectFrom('records').select(['project_id', 'table_id', 'properties']).where('id', '=', id).where('deleted', '=', 0).executeTakeFirst();
}
