/**
 * Writing records: insert, update (optimistic concurrency on `version`), delete (soft) and
 * archive; bulk calls (bulk-writer.ts) apply their operations with the same code. Every write
 * runs inside the request's transaction (routes pass it as ctx.db), checks the role policy
 * (access/policy.ts) and the farmer scope, validates properties against the column types and
 * references against visible rows, keeps the text index and the change history in step. Clients
 * cannot set ids of existing rows, versions, timestamps or ownership columns pointing at rows
 * they cannot see.
 */
import type { Geometry } from 'geojson';
import { sql, type Insertable } from 'kysely';
import { isLocalId } from '../../common/record-id';
import type { Properties, WireRecord } from '../../common/schemas/wire';
import { searchableText } from '../../common/text-search';
import { assertMayChangeColumns, assertMayWrite } from '../access/policy';
import { addOwned, OWNERSHIP_CHAIN } from '../access/scope';
import { LIVE_UNIQUE_RULES } from '../db/live-unique-rules';
import { indexKindOf } from '../db/property-indexes';
import type { Database, NewRecordRow, RecordRow } from '../db/types';
import { conflict, invalid, notFound } from '../domain-errors';
import { tableInBody, type RepoContext } from './context';
import { bboxOf, normalizeGeometry } from './geometry';
import type { ColumnInfo, TableInfo } from '../project-schema';
import { parseProperties, rowToRecord, rowToRecordWith } from './record-mapper';
import { findVisibleRow, visibleRows } from './record-repository';
import { formIdOfWrite, keepFormScore } from './form-score'; // stored form score kept in step
import { applyRecordRules, hasRecordRules } from './record-rules'; // per-table rules: seasons, farmers, meadows
import { applyReviewRules, assertFarmerMayChange, hasReviewRules, type MoveComment, type RowLookup } from './review-rules'; // the review loop
import type { ReviewState } from '../../common/review';

const MAX_TEXT_LENGTH = 100_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Offline ids (common/record-id) of inserts in this batch → their new server ids. */
export type LocalIdMap = Map<number, number>;

/** `name` under the error path of an operation (bulk: `operations[3].name`). */
function pathOf(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

/**
 * The error for a refused value. A module-level function, not a closure per checked value: a bulk
 * call checks tens of thousands, and under tsx (esbuild's keepNames) every named closure costs a
 * property definition.
 */
function refusedValue(column: ColumnInfo, path: string, key: string, why: string) {
  return invalid(`${path}.${key} (${column.name}): ${why}`);
}

function checkValue(column: ColumnInfo, value: unknown, path: string, key: string): unknown {
  if (value === null) return null;
  switch (column.type) {
    case 'text':
      if (typeof value !== 'string') throw refusedValue(column, path, key, 'must be a string');
      if (value.length > MAX_TEXT_LENGTH) throw refusedValue(column, path, key, `longer than ${MAX_TEXT_LENGTH} characters`);
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw refusedValue(column, path, key, 'must be a number');
      return value;
    case 'reference':
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
        throw refusedValue(column, path, key, 'must be a record id (positive integer)');
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw refusedValue(column, path, key, 'must be true or false');
      return value;
    case 'date':
      if (typeof value !== 'string' || !ISO_DATE.test(value) || Number.isNaN(Date.parse(value)))
        throw refusedValue(column, path, key, 'must be an ISO 8601 date');
      return value;
    default:
      return value;
  }
}

/** Checks keys (column ids of the table) and value types; returns a clean copy. */
function validateProperties(table: TableInfo, input: unknown, path = 'properties'): Properties {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw invalid(`${path}: must be an object keyed by column id`);
  const result: Properties = {};
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const column = table.columnsByKey.get(key);
    if (!column) throw invalid(`${path}.${key}: unknown column of table ${table.key} (${table.id})`);
    result[key] = checkValue(column, value, path, key);
  }
  return result;
}

/**
 * Reference columns must point at a visible, non-deleted row of their table (for farmers: one of
 * their own rows, or a duration). Local ids of inserts earlier in the same bulk call are replaced
 * by their server ids first.
 */
