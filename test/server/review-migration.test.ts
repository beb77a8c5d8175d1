/**
 * Migration 0600 (db/migrations/0600_review.ts) on a database made before the review loop: a
 * project created with the seven tables as they were, with rows in it, gains the forms' and
 * seasons' review columns after its existing columns and the comments table (under forms), and
 * config.json names them; the project's tables, columns, slots, rows and history stay exactly as
 * they were, and running it again changes nothing. Runs on SQLite and, with DATABASE_URL, on
 * PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { up } from '../../src/server/db/migrations/0600_review';
import { MONITORING_TABLES, type TableDefinition } from '../../src/server/db/monitoring-schema';
import { createProject, loadProjectSchema } from '../../src/server/repositories/project-repository';
import { insertSeedRecord } from '../../src/server/seed/seed-util';
import type { AppConfig } from '../../src/common/schemas/config';
import { testAuthenticate, TEST_USER_HEADER, USERS } from './helpers/build-test-app';

const NEW_COLUMNS: Record<string, string[]> = {
  forms: ['review_state', 'review_reason', 'review_indicator', 'reviewed_by', 'reviewed_at', 'return_until'],
  durations: ['submit_until', 'review_until', 'appeal_days'],
};

/** The seven tables as a project made before the review loop has them. */
const OLD_TABLES: TableDefinition[] = MONITORING_TABLES.filter((table) => table.key !== 'comments').map((table) => ({
  ...table,
  columns: table.columns.filter((column) => !(NEW_COLUMNS[table.key] ?? []).includes(column.name)),
}));

let app: FastifyInstance;
let origin: string;

async function schemaRows() {
  const tables = await app.db.selectFrom('project_tables').selectAll().orderBy('id').execute();
  const columns = await app.db.selectFrom('table_columns').selectAll().orderBy('id').execute();
  const slots = await app.db.selectFrom('table_attachment_infos').selectAll().orderBy('id').execute();
  return { tables, columns, slots };
}

async function dataRows() {
  const records = await app.db.selectFrom('records').selectAll().orderBy('id').execute();
  const history = await app.db.selectFrom('record_history').selectAll().orderBy('id').execute();
  return JSON.stringify({ records, history });
}

beforeAll(async () => {
  app = await buildApp({ database: ':memory:', dataDir: 'data-test-unused', demo: false, authenticate: testAuthenticate });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('test app did not listen');
  origin = `http://127.0.0.1:${address.port}`;
  // Project 1 as it was made before migration 0600, with a few rows (straight into the database:
  // the app has not read the project yet, as on a server started after the upgrade).
  await createProject(app.db, app.dialect, { id: 1, name: 'Pred pregledom', tables: OLD_TABLES });
  await app.db.insertInto('project_roles').values({ project_id: 1, email: USERS.editor, role: 'editor' }).execute();
  const old = (await loadProjectSchema(app.db, 1))!;
  const table = (key: string) => old.tablesByKey.get(key)!;
  const opts = { now: '2025-06-01T10:00:00.000Z', by: 'test' };
  const season = await insertSeedRecord(
    app.db,
    app.dialect,
    table('durations'),
    { values: { name: 'Sezona 2025', filter_start: '2025-01-01', filter_end: '2025-12-31' } },
    opts,
  );
  const farmer = await insertSeedRecord(app.db, app.dialect, table('farmers'), { values: { name: 'Ana', email: USERS.farmer1 } }, opts);
  const meadow = await insertSeedRecord(app.db, app.dialect, table('areas'), { values: { name: 'Travnik', user: farmer } }, opts);
  const path = await insertSeedRecord(app.db, app.dialect, table('paths'), { values: { name: 'Pot', parent: meadow } }, opts);
  const link = await insertSeedRecord(app.db, app.dialect, table('durationPaths'), { values: { duration_id: season, path_id: path } }, opts);
  await insertSeedRecord(app.db, app.dialect, table('forms'), { values: { parent: link, form_id: 1, completed: true, note: 'star obrazec' } }, opts);
});

afterAll(async () => {
  await app.close();
});

