/**
 * Bulk calls (`…/bulk`): up to 10,000 inserts, updates, deletes and archives in the request's one
 * transaction, each applied exactly once per opId. The operations are checked and applied in
 * order with the very code of single writes (insertRecord/updateRecord: validation, access
 * policy, references, version conflicts), but the writes go through `BulkWrites`:
 *
 * - new rows get their ids up front (dialect.nextRecordIds: the ids the database would give),
 *   so later operations can refer to them, and are written together (dialect.insertRows, not
 *   the query builder), as are their text index entries, history entries and the applied opIds;
 * - the rows the updates change are read in one query per table, not one per operation; a row
 *   inserted earlier in the same call and not written yet is updated where it is held, so it is
 *   written once, as it ends up (its history still has the insert and the update);
 * - applied opIds are read in one query per run of opIds;
 * - the one-live-row rule (one live indicator per key on a form) is checked against the live rows
 *   holding the inserts' keys, looked up in the rule's unique index in one go per table
 *   (dialect.liveRowIds), then kept current;
 * - each touched form is rescored once at the end (keepFormScores: a few statements per 500 forms).
 *
 * Buffered writes are flushed before anything reads what they change: a delete or archive, the
 * natural-key look-up of a link (durationPaths), and the end of the call. A failing operation rejects the whole call: the transaction rolls
 * back and whatever was still buffered is dropped, so nothing changes.
 */
import { LOCAL_ID_BOUND } from '../../common/constants';
import { isLocalId, isServerId } from '../../common/record-id';
import { operationDetail } from '../../common/errors';
import type { BulkOperation, BulkResultItem, Properties } from '../../common/schemas/wire';
import { chunksOf, rowsPerStatement, type LiveRuleValue } from '../db/dialect';
import type { Database, NewRecordRow, RecordRow } from '../db/types';
import { DomainError, invalid } from '../domain-errors';
import type { Insertable } from 'kysely';
import type { RepoContext } from './context';
import { indicatorTableId, keepFormScores, rescoreHeld } from './form-score';
import type { ColumnInfo, TableInfo } from '../project-schema';
import { rowToRecord } from './record-mapper';
import { findVisibleRow, visibleRows } from './record-repository';
import {
  archiveRecords,
  deleteRecords,
  findLiveRow,
  insertRecord,
  liveRuleColumns,
  updateRecord,
  updateRow,
  type HistoryValues,
  type LocalIdMap,
  type RecordUpdate,
  type RecordWrites,
  type WriteOptions,
} from './record-writer';

type AppliedOpValues = Insertable<Database['applied_ops']>;

type HeldRow = NewRecordRow & { id: number };

/** A new row as the database will hold it (what INSERT … RETURNING would answer). */
function toRecordRow(row: HeldRow): RecordRow {
  return {
    id: row.id,
    project_id: row.project_id,
    table_id: row.table_id,
    properties: row.properties,
    geometry: row.geometry ?? null,
    min_x: row.min_x ?? null,
    min_y: row.min_y ?? null,
    max_x: row.max_x ?? null,
    max_y: row.max_y ?? null,
    deleted: row.deleted ?? 0,
    archived: row.archived ?? 0,
    created_at: row.created_at,
    updated_at: row.updated_at,
    version: row.version ?? 1,
    created_by: row.created_by ?? null,
    updated_by: row.updated_by ?? null,
  };
}

/**
 * Ids of live rows by table and values in the table's one-live-row rule's columns (null: no live
 * row holds them), as nested maps (table → first value → … → id): looking an insert up builds no
 * key. Values compare as Map keys do, so 7 and '7' differ (a column's values have one type).
 */
class LiveIds {
  private readonly tables = new Map<number, Map<unknown, unknown>>();

  get(tableId: number, values: readonly unknown[]): number | null | undefined {
    let level = this.tables.get(tableId);
    for (let i = 0; level && i < values.length - 1; i++) level = level.get(values[i]) as Map<unknown, unknown> | undefined;
    return level?.get(values[values.length - 1]) as number | null | undefined;
  }