async function checkReferences(ctx: RepoContext, table: TableInfo, props: Properties, path: string, options: WriteOptions): Promise<void> {
  const { localIds, verifiedRefs: verified } = options;
  for (const column of table.columns) {
    if (column.type !== 'reference' || column.refTableId === null) continue;
    const key = String(column.id);
    let value = props[key];
    if (value === undefined || value === null) continue;
    if (isLocalId(value) && localIds?.has(value)) {
      value = localIds.get(value)!;
      props[key] = value;
    }
    const target = ctx.schema.tablesById.get(column.refTableId);
    if (!target) throw invalid(`${path}.${key} (${column.name}): refers to an unknown table`);
    // Within one bulk call many rows point at the same parent: check each target once.
    const cacheKey = `${target.id}:${String(value)}`;
    if (verified?.has(cacheKey)) continue;
    // A row inserted earlier in this bulk call and not written yet: the caller just inserted it
    // (into their own chain), so it is visible and live; another table's id is not found below.
    if (options.writes?.pendingTableOf(value as number) === target.id) {
      verified?.add(cacheKey);
      continue;
    }
    const row = await visibleRows(ctx, target)
      .select('records.id')
      .where('records.id', '=', value as number)
      .executeTakeFirst();
    if (!row) throw invalid(`${path}.${key} (${column.name}): record ${String(value)} not found in table ${target.key}`);
    verified?.add(cacheKey);
  }
}

/** A farmer's new row must hang from their own chain, or they could not see it afterwards. */
function checkOwnershipColumn(ctx: RepoContext, table: TableInfo, props: Properties, path: string): void {
  if (ctx.access.role !== 'farmer') return;
  const link = OWNERSHIP_CHAIN[table.key];
  const column = link ? table.columnsByName.get(link.column) : undefined;
  if (column && (props[String(column.id)] === undefined || props[String(column.id)] === null)) {
    throw invalid(`${path}.${column.id} (${column.name}): is required`);
  }
}

/** Text indexed for search: the string values of the table's text columns (common/text-search.ts). */
export function searchText(table: TableInfo, props: Properties): string {
  return searchableText(table.columns.filter((c) => c.type === 'text').map((c) => props[String(c.id)]));
}

function geometryColumns(geometry: Geometry | null): {
  geometry: string | null;
  min_x: number | null;
  min_y: number | null;
  max_x: number | null;
  max_y: number | null;
} {
  if (!geometry) return { geometry: null, min_x: null, min_y: null, max_x: null, max_y: null };
  const [minX, minY, maxX, maxY] = bboxOf(geometry);
  return { geometry: JSON.stringify(geometry), min_x: minX, min_y: minY, max_x: maxX, max_y: maxY };
}

function actor(ctx: RepoContext): string {
  return ctx.access.email || ctx.access.principal.subject;
}

export type HistoryValues = Insertable<Database['record_history']>;

/** A row's properties and geometry as one JSON text: both columns are JSON texts already (not parsed and written again). */
function snapshot(r: { properties: string; geometry: string | null } | null): string | null {
  return r ? `{"properties":${r.properties},"geometry":${r.geometry ?? 'null'}}` : null;
}

