/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * All farmers' results against the real server (demo project: kmet1 and kmet2): the editor's and
 * reader's load reads every page of every table and keeps it on the device, archived rows stay
 * out, offline the same rows come from the device; a farmer's search is scoped by the server; the
 * export's form histories come from GET …/detailed a few at a time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { fetchFormHistories } from '../../../src/client/features/results/export-history';
import { buildAllFarmersResults } from '../../../src/client/features/results/results-model';
import { searchAllRecords } from '../../../src/client/lib/api/search-all';
import { loadAllFarmers } from '../../../src/client/features/results/use-all-farmers';
import { USERS } from '../../server/helpers/build-test-app';
import { farmerRows, type FarmerRows } from '../../server/helpers/demo-ids';
import { openTestDb, settleStores } from './helpers';
import { holdSearchAnswers, startRealServer, whileArchived, type RealServer } from './real-server';

jest.setTimeout(30_000);

let server: RealServer;
let kmet1: FarmerRows;
let kmet2: FarmerRows;

beforeAll(async () => {
  server = await startRealServer();
  kmet1 = await farmerRows(server.t.app, server.t.tables, USERS.farmer1);
  kmet2 = await farmerRows(server.t.app, server.t.tables, USERS.farmer2);
});
afterEach(settleStores);
afterAll(async () => {
  await server.t.close();
});

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/** Ids of a table's live rows straight from the database (the demo has more farmers than the two who sign in). */
async function liveIds(table: 'farmers' | 'forms' | 'indicators'): Promise<number[]> {
  const rows = await server.t.app.db
    .selectFrom('records')
    .select('id')
    .where('table_id', '=', server.config.tables[table].id)
    .where('deleted', '=', 0)
    .where('archived', '=', 0)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

describe('all farmers against the real server', () => {
  it.each([USERS.editor, USERS.reader])('%s loads every farmer’s rows, then the same offline from the device', async (email) => {
    const db = openTestDb();
    const store = server.storeFor(db, email);
    const online = await loadAllFarmers(store.dispatch, db, server.config, true);
    expect(online.fromDevice).toBe(false);
    const forms = await liveIds('forms');
    expect(forms).toEqual(expect.arrayContaining([...kmet1.forms, ...kmet2.forms]));
    expect(sorted(online.data.forms.map((f) => f.id))).toEqual(forms);
    expect(sorted(online.data.indicators.map((i) => i.id))).toEqual(await liveIds('indicators'));
    const rows = buildAllFarmersResults(server.config, online.data, online.data, () => '');
    const farmers = new Set(rows.map((r) => r.farmerId));
    expect(farmers.has(kmet1.farmer) && farmers.has(kmet2.farmer)).toBe(true);
    expect(rows.map((r) => r.formId)).toEqual(expect.arrayContaining([...kmet1.forms, ...kmet2.forms]));

    const asked = server.requests.length;
    const offline = await loadAllFarmers(store.dispatch, db, server.config, false);
    expect(server.requests.length).toBe(asked);
    expect(offline.fromDevice).toBe(true);
    expect(sorted(offline.data.forms.map((f) => f.id))).toEqual(sorted(online.data.forms.map((f) => f.id)));
  });

  it("shows the device's copy before the server answers once an online read brought it whole, not before", async () => {
    const db = openTestDb();
    const store = server.storeFor(db, USERS.editor);
    const firstShown: unknown[] = [];
    const first = await loadAllFarmers(store.dispatch, db, server.config, true, (data) => firstShown.push(data));
    expect(firstShown).toEqual([]);

    // The server's answers held: the device's copy comes first, the same rows.
    const { release, asked } = holdSearchAnswers(server);
    try {
      const shown: Array<{ forms: Array<{ id: number }> }> = [];
      const second = loadAllFarmers(store.dispatch, db, server.config, true, (data) => shown.push(data));
      await asked;
      expect(shown).toHaveLength(1);
      expect(sorted(shown[0]!.forms.map((f) => f.id))).toEqual(sorted(first.data.forms.map((f) => f.id)));
      release();
      const answered = await second;
      expect(answered.fromDevice).toBe(false);
      expect(sorted(answered.data.forms.map((f) => f.id))).toEqual(sorted(first.data.forms.map((f) => f.id)));
    } finally {
      server.holdAnswer = () => undefined;
      release();
    }
  });

  it('reads every page by totalCount (small pages against the real server)', async () => {
    const store = server.storeFor(openTestDb(), USERS.editor);
    const all = await liveIds('indicators');
    const perPage = 7;
    const result = await searchAllRecords(store.dispatch, server.config.projectId, { tableId: server.config.tables.indicators.id }, perPage);
    expect(result.pages).toBe(Math.ceil(all.length / perPage));
    expect(result.pages).toBeGreaterThan(1);
    expect(sorted(result.records!.map((r) => r.id))).toEqual(sorted(all));
  });

  it('a farmer’s whole-table search is scoped to their own rows by the server', async () => {
    const store = server.storeFor(openTestDb(), USERS.farmer1);
    const result = await searchAllRecords(store.dispatch, server.config.projectId, { tableId: server.config.tables.forms.id });
    expect(sorted(result.records!.map((r) => r.id))).toEqual(sorted(kmet1.forms));
  });

  it('form histories for the export, six at a time, with progress', async () => {
    const store = server.storeFor(openTestDb(), USERS.editor);
    const forms = [...kmet1.forms, ...kmet2.forms].map((formId) => ({ formId, updatedAt: 'x' }));
    expect(forms.length).toBeGreaterThan(6);
    const progress: number[] = [];
    const cache = new Map<string, string>();
    const texts = await fetchFormHistories(store.dispatch, server.config, forms, { cache, onProgress: (done) => progress.push(done) });
    expect([...texts.keys()].sort((a, b) => a - b)).toEqual(sorted(forms.map((f) => f.formId)));
    expect(progress.at(-1)).toBe(forms.length);
    expect(cache.size).toBe(forms.length);
    const asked = server.requests.length;
    // The same forms unchanged: from the cache, nothing asked again.
    expect(await fetchFormHistories(store.dispatch, server.config, forms, { cache })).toEqual(texts);
    expect(server.requests.length).toBe(asked);
  });

  it('an archived form leaves the results and the device copy', async () => {
    const db = openTestDb();
    const store = server.storeFor(db, USERS.editor);
    await loadAllFarmers(store.dispatch, db, server.config, true);
    const archived = kmet2.forms[0]!;
    await whileArchived(server, 'forms', archived, async () => {
      const again = await loadAllFarmers(store.dispatch, db, server.config, true);
      expect(again.data.forms.map((f) => f.id)).not.toContain(archived);
      expect(buildAllFarmersResults(server.config, again.data, again.data, () => '').map((r) => r.formId)).not.toContain(archived);
      const offline = await loadAllFarmers(store.dispatch, db, server.config, false);
      expect(offline.data.forms.map((f) => f.id)).not.toContain(archived);
    });
  });
});