  set(tableId: number, values: readonly unknown[], id: number | null): void {
    let level = this.tables.get(tableId);
    if (!level) this.tables.set(tableId, (level = new Map()));
    for (let i = 0; i < values.length - 1; i++) {
      let next = level.get(values[i]) as Map<unknown, unknown> | undefined;
      if (!next) level.set(values[i], (next = new Map()));
      level = next;
    }
    level.set(values[values.length - 1], id);
  }

  clear(): void {
    this.tables.clear();
  }
}

/** The values of `properties` in the rule's columns. */
function ruleValues(columns: readonly ColumnInfo[], properties: Properties): unknown[] {
  return columns.map((column) => properties[String(column.id)]);
}

class BulkWrites implements RecordWrites {
  /** New rows not written yet, in operation order. */
  private rows: HeldRow[] = [];
  /** id → the row in `rows`. */
  private pending = new Map<number, HeldRow>();
  private texts = new Map<number, { text: string; fresh: boolean }>();
  private histories: HistoryValues[] = [];
  private appliedOps: AppliedOpValues[] = [];
  /** Ids handed out by nextRecordIds and not used yet. */
  private freeIds: number[] = [];
  /** `tableId:id` → the row as it is now, for rows updates change and rows looked up (prefetched or read once, then kept current). */
  private known = new Map<string, RecordRow>();
  private prefetched = false;
  /** An existing indicator was updated (it may have moved under a form this call inserted). */
  private indicatorsUpdated = false;
  /** The operation being applied (prefetching and id allocation look ahead from it). */
  private index = 0;
  /**
   * Tables with a one-live-row rule: the live row holding each key of the inserts ahead (read ahead
   * in one go), kept current with the rows this call writes. A key not in it is looked up when an
   * insert needs it.
   */
  private liveIds = new LiveIds();
  /** id → its table and rule values, to move a row whose values an update changes. */
  private liveKeyOf = new Map<number, { tableId: number; values: readonly unknown[] }>();
  private livePrefetched = false;

  constructor(
    private readonly ctx: RepoContext,
    private readonly operations: BulkOperation[],
    private readonly localIds: LocalIdMap,
    private readonly appliedBefore: Map<string, BulkResultItem>,
  ) {}

  at(index: number): void {
    this.index = index;
  }

  pendingTableOf(id: number): number | undefined {
    return this.pending.get(id)?.table_id;
  }

  async insert(values: NewRecordRow, properties: Properties): Promise<RecordRow> {
    if (this.freeIds.length === 0) {
      // SQLite's ids follow the highest written one: what is buffered goes first.
      await this.flush();
      this.freeIds = await this.ctx.dialect.nextRecordIds(this.ctx.db, this.insertsAhead());
    }
    const id = this.freeIds.shift()!;
    const row = { ...values, id };
    this.rows.push(row);
    this.pending.set(id, row);
    this.keepLive(row.table_id, id, properties);
    return toRecordRow(row);
  }

  /**
   * Scores the forms of `formIds` this call inserted and still holds, from the indicators it holds,
   * and puts the score into the rows to be written (no UPDATE after the INSERT; the history entry
   * and text index keep the row as inserted, as when the database is rescored). Sound because an
   * indicator can point at a held form only if it was inserted after it (the id is new), and every
   * insert since is held too (a flush writes them all); the one other way, an update moving an
   * existing indicator under it, sends every form to the database instead. Answers formId → the
   * row as it will be stored and removes the forms it scored from `formIds`.
   */
  scoreHeldForms(formIds: Set<number>): Map<number, RecordRow> {
    const scored = new Map<number, RecordRow>();
    if (this.indicatorsUpdated) return scored;
    const forms = this.rows.filter((row) => formIds.has(row.id));
    if (forms.length === 0) return scored;
    const indicators = indicatorTableId(this.ctx);
    const held = this.rows.filter((row) => row.table_id === indicators);
    const next = rescoreHeld(this.ctx, forms.map(toRecordRow), held.map(toRecordRow));
    for (const form of forms) {
      const properties = next.get(form.id);
      formIds.delete(form.id);
      if (properties === undefined) continue;
      form.properties = properties;
      scored.set(form.id, toRecordRow(form));
    }
    return scored;
  }