describe('migration 0600 on a project made before the review loop', () => {
  it('adds the review columns after the existing ones and the comments table, and changes nothing else', async () => {
    const before = await schemaRows();
    const data = await dataRows();
    expect(before.tables.map((row) => row.key)).not.toContain('comments');

    await up(app.db, app.dialect);
    const after = await schemaRows();

    // What was there stays as it was, ids and positions included.
    expect(after.tables.slice(0, before.tables.length)).toEqual(before.tables);
    expect(after.columns.slice(0, before.columns.length)).toEqual(before.columns);
    expect(after.slots.slice(0, before.slots.length)).toEqual(before.slots);
    expect(await dataRows()).toBe(data);

    // The comments table, named as in a new project, with no attachment slots.
    const added = after.tables.slice(before.tables.length);
    expect(added.map((row) => [row.project_id, row.key, row.name])).toEqual([[1, 'comments', 'Komentarji']]);
    expect(after.slots.length).toBe(before.slots.length);
    const tableId = (key: string) => after.tables.find((row) => row.key === key)!.id;
    const newColumns = after.columns.slice(before.columns.length).map((row) => ({
      table: after.tables.find((t) => t.id === row.table_id)!.key,
      name: row.name,
      type: row.type,
      ref: row.ref_table_id,
      position: row.position,
    }));
    const oldCount = (key: string) => before.columns.filter((row) => row.table_id === tableId(key)).length;
    const described = (key: string) => MONITORING_TABLES.find((table) => table.key === key)!.columns;
    expect(newColumns).toEqual([
      ...described('durations')
        .filter((column) => NEW_COLUMNS.durations!.includes(column.name))
        .map((column, n) => ({ table: 'durations', name: column.name, type: column.type, ref: null, position: oldCount('durations') + n })),
      ...described('forms')
        .filter((column) => NEW_COLUMNS.forms!.includes(column.name))
        .map((column, n) => ({ table: 'forms', name: column.name, type: column.type, ref: null, position: oldCount('forms') + n })),
      ...described('comments').map((column, n) => ({
        table: 'comments',
        name: column.name,
        type: column.type,
        ref: column.ref ? tableId(column.ref) : null,
        position: n,
      })),
    ]);
    expect(newColumns.filter((column) => column.table === 'comments').map((column) => column.name)).toEqual(['parent', 'text', 'indicator', 'state', 'author']);

    // Again: nothing more.
    await up(app.db, app.dialect);
    expect(await schemaRows()).toEqual(after);
    expect(await dataRows()).toBe(data);
  });

  it('config.json names the new columns and the comments table, and they take writes', async () => {
    const config = (await (await fetch(`${origin}/config.json`)).json()) as AppConfig;
    const schema = (await loadProjectSchema(app.db, 1))!;
    const idOf = (key: string, name: string) => schema.tablesByKey.get(key)!.columnsByName.get(name)!.id;
    for (const name of NEW_COLUMNS.forms!) expect(config.tables.forms.columns).toHaveProperty(name, idOf('forms', name));
    for (const name of NEW_COLUMNS.durations!) expect(config.tables.durations.columns).toHaveProperty(name, idOf('durations', name));
    expect(config.tables.comments).toEqual({
      id: schema.tablesByKey.get('comments')!.id,
      columns: {
        parent: idOf('comments', 'parent'),
        text: idOf('comments', 'text'),
        indicator: idOf('comments', 'indicator'),
        state: idOf('comments', 'state'),
        author: idOf('comments', 'author'),
      },
    });
    // An old form (no review_state: a draft) gets a comment through the API.
    const form = await app.db.selectFrom('records').select('id').where('table_id', '=', config.tables.forms.id).executeTakeFirstOrThrow();
    const c = config.tables.comments.columns;
    const answer = await fetch(`${origin}/api/Records/1`, {
      method: 'POST',
      headers: { [TEST_USER_HEADER]: USERS.editor, 'content-type': 'application/json' },
      body: JSON.stringify({ tableId: config.tables.comments.id, properties: { [c.parent]: form.id, [c.text]: 'Dobrodošli v pregledu.' } }),
    });
    expect(answer.status).toBe(201);
    expect(((await answer.json()) as { properties: Record<string, unknown> }).properties[String(c.author)]).toBe(USERS.editor);
  });
});
