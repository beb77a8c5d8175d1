/**
 * Where a bulk call's writes go (a RecordWrites, write-sink.ts), so that the steps of each
 * operation (write-steps.ts) cost a few statements per few hundred operations, not per operation:
 *
 * - new rows get their ids up front (dialect.nextRecordIds: the ids the database would give),
 *   so later operations can refer to them, and are written together (dialect.insertRows, not
 *   the query builder), as are their text index entries, history entries and the applied opIds;
 * - the rows the updates change are read in one query per table, not one per operation; a row
 *   inserted earlier in the same call and not written yet is updated where it is held, so it is
 *   written once, as it ends up (its history still has the insert and the update);
 * - the one-live-row rule's rows are read ahead and kept current (bulk-live-rows.ts);
 * - the forms it touched are scored before the rows it still holds are written (keepScores): new
 *   forms still held from the rows it holds, the others from the database's indicators plus those
 *   it holds.
 *
 * Buffered writes are flushed before anything reads what they change: a delete or archive, the
 * natural-key look-up of a link (durationPaths), and the end of the call; and every
 * HELD_OPERATIONS operations. Held for a whole 10,000-operation call, the rows, history entries,
 * texts and answers outlive several of V8's young-generation collections, each of which copies
 * them again until they are moved to the old generation; written every few hundred operations,
 * most die young (bench/README.md: the call's garbage collection about halved).
 */
import type { Insertable } from 'kysely';
import { isServerId } from '../../common/record-id';
import type { BulkOperation, BulkResultItem, Properties } from '../../common/schemas/wire';
import { chunksOf, rowsPerStatement } from '../db/dialect';
import type { Database, NewRecordRow, RecordRow } from '../db/types';
import type { ColumnInfo, TableInfo } from '../project-schema';
import type { HistoryValues } from './audit-rows';
import { BulkLiveRows } from './bulk-live-rows';
import type { RepoContext } from './context';
import { indicatorTableId, keepFormScores, rescoreHeld, type ParsedIndicator } from './form-score';
import { parseProperties } from './record-mapper';
import { findVisibleRow, visibleRows } from './record-repository';
import { updateRow, type LocalIdMap, type RecordUpdate, type RecordWrites } from './write-sink';

export type AppliedOpValues = Insertable<Database['applied_ops']>;

type HeldRow = NewRecordRow & { id: number };

/** Applied operations whose writes a bulk call holds at most before it writes them: on SQLite, one multi-row statement's worth of rows (sqlite-dialect.ts). */
const HELD_OPERATIONS = 512;

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

export class BulkWrites implements RecordWrites {
  /** New rows not written yet, in operation order. */
  private rows: HeldRow[] = [];
  /** id → the row in `rows`. */
  private pending = new Map<number, HeldRow>();
  /** id → the properties of the row in `rows`, parsed (as given to insert or updated: not parsed again to score). */
  private heldProperties = new Map<number, Properties>();
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
  /** The live rows of the one-live-row keys of the call's inserts (bulk-live-rows.ts). */
  private readonly live: BulkLiveRows;