  /** Inserts from the current operation on that are not known duplicates: the ids to ask for. */
  private insertsAhead(): number {
    const opIds = new Set<string>();
    for (let i = this.index; i < this.operations.length; i++) {
      const op = this.operations[i]!;
      if (op.kind === 'insert' && !this.appliedBefore.has(op.opId)) opIds.add(op.opId);
    }
    return Math.max(1, opIds.size);
  }

  async current(table: TableInfo, id: number): Promise<RecordRow | undefined> {
    // Updated in the same call it was inserted in: the row is still held (a live row of the caller).
    const held = this.pending.get(id);
    if (held) return held.table_id === table.id ? toRecordRow(held) : undefined;
    const key = `${table.id}:${id}`;
    if (!this.known.has(key) && !this.prefetched) await this.prefetch();
    const known = this.known.get(key);
    if (known) return known;
    // Read once per call: a farmer's indicators look up their form (review-rules.ts, a locked
    // form), a hundred of them the same one. Kept current like the prefetched rows.
    const found = await findVisibleRow(this.ctx, table, id);
    if (found) this.known.set(key, found);
    return found;
  }

  /** Reads the rows the updates from the current operation on will change: one query per table and run of ids. */
  private async prefetch(): Promise<void> {
    this.prefetched = true;
    const byTable = new Map<number, Set<number>>();
    for (let i = this.index; i < this.operations.length; i++) {
      const op = this.operations[i]!;
      if (op.kind !== 'update' || this.appliedBefore.has(op.opId) || typeof op.id !== 'number') continue;
      const id = this.localIds.get(op.id) ?? op.id;
      // Offline ids not mapped yet belong to rows this call inserts: read when needed.
      if (!isServerId(id) || this.pending.has(id) || this.known.has(`${op.tableId}:${id}`)) continue;
      let ids = byTable.get(op.tableId);
      if (!ids) byTable.set(op.tableId, (ids = new Set()));
      ids.add(id);
    }
    for (const [tableId, ids] of byTable) {
      const table = this.ctx.schema.tablesById.get(tableId);
      if (!table) continue; // the operation fails with a 400 of its own
      for (const chunk of chunksOf([...ids], rowsPerStatement(1))) {
        const rows = await visibleRows(this.ctx, table).selectAll('records').where('records.id', 'in', chunk).execute();
        for (const row of rows) this.known.set(`${tableId}:${row.id}`, row);
      }
    }
  }

  async liveRow(table: TableInfo, columns: readonly ColumnInfo[], values: readonly unknown[]): Promise<RecordRow | undefined> {
    if (!this.livePrefetched) await this.prefetchLive();
    const id = this.liveIds.get(table.id, values);
    if (id === undefined) {
      // Not read ahead (a parent written by this call, or read again after a delete): ask the database.
      const found = await findLiveRow(this.ctx, table, columns, values);
      this.liveIds.set(table.id, values, found?.id ?? null);
      if (found) this.liveKeyOf.set(found.id, { tableId: table.id, values });
      return found;
    }
    // A row this call still holds is left to the database's unique index, as a row of the same
    // call is (the call is refused whole either way).
    if (id === null || this.pending.has(id)) return undefined;
    return this.ctx.db.selectFrom('records').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The rule's columns of a table, if it has a one-live-row rule. */
  private ruleColumnsOf(tableId: number): ColumnInfo[] | undefined {
    const table = this.ctx.schema.tablesById.get(tableId);
    return table && liveRuleColumns(table);
  }

  /**
   * Looks up the keys of the inserts from the current operation on in the tables' one-live-row
   * indexes, in one go per table: each key then holds its live row's id, or null. Keys naming a
   * row this call inserts (an offline id not mapped yet, or a row it holds) are left out: the
   * database has no rows under it.
   */
  private async prefetchLive(): Promise<void> {
    this.livePrefetched = true;
    const byTable = new Map<number, LiveRuleValue[][]>();
    for (let i = this.index; i < this.operations.length; i++) {
      const op = this.operations[i]!;
      if (op.kind !== 'insert' || this.appliedBefore.has(op.opId) || typeof op.properties !== 'object' || op.properties === null) continue;
      const columns = this.ruleColumnsOf(op.tableId);
      const values = columns && this.storedRuleValues(columns, op.properties as Properties);
      if (!values) continue;
      let keys = byTable.get(op.tableId);
      if (!keys) byTable.set(op.tableId, (keys = []));
      keys.push(values);
    }
    for (const [tableId, keys] of byTable) {
      const ids = await this.ctx.dialect.liveRowIds(
        this.ctx.db,
        tableId,
        this.ruleColumnsOf(tableId)!.map((column) => column.id),
        keys,
      );
      keys.forEach((values, i) => {
        const id = ids[i]!;
        // A key this call's rows hold already keeps them unless the database's row is older.
        if (id !== null) this.keepLiveValues(tableId, id, values);
        else if (this.liveIds.get(tableId, values) === undefined) this.liveIds.set(tableId, values, null);
      });
    }
  }

  /**
   * An insert's values in the rule's columns as the database will hold them (offline ids of
   * reference columns mapped), or undefined when one is missing, not valid, or names a row this
   * call inserts.
   */
  private storedRuleValues(columns: readonly ColumnInfo[], properties: Properties): LiveRuleValue[] | undefined {
    const values: LiveRuleValue[] = [];
    for (const column of columns) {
      const value = properties[String(column.id)];
      if (column.type === 'reference' && typeof value === 'number') {
        const id = this.localIds.get(value) ?? value;
        if (!isServerId(id) || this.pending.has(id)) return undefined;
        values.push(id);
      } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
        values.push(value);
      } else {
        return undefined;
      }
    }
    return values;
  }

