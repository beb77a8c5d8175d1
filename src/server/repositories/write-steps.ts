/**
 * The steps of writing one record, the same for a single write (record-writer.ts) and each
 * operation of a bulk call (bulk-writer.ts): the role policy (access/policy.ts) and the farmer
 * scope, the input checks (write-checks.ts), the per-table rules (record-rules.ts), the review
 * loop (review-rules.ts), the one-live-row and natural-key rules (live-rows.ts), then the row, its
 * text index entry and history entry (audit-rows.ts) through the writer's RecordWrites
 * (write-sink.ts), and the form's score (form-score.ts). Inserts and updates read and write
 * through the given RecordWrites; deletes and archives write at once (a bulk call writes what it
 * holds first). Clients cannot set ids of existing rows, versions, timestamps or ownership columns
 * pointing at rows they cannot see.
 */
import type { Geometry } from 'geojson';
import type { Properties } from '../../common/schemas/wire';
import { assertMayChangeColumns, assertMayWrite } from '../access/policy';
import { addOwned } from '../access/scope';
import type { RecordRow } from '../db/types';
import { conflict, notFound } from '../domain-errors';
import type { TableInfo } from '../project-schema';
import { actor, historyValues, recordHistory } from './audit-rows';
import { tableInBody, type RepoContext } from './context';
import { geometryColumns, searchText } from './derived-columns';
import { rescoreAfterWrite } from './form-score'; // stored form score kept in step
import { normalizeGeometry } from './geometry';
import { findLiveNaturalDuplicate, hasNaturalKey, refuseSecondLiveRow } from './live-rows';
import { parseProperties, rowToRecord } from './record-mapper';
import { findVisibleRow } from './record-repository';
import { applyRecordRules, hasRecordRules } from './record-rules'; // per-table rules: seasons, farmers, meadows
import { applyReviewRules, assertFarmerMayChange, assertFormUnlocked, hasReviewRules, type MoveComment, type RowLookup } from './review-rules'; // the review loop
import { checkOwnershipColumn, checkReferences, mapLocalReferences, pathOf, prefixOf, validateProperties } from './write-checks';
import type { LocalIdMap, RecordWrites, WriteWith } from './write-sink';

