/**
 * A bulk call's side of the one-live-row rule (live-rows.ts: one live indicator per key on a form):
 * the live row holding each key of the call's inserts, looked up in the rule's unique index in one
 * go per table (dialect.liveRowIds) and then kept current with the rows the call writes, so the
 * check costs the same whatever the forms already hold. A key not read ahead is looked up when an
 * insert needs it (findLiveRow).
 */
import { isServerId } from '../../common/record-id';
import type { BulkOperation, BulkResultItem, Properties } from '../../common/schemas/wire';
import type { LiveRuleValue } from '../db/dialect';
import type { RecordRow } from '../db/types';
import type { ColumnInfo, TableInfo } from '../project-schema';
import type { RepoContext } from './context';
import { findLiveRow, liveRuleColumns } from './live-rows';
import type { LocalIdMap } from './write-sink';

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

/** The live rows of a bulk call's one-live-row keys (BulkWrites.liveRow). */
export class BulkLiveRows {
  /**
   * Tables with a one-live-row rule: the live row holding each key of the inserts ahead (read ahead
   * in one go), kept current with the rows this call writes. A key not in it is looked up when an
   * insert needs it.
   */
  private ids = new LiveIds();
  /** id → its table and rule values, to move a row whose values an update changes. */
  private liveKeyOf = new Map<number, { tableId: number; values: readonly unknown[] }>();
  private prefetched = false;

  constructor(
    private readonly ctx: RepoContext,
    private readonly operations: BulkOperation[],
    private readonly localIds: LocalIdMap,
    private readonly appliedBefore: Map<string, BulkResultItem>,
    /** Whether the call still holds the row (inserted, not written yet). */
    private readonly isHeld: (id: number) => boolean,
  ) {}

  /** RecordWrites.liveRow, `index` the operation being applied. */
  async row(table: TableInfo, columns: readonly ColumnInfo[], values: readonly unknown[], index: number): Promise<RecordRow | undefined> {
    if (!this.prefetched) await this.prefetch(index);
    const id = this.ids.get(table.id, values);
    if (id === undefined) {
      // Not read ahead (a parent written by this call, or read again after a delete): ask the database.
      const found = await findLiveRow(this.ctx, table, columns, values);
      this.ids.set(table.id, values, found?.id ?? null);
      if (found) this.liveKeyOf.set(found.id, { tableId: table.id, values });
      return found;
    }
    // A row this call still holds is left to the database's unique index, as a row of the same
    // call is (the call is refused whole either way).
    if (id === null || this.isHeld(id)) return undefined;
    return this.ctx.db.selectFrom('records').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The rule's columns of a table, if it has a one-live-row rule. */
  private ruleColumnsOf(tableId: number): ColumnInfo[] | undefined {
    const table = this.ctx.schema.tablesById.get(tableId);
    return table && liveRuleColumns(table);
  }

  /**
   * Looks up the keys of the inserts from operation `index` on in the tables' one-live-row
   * indexes, in one go per table: each key then holds its live row's id, or null. Keys naming a
   * row this call inserts (an offline id not mapped yet, or a row it holds) are left out: the
   * database has no rows under it.
   */
  private async prefetch(index: number): Promise<void> {
    this.prefetched = true;
    const byTable = new Map<number, LiveRuleValue[][]>();
    for (let i = index; i < this.operations.length; i++) {
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
        if (id !== null) this.keepValues(tableId, id, values);
        else if (this.ids.get(tableId, values) === undefined) this.ids.set(tableId, values, null);
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
        if (!isServerId(id) || this.isHeld(id)) return undefined;
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
  keep(tableId: number, id: number, properties: Properties, deleted = false): void {
    const columns = this.ruleColumnsOf(tableId);
    if (columns) this.keepValues(tableId, id, ruleValues(columns, properties), deleted);
  }

  private keepValues(tableId: number, id: number, values: readonly unknown[], deleted = false): void {
    const earlier = this.liveKeyOf.get(id);
    if (earlier !== undefined && this.ids.get(earlier.tableId, earlier.values) === id) this.ids.set(earlier.tableId, earlier.values, null);
    this.liveKeyOf.delete(id);
    if (deleted || values.some((value) => value === undefined || value === null)) return;
    const holder = this.ids.get(tableId, values);
    if (holder !== null && holder !== undefined && holder < id) return;
    this.ids.set(tableId, values, id);
    this.liveKeyOf.set(id, { tableId, values });
  }

  /** A delete or archive changed rows behind the call's back: look the keys up again when needed. */
  forget(): void {
    this.ids.clear();
    this.liveKeyOf.clear();
    this.prefetched = false;
  }
}