  /**
   * Records where a row of a table with a rule now is: its earlier key is freed, its key (unless it
   * was deleted) is held by it. The oldest row of a key stays, as the database query answers.
   */
  private keepLive(tableId: number, id: number, properties: Properties, deleted = false): void {
    const columns = this.ruleColumnsOf(tableId);
    if (columns) this.keepLiveValues(tableId, id, ruleValues(columns, properties), deleted);
  }

  private keepLiveValues(tableId: number, id: number, values: readonly unknown[], deleted = false): void {
    const earlier = this.liveKeyOf.get(id);
    if (earlier !== undefined && this.liveIds.get(earlier.tableId, earlier.values) === id) this.liveIds.set(earlier.tableId, earlier.values, null);
    this.liveKeyOf.delete(id);
    if (deleted || values.some((value) => value === undefined || value === null)) return;
    const holder = this.liveIds.get(tableId, values);
    if (holder !== null && holder !== undefined && holder < id) return;
    this.liveIds.set(tableId, values, id);
    this.liveKeyOf.set(id, { tableId, values });
  }

  async update(current: RecordRow, values: RecordUpdate): Promise<RecordRow | undefined> {
    const held = this.pending.get(current.id);
    if (!held) return updateRow(this.ctx, current, values);
    // Not written yet: the row is written once, as it ends up (its history keeps both entries).
    Object.assign(held, values);
    return toRecordRow(held);
  }

  updated(row: RecordRow, properties: Properties): void {
    this.keepLive(row.table_id, row.id, properties, row.deleted === 1);
    // A held row is changed in place and scored with the held rows (scoreHeldForms).
    if (this.pending.has(row.id)) return;
    this.known.set(`${row.table_id}:${row.id}`, row);
    if (row.table_id === indicatorTableId(this.ctx)) this.indicatorsUpdated = true;
  }

  /** A delete or archive changed rows behind the cache's back: read again when needed. */
  forget(): void {
    this.known.clear();
    this.prefetched = false;
    this.liveIds.clear();
    this.liveKeyOf.clear();
    this.livePrefetched = false;
  }

  async indexText(recordId: number, text: string, fresh: boolean): Promise<void> {
    // The last text of a record wins; a record inserted by this call has nothing indexed yet.
    const earlier = this.texts.get(recordId);
    this.texts.set(recordId, { text, fresh: fresh || (earlier?.fresh ?? false) });
  }

  async history(values: HistoryValues): Promise<void> {
    this.histories.push(values);
  }

  applied(values: AppliedOpValues): void {
    this.appliedOps.push(values);
  }

