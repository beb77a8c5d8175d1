/**
 * The raw insert floor of a bulk figure: the same rows written by plain multi-row INSERTs into
 * `records` in one transaction, straight through Kysely — no validation, no access checks, no
 * text index, history or applied opIds. What the server's share of a bulk call is compared with.
 * insertAllRowsFloor writes those other rows too: the floor of everything the call stores.
 *
 * The rows are removed again afterwards (not timed), so the floor leaves the database as it found
 * it; run it before the measured call when its rows repeat that call's (the rule of one live
 * indicator per key on a form would refuse them). A row marked `repeat` (an update edit's row,
 * the same row once more) is written as a deleted one, outside that rule.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Properties } from '../src/common/schemas/wire';
import { chunksOf, rowsPerStatement } from '../src/server/db/dialect';
import type { NewRecordRow } from '../src/server/db/types';

export interface FloorRow {
  tableId: number;
  properties: Properties;
  /** The same row again (an update's): written as a deleted row. */
  repeat?: boolean;
}

const FLOOR_USER = 'bench-floor';

/** A floor row as `records` holds it, written by FLOOR_USER at `now` (deleted when it repeats a row). */
function recordValues(projectId: number, row: FloorRow, now: string): NewRecordRow {
  return {
    project_id: projectId,
    table_id: row.tableId,
    properties: JSON.stringify(row.properties),
    geometry: null,
    deleted: row.repeat ? 1 : 0,
    archived: 0,
    created_at: now,
    updated_at: now,
    version: 1,
    created_by: FLOOR_USER,
    updated_by: FLOOR_USER,
  };
}

/** Writes the rows in one transaction, then removes them; answers the milliseconds of the transaction. */
export async function insertFloor(app: FastifyInstance, projectId: number, rows: readonly FloorRow[]): Promise<number> {
  const now = new Date().toISOString();
  const values = rows.map((row) => recordValues(projectId, row, now));
  const start = performance.now();
  await app.db.transaction().execute(async (trx) => {
    for (const chunk of chunksOf(values, rowsPerStatement(Object.keys(values[0] ?? {}).length || 1))) await trx.insertInto('records').values(chunk).execute();
  });
  const ms = performance.now() - start;
  await app.db.deleteFrom('records').where('created_by', '=', FLOOR_USER).execute();
  return ms;
}

/** A row of the all-rows floor: its table, properties, the opId that wrote it and its indexed text. */
export interface AllRowsFloorRow extends Omit<FloorRow, 'repeat'> {
  opId: string;
  /** What the text index holds for it (the string values of its text columns, one per line). */
  text: string;
}

/**
 * The floor of everything a bulk call of inserts must write, not only its `records` rows: per
 * insert its record, a history entry (the row as inserted), an applied opId (the answer of the
 * operation, its record included) and a text index entry, each table by plain multi-row INSERTs,
 * in one transaction (SQLite only: its FTS5 table takes plain inserts). What the server's share
 * would be if deciding what to write cost nothing. Removed again afterwards, as insertFloor's.
 */
export async function insertAllRowsFloor(app: FastifyInstance, projectId: number, rows: readonly AllRowsFloorRow[]): Promise<number> {
  if (app.dialect.name !== 'sqlite') throw new Error("the all-rows floor writes SQLite's text index");
  const now = new Date().toISOString();
  const { last } = await app.db
    .selectFrom('records')
    .select((eb) => eb.fn.max('id').as('last'))
    .executeTakeFirstOrThrow();
  const first = Number(last) + 1;
  // Everything the statements carry is made before the clock starts, as the server holds it before its writes.
  const records = rows.map((row, i) => ({ id: first + i, ...recordValues(projectId, row, now) }));
  const history = records.map((record) => ({
    record_id: record.id,
    table_id: record.table_id,
    action: 'insert' as const,
    changed_by: FLOOR_USER,
    changed_at: now,
    old_value: null,
    new_value: `{"properties":${record.properties},"geometry":null}`,
  }));
  const applied = records.map((record, i) => ({
    caller: FLOOR_USER,
    op_id: rows[i]!.opId,
    result: JSON.stringify({
      opId: rows[i]!.opId,
      status: 'applied',
      id: record.id,
      record: {
        id: record.id,
        tableId: record.table_id,
        deleted: false,
        archived: false,
        createdAt: now,
        updatedAt: now,
        version: 1,
        properties: rows[i]!.properties,
        geometry: null,
      },
    }),
    created_at: now,
  }));
  const texts = records.map((record, i) => ({ id: record.id, text: rows[i]!.text })).filter((entry) => entry.text);
  const start = performance.now();
  await app.db.transaction().execute(async (trx) => {
    for (const chunk of chunksOf(records, rowsPerStatement(Object.keys(records[0] ?? {}).length || 1))) await trx.insertInto('records').values(chunk).execute();
    for (const chunk of chunksOf(history, rowsPerStatement(7))) await trx.insertInto('record_history').values(chunk).execute();
    for (const chunk of chunksOf(applied, rowsPerStatement(4))) await trx.insertInto('applied_ops').values(chunk).execute();
    for (const chunk of chunksOf(texts, rowsPerStatement(2)))
      await sql`insert into records_fts (rowid, body) values ${sql.join(chunk.map((entry) => sql`(${entry.id}, ${entry.text})`))}`.execute(trx);
  });
  const ms = performance.now() - start;
  await app.db.transaction().execute(async (trx) => {
    for (const chunk of chunksOf(
      texts.map((entry) => entry.id),
      rowsPerStatement(1),
    ))
      await sql`delete from records_fts where rowid in (${sql.join(chunk)})`.execute(trx);
    await trx.deleteFrom('applied_ops').where('caller', '=', FLOOR_USER).execute();
    await trx.deleteFrom('record_history').where('changed_by', '=', FLOOR_USER).execute();
    await trx.deleteFrom('records').where('created_by', '=', FLOOR_USER).execute();
  });
  return ms;
}
