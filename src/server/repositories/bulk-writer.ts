/**
 * The bulk writer: bulk calls (`…/bulk`), up to 10,000 inserts, updates, deletes and archives in
 * the request's one transaction, each applied exactly once per opId. The operations are checked
 * and applied in order with the steps of single writes (write-steps.ts: validation, access
 * policy, references, version conflicts, the rules), but their writes go through `BulkWrites`
 * (bulk-writes.ts: new rows, text index and history entries and the applied opIds written in
 * multi-row statements, the rows updates change read in one go). Here:
 *
 * - applied opIds are read in one query per run of opIds;
 * - the reference targets the operations name are read in one query per table and run of ids;
 * - each touched form is rescored once at the end, before the rows the call holds are written
 *   (BulkWrites.keepScores: a few statements per 500 forms).
 *
 * A failing operation rejects the whole call: the transaction rolls back and whatever was still
 * buffered is dropped, so nothing changes.
 */
import { LOCAL_ID_BOUND } from '../../common/constants';
import { isLocalId, isServerId } from '../../common/record-id';
import { operationDetail } from '../../common/errors';
import type { BulkOperation, BulkResultItem } from '../../common/schemas/wire';
import { chunksOf, rowsPerStatement } from '../db/dialect';
import { DomainError, invalid } from '../domain-errors';
import { BulkWrites } from './bulk-writes';
import type { RepoContext } from './context';
import type { RecordRow } from '../db/types';
import { recordJson, rowToRecord } from './record-mapper';
import { visibleRows } from './record-repository';
import type { LocalIdMap, WriteWith } from './write-sink';
import { archiveRecords, deleteRecords, writeInsert, writeUpdate } from './write-steps';

/** What the operations of a bulk call share; `path` is the operation being applied (set per operation, not copied). */
type BulkState = WriteWith & { localIds: LocalIdMap; verifiedRefs: Set<string>; writes: BulkWrites };

/** A bulk call's answer: its results' statuses, and the whole answer as the JSON text of the `BulkResult` body. */
export interface BulkAnswer {
  results: Array<Pick<BulkResultItem, 'status'>>;
  /** `{"results":[…]}`: each result is turned into JSON once, for its stored opId and for the answer. */
  json: string;
}

const APPLIED = { status: 'applied' } as const;
const DUPLICATE = { status: 'duplicate' } as const;

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
  const writes = new BulkWrites(ctx, operations, localIds, applied);
  const state: BulkState = {
    localIds,
    verifiedRefs: await visibleTargets(ctx, operations),
    writes,
  };
  // Per operation its status, its result's JSON text and its record's id: the results themselves
  // are not kept (a 10,000-operation call would hold tens of thousands of objects to the end).
  const results: Array<Pick<BulkResultItem, 'status'>> = [];
  const texts: string[] = [];
  const recordIds: Array<number | undefined> = [];
  /** The results of operations applied earlier in this call, as their JSON text. */
  const appliedHere = new Map<string, string>();
  for (let i = 0; i < operations.length; i++) {
    const op = operations[i]!;
    const path = `operations[${i}]`;
    writes.at(i);
    try {
      const here = appliedHere.get(op.opId);
      const previous = applied.get(op.opId) ?? (here === undefined ? undefined : (JSON.parse(here) as BulkResultItem));
      if (previous) {
        if (previous.localId !== undefined) state.localIds.set(previous.localId, previous.id);
        const duplicate: BulkResultItem = { ...previous, status: 'duplicate' };
        results.push(DUPLICATE);
        texts.push(JSON.stringify(duplicate));
        recordIds.push(duplicate.record?.id);
        continue;
      }
      state.path = path;
      const { text, recordId } = await applyOperation(ctx, op, state);
      results.push(APPLIED);
      texts.push(text);
      recordIds.push(recordId);
      // Stored with its record: a resent operation's answer is the first one, version included
      // (the client moves its row and its later queued updates on to that version; without it
      // the next update of the row is refused as a stale-version conflict).
      appliedHere.set(op.opId, text);
      await writes.applied({ caller: ctx.access.caller, op_id: op.opId, result: text, created_at: ctx.now });
    } catch (error) {
      if (error instanceof DomainError) {
        throw new DomainError(error.kind, operationDetail(path, op.opId, error.detail ?? error.message), { ...error.extra, opId: op.opId });
      }
      throw error;
    }
  }
  // Each touched form is rescored once, after all its indicators of this call are applied; the
  // answer then shows a form's final score.
  const rescored = await writes.keepScores(new Set(ctx.rescoreLater));
  await writes.flush();
  if (rescored.size > 0) {
    recordIds.forEach((id, index) => {
      const row = id === undefined ? undefined : rescored.get(id);
      if (!row) return;
      texts[index] = JSON.stringify({ ...(JSON.parse(texts[index]!) as BulkResultItem), record: rowToRecord(row) });
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

/** An applied operation's result as its JSON text (a `BulkResultItem`), and its record's id. */
interface AppliedResult {
  text: string;
  recordId?: number;
}

/** The JSON text of an insert's or update's `BulkResultItem`, its record written from the row's own texts (recordJson). */
function writtenResult(op: BulkOperation, row: RecordRow, localId?: number): AppliedResult {
  const local = localId === undefined ? '' : `,"localId":${localId}`;
  return { text: `{"opId":${JSON.stringify(op.opId)},"status":"applied","id":${row.id}${local},"record":${recordJson(row)}}`, recordId: row.id };
}

/** Applies `op`, the operation at `state.path`. */
async function applyOperation(ctx: RepoContext, op: BulkOperation, state: BulkState): Promise<AppliedResult> {
  const { localIds, writes, path = '' } = state;
  switch (op.kind) {
    case 'insert': {
      // The server assigns ids and versions: an insert naming either is refused, not ignored.
      const raw = op as Record<string, unknown>;
      if (raw.id !== undefined) throw invalid(`${path}.id: not allowed on insert (send the offline id as localId)`);
      if (raw.version !== undefined) throw invalid(`${path}.version: not allowed on insert`);
      if (op.localId !== undefined && !isLocalId(op.localId)) {
        throw invalid(`${path}.localId: must be a positive integer below ${LOCAL_ID_BOUND}`);
      }
      const { row } = await writeInsert(ctx, op, state);
      if (op.localId === undefined) return writtenResult(op, row);
      localIds.set(op.localId, row.id);
      return writtenResult(op, row, op.localId);
    }
    case 'update': {
      const { row } = await writeUpdate(ctx, op, state);
      return writtenResult(op, row);
    }
    case 'delete': {
      const id = localIds.get(op.id) ?? op.id;
      await writes.flush();
      await deleteRecords(ctx, op.tableId, [id], path);
      writes.forget();
      state.verifiedRefs.clear();
      return { text: JSON.stringify({ opId: op.opId, status: 'applied', id } satisfies BulkResultItem) };
    }
    case 'archive': {
      const id = localIds.get(op.id) ?? op.id;
      await writes.flush();
      await archiveRecords(ctx, op.tableId, [id], true, path);
      writes.forget();
      state.verifiedRefs.clear();
      return { text: JSON.stringify({ opId: op.opId, status: 'applied', id } satisfies BulkResultItem) };
    }
    default:
      throw invalid(`${path}.kind: unknown operation kind ${JSON.stringify((op as { kind?: unknown }).kind)}`);
  }
}