  async flush(): Promise<void> {
    const { db, dialect } = this.ctx;
    if (this.rows.length) {
      await dialect.insertRows(db, 'records', this.rows);
      // Written now: later checks of the one-live-row rule see them (their keys were noted on insert).
      this.rows = [];
      this.pending.clear();
    }
    if (this.texts.size) {
      await dialect.indexTexts(
        db,
        [...this.texts].map(([recordId, entry]) => ({ recordId, ...entry })),
      );
      this.texts.clear();
    }
    if (this.histories.length) {
      await dialect.insertRows(db, 'record_history', this.histories);
      this.histories = [];
    }
    if (this.appliedOps.length) {
      await dialect.insertRows(db, 'applied_ops', this.appliedOps);
      this.appliedOps = [];
    }
  }
}

/** A bulk call's answer: its results, and the same as the JSON text of the `BulkResult` body. */
export interface BulkAnswer {
  results: BulkResultItem[];
  /** `{"results":[…]}`: each result is turned into JSON once, for its stored opId and for the answer. */
  json: string;
}

/**
 * Applies a bulk call in the caller's transaction. Each operation's opId is looked up first: an
 * operation applied before (by an earlier, maybe differently composed batch, or earlier in this
 * one) is answered 'duplicate' with its original result and not applied again. Applied opIds are
 * stored in the same transaction, so they commit or roll back with the changes. Any failing
 * operation rejects the whole call (nothing changes); the error names it (`opId`).
 */
export async function applyBulk(outer: RepoContext, operations: BulkOperation[]): Promise<BulkAnswer> {
  const ctx: RepoContext = { ...outer, rescoreLater: new Set() };
  const applied = await previouslyApplied(ctx, operations);
  const localIds: LocalIdMap = new Map();
  const writes = new BulkWrites(ctx, operations, localIds, new Map(applied));
  const state: WriteOptions & { localIds: LocalIdMap; verifiedRefs: Set<string>; writes: BulkWrites } = {
    localIds,
    verifiedRefs: await visibleTargets(ctx, operations),
    writes,
  };
  const results: BulkResultItem[] = [];
  const texts: string[] = [];
  for (let i = 0; i < operations.length; i++) {
    const op = operations[i]!;
    const path = `operations[${i}]`;
    writes.at(i);
    try {
      const previous = applied.get(op.opId);
      if (previous) {
        if (previous.localId !== undefined) state.localIds.set(previous.localId, previous.id);
        const duplicate: BulkResultItem = { ...previous, status: 'duplicate' };
        results.push(duplicate);
        texts.push(JSON.stringify(duplicate));
        continue;
      }
      const item = await applyOperation(ctx, op, path, state);
      const text = JSON.stringify(item);
      results.push(item);
      texts.push(text);
      // Stored with its record: a resent operation's answer is the first one, version included
      // (the client moves its row and its later queued updates on to that version; without it
      // the next update of the row is refused as a stale-version conflict).
      applied.set(op.opId, item);
      writes.applied({ caller: ctx.access.caller, op_id: op.opId, result: text, created_at: ctx.now });
    } catch (error) {
      if (error instanceof DomainError) {
        throw new DomainError(error.kind, operationDetail(path, op.opId, error.detail ?? error.message), { ...error.extra, opId: op.opId });
      }
      throw error;
    }
  }
  // Each touched form is rescored once, after all its indicators of this call are applied; the
  // answer then shows a form's final score. New forms still held are scored before they are
  // written, the others in the database afterwards.
  const toScore = new Set(ctx.rescoreLater);
  const held = writes.scoreHeldForms(toScore);
  await writes.flush();
  const rescored = new Map([...held, ...(await keepFormScores(outer, toScore))]);
  if (rescored.size > 0) {
    results.forEach((item, index) => {
      const row = item.record ? rescored.get(item.record.id) : undefined;
      if (!row) return;
      results[index] = { ...item, record: rowToRecord(row) };
      texts[index] = JSON.stringify(results[index]);
    });
  }
  return { results, json: `{"results":[${texts.join(',')}]}` };
}

