/**
 * Bulk calls write in multi-row statements (src/server/repositories/bulk-writer.ts, bulk-writes.ts): new rows get
 * their ids up front and are written with their history, text index entries and applied opIds in
 * runs of BULK_STATEMENT_ROWS rows; the rows updates change are read in one go. These tests pin
 * the edges that batching creates: calls larger than one statement, children whose parent sits in
 * another statement, duplicate opIds inside one call, updates of rows inserted or updated earlier
 * in the same call, a failure in the middle of a batch, and that a bulk call leaves the database
 * exactly as the same operations sent one by one through the single-record routes do.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import { LOCAL_ID_BOUND } from '../../src/common/constants';
import { FORM_KINDS } from '../../src/common/scheme/form-kinds';
import { BULK_STATEMENT_ROWS } from '../../src/server/db/dialect';
import { buildTestApp, snapshot, USERS, type TestApp } from './helpers/build-test-app';
import { demoFormsAsDrafts, farmerRows, type FarmerRows } from './helpers/demo-ids';

let t: TestApp;
let own: FarmerRows;
const F = USERS.farmer1;
const kind = FORM_KINDS.travnik;

beforeAll(async () => {
  t = await buildTestApp();
  await demoFormsAsDrafts(t.app, t.tables);
  own = await farmerRows(t.app, t.tables, F);
});

afterAll(async () => {
  await t.close();
});

type Result = { opId: string; status: string; id: number; localId?: number; record?: { id: number; version: number; properties: Record<string, unknown> } };

const bulk = (operations: unknown[], user: string = F) => t.as(user, { method: 'POST', url: '/api/Records/1/bulk', payload: { operations } });

async function historyOf(ids: number[]): Promise<Array<{ record_id: number; action: string }>> {
  return t.app.db.selectFrom('record_history').select(['record_id', 'action']).where('record_id', 'in', ids).orderBy('id').execute();
}

async function indexedCount(ids: number[]): Promise<number> {
  const column = t.app.dialect.name === 'sqlite' ? sql.ref('rowid') : sql.ref('record_id');
  const result = await sql<{ n: number }>`select count(*) as n from records_fts where ${column} in (${sql.join(ids)})`.execute(t.app.db);
  return Number(result.rows[0]!.n);
}

describe('bulk calls larger than one statement', () => {
  it('inserts parents and children across statement boundaries: ids in operation order, references resolved, history, text index and scores for every row', async () => {
    const f = t.tables.forms;
    const i = t.tables.indicators;
    // 1,200 rows: three statements of new records.
    const forms = BULK_STATEMENT_ROWS + 100;
    const operations = [
      ...Array.from({ length: forms }, (_, n) => ({
        opId: `big-form-${n}`,
        kind: 'insert',
        tableId: f.id,
        localId: 10_000 + n,
        properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: kind.id, [f.columns.note]: `popis${n} travnika` },
      })),
      // Each form's indicator comes one statement or more later; the first ones point at forms
      // in the first statement, the last ones at forms in the same one.
      ...Array.from({ length: forms }, (_, n) => ({
        opId: `big-ind-${n}`,
        kind: 'insert',
        tableId: i.id,
        localId: 20_000 + n,
        properties: { [i.columns.parent]: 10_000 + n, [i.columns.key]: 'salvia-pratensis', [i.columns.value]: true },
      })),
    ];
    const response = await bulk(operations);
    expect(response.statusCode).toBe(200);
    const results: Result[] = response.json().results;
    expect(results).toHaveLength(operations.length);
    expect(results.every((r) => r.status === 'applied')).toBe(true);
    const ids = results.map((r) => r.id);
    expect(ids[0]).toBeGreaterThanOrEqual(LOCAL_ID_BOUND);
    ids.slice(1).forEach((id, n) => expect(id).toBeGreaterThan(ids[n]!));
    results.forEach((r, n) => expect(r.localId).toBe((n < forms ? 10_000 : 20_000 - forms) + n));
    for (let n = 0; n < forms; n++) {
      expect(results[forms + n]!.record!.properties[String(i.columns.parent)]).toBe(ids[n]);
      // Rescored once at the end, over more forms than one statement reads.
      expect(results[n]!.record!.properties[String(f.columns.score)]).toBe(kind.scoring.base + 7);
    }
    const stored = await t.app.db.selectFrom('records').select(['id', 'table_id', 'version', 'properties']).where('id', 'in', ids).orderBy('id').execute();
    expect(stored.map((row) => row.id)).toEqual(ids);
    expect(stored.every((row) => row.version === 1)).toBe(true);
    const lastForm = stored.find((row) => row.id === ids[forms - 1])!;
    expect(JSON.parse(lastForm.properties)[String(f.columns.score)]).toBe(kind.scoring.base + 7);
    const history = await historyOf(ids);
    expect(history.map((h) => h.record_id)).toEqual(ids);
    expect(history.every((h) => h.action === 'insert')).toBe(true);
    // Every row has text (forms a note, indicators their key).
    expect(await indexedCount(ids)).toBe(ids.length);
    const found = await t.as(F, { method: 'GET', url: `/api/Records/1/search/1/10/1/popis${forms - 1}` });
    expect(found.json().records.map((r: { id: number }) => r.id)).toEqual([ids[forms - 1]]);

    // The whole call again (its answer was lost): every operation is a duplicate, nothing new.
    const before = await snapshot(t.app);
    const again = await bulk(operations);
    expect(again.statusCode).toBe(200);
    const replayed: Result[] = again.json().results;
    expect(replayed.every((r) => r.status === 'duplicate')).toBe(true);
    expect(replayed.map((r) => r.id)).toEqual(ids);
    expect(await snapshot(t.app)).toBe(before);
  }, 120_000);
});

describe('bulk calls longer than what a call holds before writing it', () => {
  it('rows written in the middle of the call are updated, rescored and indexed later in it as the call leaves them', async () => {
    const f = t.tables.forms;
    const i = t.tables.indicators;
    // More operations than a call holds between its writes (a few hundred): the first rows are
    // in the database when the last operations change them.
    const filler = BULK_STATEMENT_ROWS + 100;
    const response = await bulk([
      {
        opId: 'long-form',
        kind: 'insert',
        tableId: f.id,
        localId: 901,
        properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: kind.id, [f.columns.note]: 'prvi zapis' },
      },
      {
        opId: 'long-ind',
        kind: 'insert',
        tableId: i.id,
        localId: 902,
        properties: { [i.columns.parent]: 901, [i.columns.key]: 'solidago', [i.columns.value]: true },
      },
      ...Array.from({ length: filler }, (_, n) => ({
        opId: `long-filler-${n}`,
        kind: 'insert',
        tableId: f.id,
        properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: kind.id, [f.columns.note]: `polnilo ${n}` },
      })),
      { opId: 'long-ind-upd', kind: 'update', tableId: i.id, id: 902, properties: { [i.columns.key]: 'salvia-pratensis' }, version: 1 },
      { opId: 'long-form-upd', kind: 'update', tableId: f.id, id: 901, properties: { [f.columns.note]: 'drugi zapis' }, version: 1 },
    ]);
    expect(response.statusCode).toBe(200);
    const results: Result[] = response.json().results;
    const [form, indicator] = [results[0]!.id, results[1]!.id];
    expect(results.at(-2)!.record).toMatchObject({ id: indicator, version: 2, properties: { [String(i.columns.key)]: 'salvia-pratensis' } });
    const last = results.at(-1)!.record!;
    expect(last).toMatchObject({ id: form, version: 2, properties: { [String(f.columns.note)]: 'drugi zapis' } });
    // Scored from the indicator as the call left it (not as first written), in the answer and stored.
    expect(last.properties[String(f.columns.score)]).toBe(kind.scoring.base + 7);
    const stored = await t.as(F, { method: 'GET', url: `/api/Records/1/${f.id}/${form}` });
    expect(stored.json()).toMatchObject({
      version: 2,
      properties: { [String(f.columns.note)]: 'drugi zapis', [String(f.columns.score)]: kind.scoring.base + 7 },
    });
    expect((await historyOf([form, indicator])).map((h) => [h.record_id, h.action])).toEqual([
      [form, 'insert'],
      [indicator, 'insert'],
      [indicator, 'update'],
      [form, 'update'],
    ]);
    const found = async (text: string) =>
      (await t.as(F, { method: 'GET', url: `/api/Records/1/search/1/10/1/${encodeURIComponent(text)}` })).json().records.map((r: { id: number }) => r.id);
    expect(await found('drugi zapis')).toEqual([form]);
    expect(await found('prvi zapis')).toEqual([]);
  }, 120_000);
});

describe('duplicates and repeated rows inside one call', () => {
  it('applies a repeated opId once, also for inserts, and maps its local id for later operations', async () => {
    const f = t.tables.forms;
    const i = t.tables.indicators;
    const insert = {
      opId: 'dup-ins',
      kind: 'insert',
      tableId: f.id,
      localId: 701,
      properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: kind.id },
    };
    const child = {
      opId: 'dup-child',
      kind: 'insert',
      tableId: i.id,
      localId: 702,
      properties: { [i.columns.parent]: 701, [i.columns.key]: 'solidago', [i.columns.value]: true },
    };
    const response = await bulk([insert, insert, child, child]);
    expect(response.statusCode).toBe(200);
    const results: Result[] = response.json().results;
    expect(results.map((r) => r.status)).toEqual(['applied', 'duplicate', 'applied', 'duplicate']);
    expect(results[1]).toEqual({
      opId: 'dup-ins',
      status: 'duplicate',
      id: results[0]!.id,
      localId: 701,
      record: expect.objectContaining({ id: results[0]!.id, version: results[0]!.record!.version }),
    });
    expect(results[2]!.record!.properties[String(i.columns.parent)]).toBe(results[0]!.id);
    expect(results[3]!.id).toBe(results[2]!.id);
    const rows = await t.app.db.selectFrom('records').select('id').where('id', 'in', [results[0]!.id, results[2]!.id]).execute();
    expect(rows).toHaveLength(2);
    expect((await historyOf([results[0]!.id, results[2]!.id])).map((h) => h.action)).toEqual(['insert', 'insert']);
    const ops = await t.app.db.selectFrom('applied_ops').select('op_id').where('op_id', 'in', ['dup-ins', 'dup-child']).execute();
    expect(ops).toHaveLength(2);
  });

  it('updates the same row several times, rows inserted in the same call, and checks versions against the latest write', async () => {
    const f = t.tables.forms;
    const i = t.tables.indicators;
    const existing = own.forms[0]!;
    const current = (await t.as(F, { method: 'GET', url: `/api/Records/1/${f.id}/${existing}` })).json();
    const response = await bulk([
      { opId: 'rep-1', kind: 'update', tableId: f.id, id: existing, properties: { [f.columns.note]: 'ena' }, version: current.version },
      {
        opId: 'rep-ins',
        kind: 'insert',
        tableId: i.id,
        localId: 801,
        properties: { [i.columns.parent]: existing, [i.columns.key]: 'flower_colours', [i.columns.value]: 2, [i.columns.note]: 'nov' },
      },
      // Based on the version the first update produced.
      { opId: 'rep-2', kind: 'update', tableId: f.id, id: existing, properties: { [f.columns.note]: 'dve' }, version: current.version + 1 },
      { opId: 'rep-3', kind: 'update', tableId: i.id, id: 801, properties: { [i.columns.note]: 'popravljen' } },
      { opId: 'rep-4', kind: 'update', tableId: f.id, id: existing, properties: { [f.columns.note]: 'tri' } },
      { opId: 'rep-5', kind: 'update', tableId: i.id, id: 801, properties: { [i.columns.note]: 'še enkrat', [i.columns.value]: 3 } },
    ]);
    expect(response.statusCode).toBe(200);
    const results: Result[] = response.json().results;
    const created = results[1]!.id;
    expect(results.map((r) => [r.id, r.record!.version])).toEqual([
      [existing, current.version + 1],
      [created, 1],
      [existing, current.version + 2],
      [created, 2],
      [existing, current.version + 3],
      [created, 3],
    ]);
    expect(results[5]!.record!.properties).toMatchObject({
      [String(i.columns.note)]: 'še enkrat',
      [String(i.columns.value)]: 3,
      [String(i.columns.parent)]: existing,
    });
    const after = (await t.as(F, { method: 'GET', url: `/api/Records/1/${f.id}/${existing}` })).json();
    expect(after).toMatchObject({ version: current.version + 3, properties: { [String(f.columns.note)]: 'tri' } });
    expect((await historyOf([created])).map((h) => h.action)).toEqual(['insert', 'update', 'update']);
    const search = await t.as(F, { method: 'GET', url: '/api/Records/1/search/1/10/1/se%20enkrat' });
    expect(search.json().records.map((r: { id: number }) => r.id)).toEqual([created]);
    expect((await t.as(F, { method: 'GET', url: '/api/Records/1/search/1/10/1/popravljen' })).json().records).toEqual([]);
  });

  it('one live link per path and season also between two inserts of the same call', async () => {
    const d = t.tables.durationPaths;
    const f = t.tables.forms;
    const seasons = await t.as(F, { method: 'POST', url: '/api/Records/1/search', payload: { tableId: t.tables.durations.id } });
    const season = seasons.json().records.at(-1).id;
    const link = { [d.columns.path_id]: own.paths[0], [d.columns.duration_id]: season };
    const response = await bulk([
      { opId: 'nk-1', kind: 'insert', tableId: d.id, localId: 901, properties: link },
      { opId: 'nk-2', kind: 'insert', tableId: d.id, localId: 902, properties: link },
      { opId: 'nk-form', kind: 'insert', tableId: f.id, localId: 903, properties: { [f.columns.parent]: 902, [f.columns.form_id]: kind.id } },
    ]);
    expect(response.statusCode).toBe(200);
    const results: Result[] = response.json().results;
    expect(results[1]!.id).toBe(results[0]!.id);
    expect(results[2]!.record!.properties[String(f.columns.parent)]).toBe(results[0]!.id);
  });
});

describe('scores of forms inserted by the call', () => {
  it('count indicators inserted under them and existing ones moved under them in the same call', async () => {
    const f = t.tables.forms;
    const i = t.tables.indicators;
    const base = kind.scoring.base;
    const form = (localId: number) => ({
      opId: `sc-form-${localId}`,
      kind: 'insert',
      tableId: f.id,
      localId,
      properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: kind.id },
    });
    const indicator = (opId: string, parent: number, key: string) => ({
      opId,
      kind: 'insert',
      tableId: i.id,
      properties: { [i.columns.parent]: parent, [i.columns.key]: key, [i.columns.value]: true },
    });
    const score = (r: Result) => r.record!.properties[String(f.columns.score)];
    const stored = async (id: number) =>
      JSON.parse((await t.app.db.selectFrom('records').select('properties').where('id', '=', id).executeTakeFirstOrThrow()).properties)[
        String(f.columns.score)
      ];

    const inserts = await bulk([form(1101), indicator('sc-1', 1101, 'salvia-pratensis'), form(1102), indicator('sc-2', 1101, 'solidago')]);
    expect(inserts.statusCode).toBe(200);
    const [a, , b] = inserts.json().results as Result[];
    expect(score(a!)).toBe(Math.max(0, base + 7 - 20));
    expect(score(b!)).toBe(base);
    expect(await stored(a!.id)).toBe(score(a!));
    expect(await stored(b!.id)).toBe(base);

    // An existing indicator moved under a form inserted in the same call counts for it.
    const moved = (await t.app.db.selectFrom('records').select('id').where('table_id', '=', i.id).where('id', 'in', own.indicators).execute())
      .map((r) => r.id)
      .at(-1)!;
    const mixed = await bulk([
      form(1103),
      {
        opId: 'sc-move',
        kind: 'update',
        tableId: i.id,
        id: moved,
        properties: { [i.columns.parent]: 1103, [i.columns.key]: 'salvia-pratensis', [i.columns.value]: true },
      },
      form(1104),
    ]);
    expect(mixed.statusCode).toBe(200);
    const [c, , d] = mixed.json().results as Result[];
    expect(score(c!)).toBe(base + 7);
    expect(await stored(c!.id)).toBe(base + 7);
    expect(await stored(d!.id)).toBe(base);
  });
});

describe('a failure in the middle of a batch', () => {
  it('a stale version after inserts, children and updates answers 409 with the current record and changes nothing', async () => {
    const f = t.tables.forms;
    const i = t.tables.indicators;
    const target = own.forms[0]!;
    const current = (await t.as(F, { method: 'GET', url: `/api/Records/1/${f.id}/${target}` })).json();
    const before = await snapshot(t.app);
    const ids = (await t.app.db.selectFrom('records').select('id').execute()).map((r) => r.id);
    const indexedBefore = await indexedCount(ids);
    const operations = [
      ...Array.from({ length: BULK_STATEMENT_ROWS + 5 }, (_, n) => ({
        opId: `mid-form-${n}`,
        kind: 'insert',
        tableId: f.id,
        localId: 30_000 + n,
        properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: kind.id, [f.columns.note]: `vmes${n}` },
      })),
      { opId: 'mid-child', kind: 'insert', tableId: i.id, properties: { [i.columns.parent]: 30_000, [i.columns.key]: 'solidago', [i.columns.value]: true } },
      { opId: 'mid-upd', kind: 'update', tableId: f.id, id: target, properties: { [f.columns.note]: 'vmesna' }, version: current.version },
      { opId: 'mid-del', kind: 'delete', tableId: i.id, id: own.indicators[0] },
      { opId: 'mid-stale', kind: 'update', tableId: f.id, id: target, properties: { [f.columns.note]: 'zastarela' }, version: current.version },
      { opId: 'mid-after', kind: 'insert', tableId: f.id, properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: kind.id } },
    ];
    const response = await bulk(operations);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      opId: 'mid-stale',
      current: { id: target, version: current.version + 1, properties: { [String(f.columns.note)]: 'vmesna' } },
    });
    expect(response.json().detail).toMatch(new RegExp(`^operations\\[${operations.findIndex((op) => op.opId === 'mid-stale')}\\]`));
    expect(await snapshot(t.app)).toBe(before);
    expect(await indexedCount(ids)).toBe(indexedBefore);
    const search = await t.as(F, { method: 'GET', url: '/api/Records/1/search/1/10/1/vmes0' });
    expect(search.json().records).toEqual([]);
    // Without the stale operation the same call applies in full.
    const fixed = await bulk(operations.filter((op) => op.opId !== 'mid-stale'));
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json().results.every((r: Result) => r.status === 'applied')).toBe(true);
  }, 120_000);

  it("a row outside the farmer's chain among many updates is a 404 that changes nothing", async () => {
    const f = t.tables.forms;
    const other = await farmerRows(t.app, t.tables, USERS.farmer2);
    const before = await snapshot(t.app);
    const response = await bulk([
      ...own.forms.map((id, n) => ({ opId: `scope-${n}`, kind: 'update', tableId: f.id, id, properties: { [f.columns.note]: `moj ${n}` } })),
      { opId: 'scope-other', kind: 'update', tableId: f.id, id: other.forms[0], properties: { [f.columns.note]: 'tuj' } },
    ]);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ opId: 'scope-other' });
    expect(await snapshot(t.app)).toBe(before);
  });
});

describe('bulk and single writes leave the same database', () => {
  it('the same operations in one bulk call and one by one through the single routes', async () => {
    // Two fresh apps with the same demo data (and ids): one gets the bulk call, the other single calls.
    const a = await buildTestApp();
    const other = await buildTestApp();
    try {
      await demoFormsAsDrafts(a.app, a.tables);
      await demoFormsAsDrafts(other.app, other.tables);
      const f = a.tables.forms;
      const i = a.tables.indicators;
      const mine = await farmerRows(a.app, a.tables, F);
      expect(await farmerRows(other.app, other.tables, F)).toEqual(mine);
      {
        const n = 120;
        const props = (k: number) => ({
          [f.columns.parent]: mine.durationPaths[k % mine.durationPaths.length],
          [f.columns.form_id]: kind.id,
          [f.columns.note]: `enako ${k}`,
        });
        // First call inserts only (new forms are scored before they are written), the second mixes
        // inserts, updates and a delete (forms are scored in the database).
        const first: Array<Record<string, unknown>> = [];
        for (let k = 0; k < n; k++) first.push({ opId: `same-${k}`, kind: 'insert', tableId: f.id, localId: 40_000 + k, properties: props(k) });
        for (let k = 0; k < 5; k++) {
          first.push({
            opId: `same-i${k}`,
            kind: 'insert',
            tableId: i.id,
            localId: 48_000 + k,
            properties: { [i.columns.parent]: 40_000 + k, [i.columns.key]: k % 2 ? 'solidago' : 'salvia-pratensis', [i.columns.value]: true },
          });
        }
        first.push({
          opId: 'same-i-old',
          kind: 'insert',
          tableId: i.id,
          properties: { [i.columns.parent]: mine.forms[1] ?? mine.forms[0], [i.columns.key]: 'salvia-pratensis', [i.columns.value]: true },
        });
        const firstAnswer = await a.as(F, { method: 'POST', url: '/api/Records/1/bulk', payload: { operations: first } });
        expect(firstAnswer.statusCode).toBe(200);
        const lastForm = (firstAnswer.json().results as Result[])[n - 1]!.id;
        const second: Array<Record<string, unknown>> = [
          {
            opId: 'same-ind',
            kind: 'insert',
            tableId: i.id,
            localId: 49_999,
            properties: { [i.columns.parent]: lastForm, [i.columns.key]: 'salvia-pratensis', [i.columns.value]: true },
          },
          {
            opId: 'same-upd',
            kind: 'update',
            tableId: f.id,
            id: mine.forms[0],
            properties: { [f.columns.note]: 'spremenjeno' },
            geometry: { type: 'Point', coordinates: [14.5, 46.05] },
          },
          // (An indicator: a bulk call scores forms at its end, so a form inserted and updated in one
          // call has history entries without the score that single calls store at once.)
          { opId: 'same-upd-new', kind: 'update', tableId: i.id, id: 49_999, properties: { [i.columns.value]: false } },
          { opId: 'same-del', kind: 'delete', tableId: i.id, id: mine.indicators[0] },
        ];
        const secondAnswer = await a.as(F, { method: 'POST', url: '/api/Records/1/bulk', payload: { operations: second } });
        expect(secondAnswer.statusCode).toBe(200);
        const operations = [...first, ...second];

        // The same, one request per operation, local ids replaced by the ids the server gave.
        const ids = new Map<number, number>();
        for (const op of operations) {
          const properties = Object.fromEntries(
            Object.entries(op.properties ?? {}).map(([key, value]) => [key, typeof value === 'number' && ids.has(value) ? ids.get(value)! : value]),
          );
          let response;
          if (op.kind === 'insert') {
            response = await other.as(F, { method: 'POST', url: '/api/Records/1', payload: { tableId: op.tableId, properties } });
            ids.set(op.localId as number, response.json().id);
          } else if (op.kind === 'update') {
            const id = ids.get(op.id as number) ?? (op.id as number);
            response = await other.as(F, {
              method: 'PUT',
              url: `/api/Records/1/${op.tableId as number}/${id}`,
              payload: { properties, ...(op.geometry ? { geometry: op.geometry } : {}) },
            });
          } else {
            response = await other.as(F, { method: 'POST', url: '/api/Records/1/delete', payload: { tableId: op.tableId, ids: [op.id] } });
          }
          expect(response.statusCode).toBeLessThan(300);
        }

        const state = async (app: TestApp) => {
          const records = await app.app.db
            .selectFrom('records')
            .select([
              'id',
              'table_id',
              'properties',
              'geometry',
              'min_x',
              'min_y',
              'max_x',
              'max_y',
              'deleted',
              'archived',
              'version',
              'created_by',
              'updated_by',
            ])
            .orderBy('id')
            .execute();
          const history = await app.app.db
            .selectFrom('record_history')
            .select(['id', 'record_id', 'table_id', 'action', 'changed_by', 'old_value', 'new_value'])
            .orderBy('id')
            .execute();
          const column = app.app.dialect.name === 'sqlite' ? sql.ref('rowid') : sql.ref('record_id');
          const indexed = await sql<{ id: number }>`select ${column} as id from records_fts order by 1`.execute(app.app.db);
          return {
            records: records.map((r) => ({ ...r, properties: JSON.parse(r.properties) as unknown })),
            history: history.map((h) => ({
              ...h,
              old_value: h.old_value && (JSON.parse(h.old_value) as unknown),
              new_value: h.new_value && (JSON.parse(h.new_value) as unknown),
            })),
            indexed: indexed.rows.map((r) => Number(r.id)),
          };
        };
        const [bulkState, singleState] = [await state(a), await state(other)];
        expect(bulkState.records.length).toBeGreaterThan(n);
        expect(bulkState.records).toEqual(singleState.records);
        expect(bulkState.history).toEqual(singleState.history);
        expect(bulkState.indexed).toEqual(singleState.indexed);
        for (const query of ['enako%20119', 'spremenjeno']) {
          const hits = async (app: TestApp) =>
            (await app.as(F, { method: 'GET', url: `/api/Records/1/search/1/10/1/${query}` })).json().records.map((r: { id: number }) => r.id);
          expect(await hits(a)).toEqual(await hits(other));
          expect((await hits(a)).length).toBeGreaterThan(0);
        }
      }
    } finally {
      await a.close();
      await other.close();
    }
  }, 120_000);
});
