/**
 * The single writer: one record's insert or update, and deletes and archives by ids, for the
 * single-record routes. Every write runs inside the request's transaction (routes pass it as
 * ctx.db) and takes the steps every write takes (write-steps.ts), writing each statement at once
 * (`directWrites`); bulk calls (bulk-writer.ts) take the same steps with buffered writes.
 */
import type { WireRecord } from '../../common/schemas/wire';
import { type RepoContext } from './context';
import { findLiveRow } from './live-rows';
import { rowToRecordWith } from './record-mapper';
import { findVisibleRow } from './record-repository';
import { updateRow, type RecordWrites, type WriteOptions } from './write-sink';
import { writeInsert, writeUpdate, type InsertInput, type UpdateInput } from './write-steps';

export { archiveRecords, deleteRecords } from './write-steps';

/** Writes one statement at a time, in the caller's transaction. */
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

export async function insertRecord(ctx: RepoContext, input: InsertInput, options: WriteOptions = {}): Promise<WireRecord> {
  const { row, properties } = await writeInsert(ctx, input, { ...options, writes: directWrites(ctx) });
  return rowToRecordWith(row, properties);
}

export async function updateRecord(ctx: RepoContext, input: UpdateInput, options: WriteOptions = {}): Promise<WireRecord> {
  const { row, properties } = await writeUpdate(ctx, input, { ...options, writes: directWrites(ctx) });
  return rowToRecordWith(row, properties);
}