/**
 * The server ids the operations' reference columns name that are visible to the caller, as
 * `tableId:id` keys of checkReferences' verified targets: one query per target table and run of
 * ids instead of one per target. Ids not found are left out (checkReferences then looks them up
 * and refuses them with its own message).
 */
async function visibleTargets(ctx: RepoContext, operations: BulkOperation[]): Promise<Set<string>> {
  const byTable = new Map<number, Set<number>>();
  for (const op of operations) {
    if ((op.kind !== 'insert' && op.kind !== 'update') || typeof op.properties !== 'object' || op.properties === null) continue;
    const table = ctx.schema.tablesById.get(op.tableId);
    for (const column of table?.columns ?? []) {
      const value = (op.properties as Record<string, unknown>)[String(column.id)];
      if (column.type !== 'reference' || column.refTableId === null || !isServerId(value)) continue;
      let ids = byTable.get(column.refTableId);
      if (!ids) byTable.set(column.refTableId, (ids = new Set()));
      ids.add(value);
    }
  }
  const verified = new Set<string>();
  for (const [tableId, ids] of byTable) {
    const target = ctx.schema.tablesById.get(tableId);
    if (!target) continue;
    for (const chunk of chunksOf([...ids], rowsPerStatement(1))) {
      for (const row of await visibleRows(ctx, target).select('records.id').where('records.id', 'in', chunk).execute()) verified.add(`${tableId}:${row.id}`);
    }
  }
  return verified;
}

/** The stored results of operations of this call that this caller applied before (one query per run of opIds). */
async function previouslyApplied(ctx: RepoContext, operations: BulkOperation[]): Promise<Map<string, BulkResultItem>> {
  const opIds = [...new Set(operations.map((op) => op.opId))];
  const found = new Map<string, BulkResultItem>();
  for (const chunk of chunksOf(opIds, rowsPerStatement(1))) {
    const rows = await ctx.db
      .selectFrom('applied_ops')
      .select(['op_id', 'result'])
      .where('caller', '=', ctx.access.caller)
      .where('op_id', 'in', chunk)
      .execute();
    for (const row of rows) found.set(row.op_id, JSON.parse(row.result) as BulkResultItem);
  }
  return found;
}

async function applyOperation(
  ctx: RepoContext,
  op: BulkOperation,
  path: string,
  state: WriteOptions & { localIds: LocalIdMap; verifiedRefs: Set<string>; writes: BulkWrites },
): Promise<BulkResultItem> {
  const { localIds, writes } = state;
  switch (op.kind) {
    case 'insert': {
      // The server assigns ids and versions: an insert naming either is refused, not ignored.
      const raw = op as Record<string, unknown>;
      if (raw.id !== undefined) throw invalid(`${path}.id: not allowed on insert (send the offline id as localId)`);
      if (raw.version !== undefined) throw invalid(`${path}.version: not allowed on insert`);
      if (op.localId !== undefined && !isLocalId(op.localId)) {
        throw invalid(`${path}.localId: must be a positive integer below ${LOCAL_ID_BOUND}`);
      }
      const record = await insertRecord(ctx, op, { ...state, path });
      if (op.localId !== undefined) localIds.set(op.localId, record.id);
      return { opId: op.opId, status: 'applied', id: record.id, ...(op.localId !== undefined ? { localId: op.localId } : {}), record };
    }
    case 'update': {
      const record = await updateRecord(ctx, op, { ...state, path });
      return { opId: op.opId, status: 'applied', id: record.id, record };
    }
    case 'delete': {
      const id = localIds.get(op.id) ?? op.id;
      await writes.flush();
      await deleteRecords(ctx, op.tableId, [id], path);
      writes.forget();
      state.verifiedRefs.clear();
      return { opId: op.opId, status: 'applied', id };
    }
    case 'archive': {
      const id = localIds.get(op.id) ?? op.id;
      await writes.flush();
      await archiveRecords(ctx, op.tableId, [id], true, path);
      writes.forget();
      state.verifiedRefs.clear();
      return { opId: op.opId, status: 'applied', id };
    }
    default:
      throw invalid(`${path}.kind: unknown operation kind ${JSON.stringify((op as { kind?: unknown }).kind)}`);
  }
}
