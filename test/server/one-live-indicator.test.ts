/**
 * A form holds at most one live (not deleted) indicator row per indicator key: a second insert is
 * answered 409 with the row the form holds (`current`, `duplicateOf`), alone or inside a bulk
 * call (which is refused whole, naming the operation), and changes nothing; the database refuses
 * a duplicate written past the writers; rows that broke the rule before it existed are settled
 * (the latest written stays live). Runs on SQLite and, with DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import { ensureLiveUniqueRules } from '../../src/server/db/live-unique-rules';
import { buildTestApp, USERS, type TestApp } from './helpers/build-test-app';
import { farmerRows, type FarmerRows } from './helpers/demo-ids';

let t: TestApp;
let own: FarmerRows;

beforeAll(async () => {
  t = await buildTestApp();
  own = await farmerRows(t.app, t.tables, USERS.farmer1);
});

afterAll(async () => {
  await t.close();
});

async function liveIndicators(formId: number): Promise<Array<{ id: number; key: unknown; value: unknown; updated_at: string }>> {
  const i = t.tables.indicators;
  const rows = await t.app.db
    .selectFrom('records')
    .select(['id', 'properties', 'updated_at'])
    .where('table_id', '=', i.id)
    .where('deleted', '=', 0)
    .orderBy('id')
    .execute();
  return rows
    .map((row) => ({
      id: row.id,
      p: (typeof row.properties === 'string' ? JSON.parse(row.properties) : row.properties) as Record<string, unknown>,
      updated_at: row.updated_at,
    }))
    .filter((row) => row.p[String(i.columns.parent)] === formId)
    .map((row) => ({ id: row.id, key: row.p[String(i.columns.key)], value: row.p[String(i.columns.value)], updated_at: row.updated_at }));
}

/** A new form of the farmer with one answered indicator, made through the API. */
async function formWithAnswer(key: string): Promise<{ formId: number; indicatorId: number }> {
  const f = t.tables.forms;
  const i = t.tables.indicators;
  const made = await t.as(USERS.farmer1, {
    method: 'POST',
    url: '/api/Records/1/bulk',
    payload: {
      operations: [
        { opId: `form-${key}`, kind: 'insert', tableId: f.id, localId: 901, properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: 1 } },
        {
          opId: `answer-${key}`,
          kind: 'insert',
          tableId: i.id,
          localId: 902,
          properties: { [i.columns.parent]: 901, [i.columns.key]: key, [i.columns.value]: false },
        },
      ],
    },
  });
  expect(made.statusCode).toBe(200);
  const [form, indicator] = made.json().results as Array<{ id: number }>;
  return { formId: form!.id, indicatorId: indicator!.id };
}

