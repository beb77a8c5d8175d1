/**
 * The raw insert floor of a bulk figure: the same rows written by plain multi-row INSERTs into
 * `records` in one transaction, straight through Kysely — no validation, no access checks, no
 * text index, history or applied opIds. What the server's share of a bulk call is compared with.
 *
 * The rows are removed again afterwards (not timed), so the floor leaves the database as it found
 * it; run it before the measured call when its rows repeat that call's (the rule of one live
 * indicator per key on a form would refuse them). A row marked `repeat` (an update edit's row,
 * the same row once more) is written as a deleted one, outside that rule.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
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

/** Writes the rows in one transaction, then removes them; answers the milliseconds of the transaction. */
export async function insertFloor(app: FastifyInstance, projectId: number, rows: readonly FloorRow[]): Promise<number> {
  const now = new Date().toISOString();
  const values = rows.map((row): NewRecordRow => ({
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
  }));
  const start = performance.now();
  await app.db.transaction().execute(async (trx) => {
    for (const chunk of chunksOf(values, rowsPerStatement(Object.keys(values[0] ?? {}).length || 1))) await trx.insertInto('records').values(chunk).execute();
  });
  const ms = performance.now() - start;
  await app.db.deleteFrom('records').where('created_by', '=', FLOOR_USER).execute();
  return ms;
}