function historyValues(
  ctx: RepoContext,
  row: { id: number; table_id: number },
  action: 'insert' | 'update' | 'delete' | 'archive' | 'unarchive',
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

async function recordHistory(
  ctx: RepoContext,
  row: { id: number; table_id: number },
  action: 'insert' | 'update' | 'delete' | 'archive' | 'unarchive',
  before: RecordRow | null,
  after: { properties: string; geometry: string | null } | null,
): Promise<void> {
  await ctx.db
    .insertInto('record_history')
    .values(historyValues(ctx, row, action, before, after))
    .execute();
}

/**
 * Where the writes of insertRecord and updateRecord go. Single-record calls write at once; a bulk
 * call (bulk-writer.ts) keeps new rows, their text index and history entries and writes them with
 * multi-row statements, and reads the rows its updates change in one go.
 */
export interface RecordWrites {
  /** Inserts a new row (`properties`: its properties, parsed); answers it as stored. */
  insert(values: NewRecordRow, properties: Properties): Promise<RecordRow>;
  /** The row an update changes (visible to the caller, not deleted), or undefined. */
  current(table: TableInfo, id: number): Promise<RecordRow | undefined>;
  /** Writes an update of `current` if it is still at its version; answers the row after it, or undefined. */
  update(current: RecordRow, values: RecordUpdate): Promise<RecordRow | undefined>;
  /** The row after an update (`properties`: its properties, parsed; bulk: later operations of the call read it). */
  updated(row: RecordRow, properties: Properties): void;
  /** Replaces the indexed text of a record; `fresh`: inserted by this request. */
  indexText(recordId: number, text: string, fresh: boolean): Promise<void>;
  history(values: HistoryValues): Promise<void>;
  /** Before a read that must see what this call wrote (the natural-key look-up). */
  flush(): Promise<void>;
  /** The table id of a row inserted by this call and not written yet, else undefined. */
  pendingTableOf(id: number): number | undefined;
  /** The live row of a table with a one-live-row rule holding `values` in the rule's columns (findLiveRow), else undefined. */
  liveRow(table: TableInfo, columns: readonly ColumnInfo[], values: readonly unknown[]): Promise<RecordRow | undefined>;
}

/** The columns an update sets. */
export type RecordUpdate = Pick<RecordRow, 'properties' | 'updated_at' | 'updated_by' | 'version'> & Partial<ReturnType<typeof geometryColumns>>;

/** The update as one statement, checked against the version it was based on. */
export function updateRow(ctx: RepoContext, current: RecordRow, values: RecordUpdate): Promise<RecordRow | undefined> {
  return ctx.db.updateTable('records').set(values).where('id', '=', current.id).where('version', '=', current.version).returningAll().executeTakeFirst();
}

/** Writes one statement at a time, in the caller's transaction (single-record routes). */
function directWrites(ctx: RepoContext): RecordWrites {
  return {
    insert: (values) => ctx.db.insertInto('records').values(values).returningAll().executeTakeFirstOrThrow(),
    current: (table, id) => findVisibleRow(ctx, table, id),
    update: (current, values) => updateRow(ctx, current, values),
    updated: () => undefined,
    indexText: async (recordId, text, fresh) => {
      if (fresh && !text) return;
      await ctx.dialect.indexText(ctx.db, recordId, text);
    },
    history: async (values) => {
      await ctx.db.insertInto('record_history').values(values).execute();
    },
    flush: async () => undefined,
    pendingTableOf: () => undefined,
    liveRow: (table, columns, values) => findLiveRow(ctx, table, columns, values),
  };
}

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

async function findLiveNaturalDuplicate(ctx: RepoContext, table: TableInfo, props: Properties): Promise<RecordRow | undefined> {
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
async function refuseSecondLiveRow(ctx: RepoContext, table: TableInfo, props: Properties, path: string, writes: RecordWrites): Promise<void> {
  const columns = liveRuleColumns(table);
  if (!columns) return;
  const values = columns.map((column) => props[String(column.id)]);
  if (values.some((value) => value === undefined || value === null)) return;
  // A parent inserted earlier in this bulk call has no rows in the database yet.
  if (values.some((value) => typeof value === 'number' && writes.pendingTableOf(value) !== undefined)) return;
  const existing = await writes.liveRow(table, columns, values);
  if (!existing) return;
  const described = columns.map((column, i) => `${column.name} ${JSON.stringify(values[i])}`).join(', ');
  throw conflict(`${path ? `${path}: ` : ''}${table.key} already holds a live row with ${described}: record ${existing.id}`, rowToRecord(existing), {
    duplicateOf: existing.id,
  });
}

export interface InsertInput {
  tableId: number;
  properties: unknown;
  geometry?: unknown;
}

export interface WriteOptions {
  /** Prefix of error paths (bulk: `operations[3]`). */
  path?: string;
  localIds?: LocalIdMap;
  /** Reference targets already checked in this bulk call (cleared when a row is deleted). */
  verifiedRefs?: Set<string>;
  /** Where the writes go (default: at once, directWrites). */
  writes?: RecordWrites;
  /** The comment a form's move adds (review-rules.ts): the state the form moved to. */
  moveState?: ReviewState;
}

/**
 * Adds the comment of a form's move to the form's thread (docs/architecture.md, The review loop):
 * an ordinary insert of the caller's, in the same transaction and writes, with its history entry.
 */
async function addMoveComment(ctx: RepoContext, formId: number, comment: MoveComment, options: WriteOptions): Promise<void> {
  const comments = ctx.schema.tablesByKey.get('comments');
  if (!comments) return;
  const key = (name: string) => String(comments.columnsByName.get(name)?.id);
  const properties = {
    [key('parent')]: formId,
    [key('text')]: comment.text,
    [key('indicator')]: comment.indicator,
    [key('state')]: null,
    [key('author')]: null,
  };
  await insertRecord(ctx, { tableId: comments.id, properties }, { ...options, moveState: comment.state });
}

/** The rows a write's checks look up, as its writes see them (a bulk call's held rows included). */
function lookupOf(writes: RecordWrites): RowLookup {
  return (table, id) => writes.current(table, id);
}

export async function insertRecord(ctx: RepoContext, input: InsertInput, options: WriteOptions = {}): Promise<WireRecord> {
  const path = options.path ?? '';
  const writes = options.writes ?? directWrites(ctx);
  const table = tableInBody(ctx, input.tableId, pathOf(path, 'tableId'));
  assertMayWrite(ctx.access, table.key, 'insert');
  const props = validateProperties(table, input.properties, pathOf(path, 'properties'));
  const geometry = normalizeGeometry(input.geometry, pathOf(path, 'geometry')) ?? null;
  checkOwnershipColumn(ctx, table, props, pathOf(path, 'properties'));
  await checkReferences(ctx, table, props, pathOf(path, 'properties'), options);
  if (hasRecordRules(table)) await applyRecordRules(ctx, table, { props, changed: new Set(Object.keys(props)), geometry, flush: () => writes.flush() });
  if (table.key === 'indicators') await assertFormUnlocked(ctx, table, props, writes);
  const comment = hasReviewRules(table)
    ? await applyReviewRules(ctx, table, {
        props,
        given: { ...props },
        before: null,
        flush: () => writes.flush(),
        row: lookupOf(writes),
        moveState: options.moveState,
      })
    : null;
  if (NATURAL_KEYS[table.key]) await writes.flush();
  const existing = await findLiveNaturalDuplicate(ctx, table, props);
  if (existing) return rowToRecord(existing);
  await refuseSecondLiveRow(ctx, table, props, path, writes);
  const properties = JSON.stringify(props);
  const row = await writes.insert(
    {
      project_id: ctx.schema.id,
      table_id: table.id,
      properties,
      ...geometryColumns(geometry),
      deleted: 0,
      archived: 0,
      created_at: ctx.now,
      updated_at: ctx.now,
      version: 1,
      created_by: actor(ctx),
      updated_by: actor(ctx),
    },
    props,
  );
  addOwned(ctx.access, table.key, row.id);
  await writes.indexText(row.id, searchText(table, props), true);
  await writes.history(historyValues(ctx, row, 'insert', null, row));
  if (comment) await addMoveComment(ctx, row.id, comment, options);
  const rescored = await rescoreAfterWrite(ctx, table, props, row.id);
  return rescored ? rowToRecord(rescored) : rowToRecordWith(row, props);
}

export interface UpdateInput {
  tableId: number;
  id: number;
  /** Merged into the stored properties: given keys replace, null clears, omitted keys stay. */
  properties?: unknown;
  /** undefined = unchanged, null = remove the geometry. */
  geometry?: unknown;
  /** The version the edit was based on; stale → 409 with the current record. */
  version?: number;
}

export async function updateRecord(ctx: RepoContext, input: UpdateInput, options: WriteOptions = {}): Promise<WireRecord> {
  const path = options.path ?? '';
  const table = tableInBody(ctx, input.tableId, pathOf(path, 'tableId'));
  assertMayWrite(ctx.access, table.key, 'update');
  const writes = options.writes ?? directWrites(ctx);
  const id = options.localIds?.get(input.id) ?? input.id;
  const current = await writes.current(table, id);
  if (!current) throw notFound(`${path ? `${path}: ` : ''}record ${input.id} not found in table ${table.key} (${table.id})`);
  const before = parseProperties(current.properties);
  if (input.version !== undefined && input.version !== current.version) {
    // A farmer's edit of a form under review is refused as that even when it is stale too: "keep
    // mine" after a plain conflict would only meet the lock (docs/architecture.md, The review loop).
    const named = Object.keys(typeof input.properties === 'object' && input.properties !== null ? input.properties : {}).map(
      (key) => table.columnsByKey.get(key)?.name ?? key,
    );
    await assertFarmerMayChange(ctx, table, current, before, lookupOf(writes), named);
    throw conflict(
      `${path ? `${path}: ` : ''}record ${id} is at version ${current.version}, the edit was based on version ${input.version}`,
      rowToRecord(current),
    );
  }
  const given = validateProperties(table, input.properties ?? {}, pathOf(path, 'properties'));
  // Local ids of this bulk call in reference columns become server ids before comparing.
  for (const [key, value] of Object.entries(given)) {
    if (typeof value === 'number' && table.columnsById.get(Number(key))?.type === 'reference' && options.localIds?.has(value))
      given[key] = options.localIds.get(value)!;
  }
  // Clients often send the whole record back: only values that differ count as changes.
  const changes: Properties = Object.fromEntries(Object.entries(given).filter(([key, value]) => JSON.stringify(before[key] ?? null) !== JSON.stringify(value)));
  const changedNames = Object.keys(changes).map((key) => table.columnsById.get(Number(key))!.name);
  const geometry = normalizeGeometry(input.geometry, pathOf(path, 'geometry'));
  const geometryChanged = geometry !== undefined && JSON.stringify(geometry) !== (current.geometry ?? 'null');
  assertMayChangeColumns(ctx.access, table.key, changedNames, geometryChanged);
  // A retried or no-op edit changes nothing: no new version, no history entry.
  if (changedNames.length === 0 && !geometryChanged) return rowToRecord(current);
  await assertFarmerMayChange(ctx, table, current, before, lookupOf(writes), geometryChanged ? [...changedNames, 'geometry'] : changedNames);
  // Only references this edit changes are checked: an unrelated edit must not fail because a row
  // referenced long ago has since been deleted.
  await checkReferences(ctx, table, changes, pathOf(path, 'properties'), options);
  const merged: Properties = { ...before, ...changes };
  checkOwnershipColumn(ctx, table, merged, pathOf(path, 'properties'));
  if (hasRecordRules(table))
    await applyRecordRules(ctx, table, {
      props: merged,
      changed: new Set(Object.keys(changes)),
      geometry: geometryChanged ? (geometry ?? null) : undefined,
      id: current.id,
      flush: () => writes.flush(),
    });
  // An indicator moved to another form: that form may not be locked either.
  if (table.key === 'indicators') await assertFarmerMayChange(ctx, table, current, merged, lookupOf(writes));
  const comment = hasReviewRules(table)
    ? await applyReviewRules(ctx, table, { props: merged, given, before, id: current.id, flush: () => writes.flush(), row: lookupOf(writes) })
    : null;
  const properties = JSON.stringify(merged);
  const row = await writes.update(current, {
    properties,
    ...(geometryChanged ? geometryColumns(geometry ?? null) : {}),
    updated_at: ctx.now,
    updated_by: actor(ctx),
    version: current.version + 1,
  });
  if (!row) throw conflict(`record ${id} changed while it was being updated`, rowToRecord(current));
  writes.updated(row, merged);
  if (comment) await addMoveComment(ctx, row.id, comment, options);
  // Most edits change answers, not text: the index entry stays (an FTS rewrite costs a read of the old entry).
  const text = searchText(table, merged);
  if (text !== searchText(table, before)) await writes.indexText(row.id, text, false);
  await writes.history(historyValues(ctx, row, 'update', current, row));
  // An indicator moved to another form changes the score of both.
  if (table.key === 'indicators') await rescoreAfterWrite(ctx, table, before, row.id);
  return rowToRecord((await rescoreAfterWrite(ctx, table, merged, row.id)) ?? row);
}

/** Recompute the stored score of the form this write touched (form-score.ts); the form row when it changed. */
async function rescoreAfterWrite(ctx: RepoContext, table: TableInfo, props: Properties, id: number): Promise<RecordRow | null> {
  const formId = formIdOfWrite(table, props, id);
  if (formId === null) return null;
  if (ctx.rescoreLater) {
    ctx.rescoreLater.add(formId);
    return null;
  }
  const updated = await keepFormScore(ctx, formId);
  return updated && updated.id === id ? updated : null;
}

/** Soft-deletes the rows (already deleted ones stay as they are). Any id not visible → 404, nothing changes. */
export async function deleteRecords(ctx: RepoContext, tableId: number, ids: number[], path = ''): Promise<number[]> {
  const table = tableInBody(ctx, tableId, path ? `${path}.tableId` : 'tableId');
  assertMayWrite(ctx.access, table.key, 'delete');
  const done: number[] = [];
  for (const id of [...new Set(ids)]) {
    const current = await findVisibleRow(ctx, table, id, { includeDeleted: true });
    if (!current) throw notFound(`${path ? `${path}: ` : ''}record ${id} not found in table ${table.key} (${table.id})`);
    done.push(id);
    if (current.deleted === 1) continue;
    await assertFarmerMayChange(ctx, table, current, parseProperties(current.properties), (of, rowId) => findVisibleRow(ctx, of, rowId));
    await ctx.db
      .updateTable('records')
      .set({ deleted: 1, updated_at: ctx.now, updated_by: actor(ctx), version: current.version + 1 })
      .where('id', '=', id)
      .execute();
    await ctx.dialect.removeText(ctx.db, id);
    await recordHistory(ctx, current, 'delete', current, null);
    await rescoreAfterWrite(ctx, table, parseProperties(current.properties), id);
  }
  return done;
}

/** Archives (or with archived=false restores) the rows. Editors only. */
export async function archiveRecords(ctx: RepoContext, tableId: number, ids: number[], archived: boolean, path = ''): Promise<number[]> {
  const table = tableInBody(ctx, tableId, path ? `${path}.tableId` : 'tableId');
  assertMayWrite(ctx.access, table.key, 'archive');
  const done: number[] = [];
  for (const id of [...new Set(ids)]) {
    const current = await findVisibleRow(ctx, table, id);
    if (!current) throw notFound(`${path ? `${path}: ` : ''}record ${id} not found in table ${table.key} (${table.id})`);
    done.push(id);
    if ((current.archived === 1) === archived) continue;
    await ctx.db
      .updateTable('records')
      .set({ archived: archived ? 1 : 0, updated_at: ctx.now, updated_by: actor(ctx), version: current.version + 1 })
      .where('id', '=', id)
      .execute();
    await recordHistory(ctx, current, archived ? 'archive' : 'unarchive', current, current);
    await rescoreAfterWrite(ctx, table, parseProperties(current.properties), id);
  }
  return done;
}

/** A farmer's new indicator must not go under a locked form (the 409 names the form). */
async function assertFormUnlocked(ctx: RepoContext, table: TableInfo, props: Properties, writes: RecordWrites): Promise<void> {
  if (ctx.access.role !== 'farmer') return;
  const forms = ctx.schema.tablesByKey.get('forms');
  const parent = props[String(table.columnsByName.get('parent')?.id)];
  const form = forms && typeof parent === 'number' ? await writes.current(forms, parent) : undefined;
  if (form) await assertFarmerMayChange(ctx, table, form, props, lookupOf(writes));
}