export interface InsertInput {
  tableId: number;
  properties: unknown;
  geometry?: unknown;
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

/** The rows a write's checks look up, as its writes see them (a bulk call's held rows included). */
function lookupOf(writes: RecordWrites): RowLookup {
  return (table, id) => writes.current(table, id);
}

/**
 * Adds the comment of a form's move to the form's thread (docs/architecture.md, The review loop):
 * an ordinary insert of the caller's, in the same transaction and writes, with its history entry.
 */
async function addMoveComment(ctx: RepoContext, formId: number, comment: MoveComment, options: WriteWith): Promise<void> {
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
  await writeInsert(ctx, { tableId: comments.id, properties }, { ...options, moveState: comment.state });
}

/**
 * What a write answers: the row as stored (its properties as JSON text) and those properties parsed.
 * The single writer turns it into a record (rowToRecordWith); a bulk call writes the answer's JSON
 * from the row's text (recordJson), without turning the properties into JSON a second time.
 */
export interface WrittenRow {
  row: RecordRow;
  properties: Properties;
}

/** The row a write stored with its properties, or the form row its rescoring stored after it. */
function writtenRow(row: RecordRow, properties: Properties, rescored: RecordRow | null): WrittenRow {
  return rescored ? { row: rescored, properties: parseProperties(rescored.properties) } : { row, properties };
}

export async function writeInsert(ctx: RepoContext, input: InsertInput, options: WriteWith): Promise<WrittenRow> {
  const path = options.path ?? '';
  const { writes } = options;
  const table = tableInBody(ctx, input.tableId, pathOf(path, 'tableId'));
  assertMayWrite(ctx.access, table.key, 'insert');
  const propertiesPath = pathOf(path, 'properties');
  const props = validateProperties(table, input.properties, propertiesPath);
  const geometry = normalizeGeometry(input.geometry, pathOf(path, 'geometry')) ?? null;
  checkOwnershipColumn(ctx, table, props, propertiesPath);
  await checkReferences(ctx, table, props, propertiesPath, options);
  if (hasRecordRules(table)) await applyRecordRules(ctx, table, { props, changed: new Set(Object.keys(props)), geometry, flush: () => writes.flush() });
  if (table.key === 'indicators' && ctx.access.role === 'farmer') await assertFormUnlocked(ctx, table, props, lookupOf(writes));
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
  if (hasNaturalKey(table)) {
    await writes.flush();
    const existing = await findLiveNaturalDuplicate(ctx, table, props);
    if (existing) return { row: existing, properties: parseProperties(existing.properties) };
  }
  await refuseSecondLiveRow(ctx, table, props, path, writes);
  const row = await writes.insert(
    {
      project_id: ctx.schema.id,
      table_id: table.id,
      properties: JSON.stringify(props),
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
  return writtenRow(row, props, await rescoreAfterWrite(ctx, table, props, row.id));
}

/**
 * Refuses an update based on another version than the stored one (409 with the current record).
 * A farmer's edit of a form under review is refused as that even when it is stale too: "keep
 * mine" after a plain conflict would only meet the lock (docs/architecture.md, The review loop).
 */
async function refuseStale(
  ctx: RepoContext,
  table: TableInfo,
  input: UpdateInput,
  current: RecordRow,
  before: Properties,
  path: string,
  writes: RecordWrites,
): Promise<never> {
  const named = Object.keys(typeof input.properties === 'object' && input.properties !== null ? input.properties : {}).map(
    (key) => table.columnsByKey.get(key)?.name ?? key,
  );
  await assertFarmerMayChange(ctx, table, current, before, lookupOf(writes), named);
  throw conflict(
    `${prefixOf(path)}record ${current.id} is at version ${current.version}, the edit was based on version ${input.version}`,
    rowToRecord(current),
  );
}

/** What an update changes: the values given, those that differ from the stored ones (by column id and by name), the geometry. */
interface UpdateChange {
  given: Properties;
  changes: Properties;
  changedNames: string[];
  geometry: Geometry | null | undefined;
  geometryChanged: boolean;
}

function changeOf(table: TableInfo, input: UpdateInput, current: RecordRow, before: Properties, path: string, localIds: LocalIdMap | undefined): UpdateChange {
  const given = validateProperties(table, input.properties ?? {}, pathOf(path, 'properties'));
  // Local ids of this bulk call in reference columns become server ids before comparing.
  mapLocalReferences(table, given, localIds);
  // Clients often send the whole record back: only values that differ count as changes.
  const changes: Properties = Object.fromEntries(Object.entries(given).filter(([key, value]) => JSON.stringify(before[key] ?? null) !== JSON.stringify(value)));
  const changedNames = Object.keys(changes).map((key) => table.columnsById.get(Number(key))!.name);
  const geometry = normalizeGeometry(input.geometry, pathOf(path, 'geometry'));
  const geometryChanged = geometry !== undefined && JSON.stringify(geometry) !== (current.geometry ?? 'null');
  return { given, changes, changedNames, geometry, geometryChanged };
}

/** The checks and rules of an update that changes something; answers the properties to store and the comment a form's move adds. */
async function checkUpdate(
  ctx: RepoContext,
  table: TableInfo,
  current: RecordRow,
  before: Properties,
  change: UpdateChange,
  options: WriteWith,
): Promise<{ merged: Properties; comment: MoveComment | null }> {
  const path = options.path ?? '';
  const { writes } = options;
  const { given, changes, changedNames, geometry, geometryChanged } = change;
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
  return { merged, comment };
}

export async function writeUpdate(ctx: RepoContext, input: UpdateInput, options: WriteWith): Promise<WrittenRow> {
  const path = options.path ?? '';
  const table = tableInBody(ctx, input.tableId, pathOf(path, 'tableId'));
  assertMayWrite(ctx.access, table.key, 'update');
  const { writes } = options;
  const id = options.localIds?.get(input.id) ?? input.id;
  const current = await writes.current(table, id);
  if (!current) throw notFound(`${prefixOf(path)}record ${input.id} not found in table ${table.key} (${table.id})`);
  const before = parseProperties(current.properties);
  if (input.version !== undefined && input.version !== current.version) return refuseStale(ctx, table, input, current, before, path, writes);
  const change = changeOf(table, input, current, before, path, options.localIds);
  assertMayChangeColumns(ctx.access, table.key, change.changedNames, change.geometryChanged);
  // A retried or no-op edit changes nothing: no new version, no history entry.
  if (change.changedNames.length === 0 && !change.geometryChanged) return { row: current, properties: before };
  const { merged, comment } = await checkUpdate(ctx, table, current, before, change, options);
  const row = await writes.update(current, {
    properties: JSON.stringify(merged),
    ...(change.geometryChanged ? geometryColumns(change.geometry ?? null) : {}),
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
  return writtenRow(row, merged, await rescoreAfterWrite(ctx, table, merged, row.id));
}

/** Soft-deletes the rows (already deleted ones stay as they are). Any id not visible → 404, nothing changes. */
export async function deleteRecords(ctx: RepoContext, tableId: number, ids: number[], path = ''): Promise<number[]> {
  const table = tableInBody(ctx, tableId, pathOf(path, 'tableId'));
  assertMayWrite(ctx.access, table.key, 'delete');
  const done: number[] = [];
  for (const id of [...new Set(ids)]) {
    const current = await findVisibleRow(ctx, table, id, { includeDeleted: true });
    if (!current) throw notFound(`${prefixOf(path)}record ${id} not found in table ${table.key} (${table.id})`);
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
  const table = tableInBody(ctx, tableId, pathOf(path, 'tableId'));
  assertMayWrite(ctx.access, table.key, 'archive');
  const done: number[] = [];
  for (const id of [...new Set(ids)]) {
    const current = await findVisibleRow(ctx, table, id);
    if (!current) throw notFound(`${prefixOf(path)}record ${id} not found in table ${table.key} (${table.id})`);
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
