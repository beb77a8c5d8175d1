/**
 * Where the statements of a record write go, and what a write is given. The steps of a write
 * (write-steps.ts) read and write through a `RecordWrites`: the single writer's writes every
 * statement at once (record-writer.ts), a bulk call's holds new rows, their text index and history
 * entries and writes them with multi-row statements, and reads the rows its updates change in one
 * go (bulk-writes.ts). The writers meet here, not in each other.
 */
import type { Properties } from '../../common/schemas/wire';
import type { NewRecordRow, RecordRow } from '../db/types';
import type { ReviewState } from '../../common/review';
import type { ColumnInfo, TableInfo } from '../project-schema';
import type { HistoryValues } from './audit-rows';
import type { RepoContext } from './context';
import type { GeometryColumns } from './derived-columns';

/** Offline ids (common/record-id) of inserts in this batch → their new server ids. */
export type LocalIdMap = Map<number, number>;

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
export type RecordUpdate = Pick<RecordRow, 'properties' | 'updated_at' | 'updated_by' | 'version'> & Partial<GeometryColumns>;

/** The update as one statement, checked against the version it was based on. */
export function updateRow(ctx: RepoContext, current: RecordRow, values: RecordUpdate): Promise<RecordRow | undefined> {
  return ctx.db.updateTable('records').set(values).where('id', '=', current.id).where('version', '=', current.version).returningAll().executeTakeFirst();
}

export interface WriteOptions {
  /** Prefix of error paths (bulk: `operations[3]`). */
  path?: string;
  localIds?: LocalIdMap;
  /** Reference targets already checked in this bulk call (cleared when a row is deleted). */
  verifiedRefs?: Set<string>;
  /** The comment a form's move adds (review-rules.ts): the state the form moved to. */
  moveState?: ReviewState;
}

/** What the steps of a write are given: the options and where its writes go. */
export type WriteWith = WriteOptions & { writes: RecordWrites };