  constructor(
    private readonly ctx: RepoContext,
    private readonly operations: BulkOperation[],
    private readonly localIds: LocalIdMap,
    private readonly appliedBefore: Map<string, BulkResultItem>,
  ) {
    this.live = new BulkLiveRows(ctx, operations, localIds, appliedBefore, (id) => this.pending.has(id));
  }

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
    // The writer's own object (write-steps.ts makes one per insert): the id goes last, as a copy would put it.
    const row = values as HeldRow;
    row.id = id;
    this.rows.push(row);
    this.pending.set(id, row);
    this.heldProperties.set(id, properties);
    this.live.keep(row.table_id, id, properties);
    return toRecordRow(row);
  }

  /**
   * Rescores the forms of `formIds` (keepFormScore of each) before the held rows are written, so
   * the database is asked only for the indicators written before: answers formId → the row as it
   * is stored now, for the forms whose score changed. New forms still held are scored from the
   * held rows (scoreHeldForms); the others from their indicators in the database and those held,
   * which together are the rows a read after the flush would find (every held row is an insert:
   * updates of written rows and deletes go to the database at once), and their score is written
   * at once. A held form left (scoreHeldForms declined) is written first.
   */
  async keepScores(formIds: Set<number>): Promise<Map<number, RecordRow>> {
    let held = this.heldIndicators();
    const scored = this.scoreHeldForms(formIds, held);
    if (formIds.size === 0) return scored;
    if ([...formIds].some((id) => this.pending.has(id))) {
      await this.flush();
      held = [];
    }
    for (const [id, row] of await keepFormScores(this.ctx, formIds, held)) scored.set(id, row);
    return scored;
  }

  /** The held rows of the indicators table, their properties parsed. */
  private heldIndicators(): ParsedIndicator[] {
    const indicators = indicatorTableId(this.ctx);
    const held: ParsedIndicator[] = [];
    for (const row of this.rows) {
      if (row.table_id !== indicators) continue;
      held.push({
        id: row.id,
        table_id: row.table_id,
        deleted: row.deleted ?? 0,
        archived: row.archived ?? 0,
        properties: this.heldProperties.get(row.id) ?? parseProperties(row.properties),
      });
    }
    return held;
  }

  /**
   * Scores the forms of `formIds` this call inserted and still holds, from the indicators it holds,
   * (`held`: the held indicators) and puts the score into the rows to be written (no UPDATE after the INSERT; the history entry
   * and text index keep the row as inserted, as when the database is rescored). Sound because an
   * indicator can point at a held form only if it was inserted after it (the id is new), and every
   * insert since is held too (a flush writes them all); the one other way, an update moving an
   * existing indicator under it, sends every form to the database instead. Answers formId → the
   * row as it will be stored and removes the forms it scored from `formIds`.
   */
  private scoreHeldForms(formIds: Set<number>, held: readonly ParsedIndicator[]): Map<number, RecordRow> {
    const scored = new Map<number, RecordRow>();
    if (this.indicatorsUpdated) return scored;
    const forms = this.rows.filter((row) => formIds.has(row.id));
    if (forms.length === 0) return scored;
    const next = rescoreHeld(this.ctx, forms.map(toRecordRow), held);
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

  liveRow(table: TableInfo, columns: readonly ColumnInfo[], values: readonly unknown[]): Promise<RecordRow | undefined> {
    return this.live.row(table, columns, values, this.index);
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

  async update(current: RecordRow, values: RecordUpdate): Promise<RecordRow | undefined> {
    const held = this.pending.get(current.id);
    if (!held) return updateRow(this.ctx, current, values);
    // Not written yet: the row is written once, as it ends up (its history keeps both entries).
    Object.assign(held, values);
    // The parsed properties follow in updated().
    this.heldProperties.delete(held.id);
    return toRecordRow(held);
  }

  updated(row: RecordRow, properties: Properties): void {
    this.live.keep(row.table_id, row.id, properties, row.deleted === 1);
    // A held row is changed in place and scored with the held rows (keepScores).
    if (this.pending.has(row.id)) {
      this.heldProperties.set(row.id, properties);
      return;
    }
    this.known.set(`${row.table_id}:${row.id}`, row);
    if (row.table_id === indicatorTableId(this.ctx)) this.indicatorsUpdated = true;
  }

  /** A delete or archive changed rows behind the cache's back: read again when needed. */
  forget(): void {
    this.known.clear();
    this.prefetched = false;
    this.live.forget();
  }

  async indexText(recordId: number, text: string, fresh: boolean): Promise<void> {
    // The last text of a record wins; a record inserted by this call has nothing indexed yet.
    const earlier = this.texts.get(recordId);
    this.texts.set(recordId, { text, fresh: fresh || (earlier?.fresh ?? false) });
  }

  async history(values: HistoryValues): Promise<void> {
    this.histories.push(values);
  }

  /** Notes an operation applied (its stored answer); after HELD_OPERATIONS of them, writes what is held. */
  async applied(values: AppliedOpValues): Promise<void> {
    this.appliedOps.push(values);
    if (this.appliedOps.length >= HELD_OPERATIONS) await this.flush();
  }

  async flush(): Promise<void> {
    const { db, dialect } = this.ctx;
    if (this.rows.length) {
      await dialect.insertRows(db, 'records', this.rows);
      // Written now: later checks of the one-live-row rule see them (their keys were noted on insert).
      this.rows = [];
      this.pending.clear();
      this.heldProperties.clear();
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