describe('one live indicator per key on a form', () => {
  it('answers a second insert with 409 and the row the form holds, and stores nothing', async () => {
    const i = t.tables.indicators;
    const { formId, indicatorId } = await formWithAnswer('salvia-pratensis');
    const second = await t.as(USERS.farmer1, {
      method: 'POST',
      url: '/api/Records/1',
      payload: { tableId: i.id, properties: { [i.columns.parent]: formId, [i.columns.key]: 'salvia-pratensis', [i.columns.value]: true } },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({
      status: 409,
      duplicateOf: indicatorId,
      current: { id: indicatorId, properties: { [String(i.columns.value)]: false } },
    });
    expect(await liveIndicators(formId)).toEqual([expect.objectContaining({ id: indicatorId, key: 'salvia-pratensis', value: false })]);
    // Another key on the same form is fine.
    const other = await t.as(USERS.farmer1, {
      method: 'POST',
      url: '/api/Records/1',
      payload: { tableId: i.id, properties: { [i.columns.parent]: formId, [i.columns.key]: 'briza-media', [i.columns.value]: true } },
    });
    expect(other.statusCode).toBe(201);
  });

  it('refuses a bulk call holding a second insert whole, naming the operation, with the row the form holds', async () => {
    const i = t.tables.indicators;
    const f = t.tables.forms;
    const { formId, indicatorId } = await formWithAnswer('lotus-corniculatus');
    const before = await liveIndicators(formId);
    const answer = await t.as(USERS.farmer1, {
      method: 'POST',
      url: '/api/Records/1/bulk',
      payload: {
        operations: [
          { opId: 'note-first', kind: 'update', tableId: f.id, id: formId, properties: { [f.columns.note]: 'ne sme ostati' } },
          {
            opId: 'again',
            kind: 'insert',
            tableId: i.id,
            localId: 903,
            properties: { [i.columns.parent]: formId, [i.columns.key]: 'lotus-corniculatus', [i.columns.value]: true },
          },
        ],
      },
    });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({ opId: 'again', duplicateOf: indicatorId, current: { id: indicatorId } });
    expect(await liveIndicators(formId)).toEqual(before);
    const form = await t.app.db.selectFrom('records').select('properties').where('id', '=', formId).executeTakeFirstOrThrow();
    expect(JSON.stringify(form.properties)).not.toContain('ne sme ostati');
  });

  it('refuses two inserts of one key under a form made in the same bulk call (the database sees both)', async () => {
    const i = t.tables.indicators;
    const f = t.tables.forms;
    const formsBefore = await t.app.db
      .selectFrom('records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('table_id', '=', f.id)
      .executeTakeFirstOrThrow();
    const answer = await t.as(USERS.farmer1, {
      method: 'POST',
      url: '/api/Records/1/bulk',
      payload: {
        operations: [
          { opId: 'twin-form', kind: 'insert', tableId: f.id, localId: 911, properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: 1 } },
          {
            opId: 'twin-1',
            kind: 'insert',
            tableId: i.id,
            localId: 912,
            properties: { [i.columns.parent]: 911, [i.columns.key]: 'taraxacum', [i.columns.value]: 'ni' },
          },
          {
            opId: 'twin-2',
            kind: 'insert',
            tableId: i.id,
            localId: 913,
            properties: { [i.columns.parent]: 911, [i.columns.key]: 'taraxacum', [i.columns.value]: 'pogosto' },
          },
        ],
      },
    });
    expect(answer.statusCode).toBe(409);
    const formsAfter = await t.app.db
      .selectFrom('records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('table_id', '=', f.id)
      .executeTakeFirstOrThrow();
    expect(Number(formsAfter.n)).toBe(Number(formsBefore.n));
  });

  it('allows the key again once its row is deleted (the rule covers live rows)', async () => {
    const i = t.tables.indicators;
    const { formId, indicatorId } = await formWithAnswer('orchidaceae');
    expect((await t.as(USERS.farmer1, { method: 'POST', url: '/api/Records/1/delete', payload: { tableId: i.id, ids: [indicatorId] } })).statusCode).toBe(200);
    const again = await t.as(USERS.farmer1, {
      method: 'POST',
      url: '/api/Records/1',
      payload: { tableId: i.id, properties: { [i.columns.parent]: formId, [i.columns.key]: 'orchidaceae', [i.columns.value]: 2 } },
    });
    expect(again.statusCode).toBe(201);
  });

  it('in a bulk call, follows keys that updates earlier in the call take or free (the call checks its inserts from one read ahead)', async () => {
    const i = t.tables.indicators;
    const { formId, indicatorId } = await formWithAnswer('trifolium-pratense');
    const insert = (opId: string, localId: number, key: string) => ({
      opId,
      kind: 'insert',
      tableId: i.id,
      localId,
      properties: { [i.columns.parent]: formId, [i.columns.key]: key, [i.columns.value]: true },
    });
    const rename = (opId: string, key: string) => ({
      opId,
      kind: 'update',
      tableId: i.id,
      id: indicatorId,
      properties: { [i.columns.parent]: formId, [i.columns.key]: key, [i.columns.value]: false },
    });
    // The first insert reads the form's live rows; the update then takes a key the next insert wants.
    const taken = await t.as(USERS.farmer1, {
      method: 'POST',
      url: '/api/Records/1/bulk',
      payload: { operations: [insert('x-1', 911, 'plantago-lanceolata'), rename('r-1', 'leucanthemum-vulgare'), insert('x-2', 912, 'leucanthemum-vulgare')] },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ opId: 'x-2', duplicateOf: indicatorId });
    expect(await liveIndicators(formId)).toEqual([expect.objectContaining({ id: indicatorId, key: 'trifolium-pratense' })]);
    // …and an update that frees a key lets a later insert of the same call take it.
    const freed = await t.as(USERS.farmer1, {
      method: 'POST',
      url: '/api/Records/1/bulk',
      payload: { operations: [insert('y-1', 913, 'plantago-lanceolata'), rename('r-2', 'knautia-arvensis'), insert('y-2', 914, 'trifolium-pratense')] },
    });
    expect(freed.statusCode).toBe(200);
    expect((await liveIndicators(formId)).map((row) => row.key).sort()).toEqual(['knautia-arvensis', 'plantago-lanceolata', 'trifolium-pratense']);
  });

  it('is enforced by the database too, and rows that broke it before are settled (the latest written stays live)', async () => {
    const i = t.tables.indicators;
    const { formId, indicatorId } = await formWithAnswer('rumex-obtusifolius');
    const row = await t.app.db.selectFrom('records').selectAll().where('id', '=', indicatorId).executeTakeFirstOrThrow();
    const { id: _id, ...copy } = row;
    const later = {
      ...copy,
      updated_at: new Date(Date.parse(row.updated_at) + 1000).toISOString(),
      properties: JSON.stringify({
        ...(typeof row.properties === 'string' ? JSON.parse(row.properties) : row.properties),
        [String(i.columns.value)]: 'posamicno',
      }),
    };
    await expect(t.app.db.insertInto('records').values(later).execute()).rejects.toThrow(/records_live_unique_/);

    // A database from before the rule: the index is gone and a duplicate slipped in.
    await sql.raw(`drop index records_live_unique_${i.id}`).execute(t.app.db);
    const inserted = await t.app.db.insertInto('records').values(later).returning('id').executeTakeFirstOrThrow();
    expect(await ensureLiveUniqueRules(t.app.db, t.app.dialect)).toBe(1);
    expect(await liveIndicators(formId)).toEqual([expect.objectContaining({ id: inserted.id, key: 'rumex-obtusifolius', value: 'posamicno' })]);
    await expect(t.app.db.insertInto('records').values(later).execute()).rejects.toThrow(/records_live_unique_/);
  });
});
