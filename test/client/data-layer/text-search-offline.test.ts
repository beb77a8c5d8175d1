/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The text search (GET …/search/{profileId}/{limit}/{page}/{query}) when the server cannot be
 * reached: every device row carries the search profile it was stored under, set by each writer
 * (reads, downloads, edits saved offline; acknowledgements keep it), and the device answers the
 * call's shape from the rows of the profile. Against the real server, the device finds what the
 * server finds.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { configLoaded } from '../../../src/client/lib/config';
import { recordsApi } from '../../../src/client/lib/api';
import { searchAllRecords } from '../../../src/client/lib/api/search-all';
import { acknowledge, deviceRow, readOutbox, refreshRows, saveEdit, tableRows, type OfflineDb } from '../../../src/client/lib/db';
import type { WireRecord } from '../../../src/common/schemas/wire';
import { USERS } from '../../server/helpers/build-test-app';
import { makeTestStore, openTestDb, response, settleStores, testConfig } from './helpers';
import { startRealServer, type RealServer } from './real-server';

const FARMERS = testConfig.tables.farmers.id;
const AREAS = testConfig.tables.areas.id;
const PROFILE = testConfig.searchProfileId;
const now = '2026-05-01T08:00:00.000Z';

function wire(id: number, tableId: number, properties: Record<string, unknown>, extra: Partial<WireRecord> = {}): WireRecord {
  return { id, tableId, properties, geometry: null, deleted: false, archived: false, createdAt: now, updatedAt: now, version: 1, ...extra };
}

const farmers = [
  wire(10_000_001, FARMERS, { '11': 'Ana Kovač', '12': 'kmet1@example.si', '14': '100200300' }),
  wire(10_000_002, FARMERS, { '11': 'Štefan Horvat', '12': 'kmet2@example.si' }),
  wire(10_000_003, FARMERS, { '11': 'Ana Novak', '12': 'ana.novak@example.si' }, { archived: true }),
  wire(10_000_004, FARMERS, { '11': 'Anamarija Zver', '12': 'kmet4@example.si' }),
];

/** A store over `db` whose server answers every call with `answer` (a thrown error: no answer), with the config loaded. */
function storeWith(db: OfflineDb, answer: () => Response | Promise<Response>) {
  const calls: string[] = [];
  const store = makeTestStore(db, async (input) => {
    calls.push(String(input));
    return answer();
  });
  store.dispatch(configLoaded({ config: testConfig, source: 'network' }));
  return { store, calls };
}

const unreachable = () => {
  throw new TypeError('Failed to fetch');
};

function search(
  store: ReturnType<typeof makeTestStore>,
  args: { query: string; limit?: number; page?: number; tableIds?: number[]; offline?: boolean; profileId?: number },
) {
  return store.dispatch(
    recordsApi.endpoints.textSearchRecords.initiate(
      {
        projectId: testConfig.projectId,
        profileId: args.profileId ?? PROFILE,
        limit: args.limit ?? 10,
        page: args.page ?? 1,
        query: args.query,
        tableIds: args.tableIds,
        offline: args.offline,
      },
      { subscribe: false, forceRefetch: true },
    ),
  );
}

const idsOf = (page: { records: Array<{ id: number }> } | undefined) => page?.records.map((record) => record.id);

afterEach(settleStores);

describe('rows carry the search profile they were stored under', () => {
  it("reads, edits saved offline and their acknowledgement store the config's profile; a config with another profile stores the next rows under it", async () => {
    const db = openTestDb();
    storeWith(db, unreachable);
    expect(db.searchProfileId).toBe(PROFILE);
    await refreshRows(db, farmers, { projectId: testConfig.projectId, tableId: FARMERS });
    const added = await saveEdit(db, { kind: 'insert', projectId: testConfig.projectId, tableId: FARMERS, properties: { '11': 'Marko Zelenko' } });
    await saveEdit(db, { kind: 'update', projectId: testConfig.projectId, tableId: FARMERS, id: farmers[0]!.id, properties: { '13': '041 111 222' } });
    expect((await tableRows(db, FARMERS).toArray()).map((row) => row.profileId)).toEqual([PROFILE, PROFILE, PROFILE, PROFILE, PROFILE]);
    expect((await readOutbox(db)).map((item) => [item.kind, item.profileId])).toEqual([
      ['insert', PROFILE],
      ['update', PROFILE],
    ]);

    // The server's copy replaces the inserted row: the row keeps its profile.
    const [insert, update] = await readOutbox(db);
    await acknowledge(db, [
      { item: insert!, id: 10_000_050, record: wire(10_000_050, FARMERS, { '11': 'Marko Zelenko' }) },
      { item: update!, id: farmers[0]!.id, record: wire(farmers[0]!.id, FARMERS, { ...farmers[0]!.properties, '13': '041 111 222' }, { version: 2 }) },
    ]);
    expect((await deviceRow(db, FARMERS, 10_000_050))?.profileId).toBe(PROFILE);
    expect((await deviceRow(db, FARMERS, 10_000_050))?.featureId).toBe(added.id);
    expect((await deviceRow(db, FARMERS, farmers[0]!.id))?.profileId).toBe(PROFILE);

    // Another config: rows stored from now on are stored under its profile.
    const next = makeTestStore(db, unreachable);
    next.dispatch(configLoaded({ config: { ...testConfig, searchProfileId: 9 }, source: 'network' }));
    await refreshRows(db, [wire(10_000_060, AREAS, { '21': 'Travnik pod Kuzmo' })], { projectId: testConfig.projectId, tableId: AREAS });
    expect((await deviceRow(db, AREAS, 10_000_060))?.profileId).toBe(9);
  });
});

describe('the device answers the text search when the server cannot be reached', () => {
  async function deviceWithFarmers() {
    const db = openTestDb();
    const made = storeWith(db, unreachable);
    await refreshRows(db, farmers, { projectId: testConfig.projectId, tableId: FARMERS });
    return { db, ...made };
  }

  it('finds every word as a prefix, ignoring case and accents, archived rows included, by id, a page at a time with the total', async () => {
    const { store, calls } = await deviceWithFarmers();
    expect(idsOf((await search(store, { query: 'stef HOR', tableIds: [FARMERS] })).data)).toEqual([farmers[1]!.id]);
    expect(idsOf((await search(store, { query: 'kovac', tableIds: [FARMERS] })).data)).toEqual([farmers[0]!.id]);
    // A query word matches the start of a word only: "mar" is inside "Anamarija" and finds nothing; "ana" begins three names (one archived).
    expect(idsOf((await search(store, { query: 'mar', tableIds: [FARMERS] })).data)).toEqual([]);
    expect((await search(store, { query: 'ana', tableIds: [FARMERS] })).data).toEqual({ records: [farmers[0], farmers[2], farmers[3]], totalCount: 3 });
    // E-mails and numbers split into words as the server's index splits them.
    expect(idsOf((await search(store, { query: 'example', limit: 2, page: 2 })).data)).toEqual([farmers[2]!.id, farmers[3]!.id]);
    expect((await search(store, { query: 'example', limit: 3, page: 2 })).data).toEqual({ records: [farmers[3]], totalCount: 4 });
    expect(idsOf((await search(store, { query: '1002', tableIds: [FARMERS] })).data)).toEqual([farmers[0]!.id]);
    // Only the tables asked for; a query without words finds nothing.
    expect((await search(store, { query: 'ana', tableIds: [AREAS] })).data).toEqual({ records: [], totalCount: 0 });
    expect((await search(store, { query: '@ -' })).data).toEqual({ records: [], totalCount: 0 });
    // Every call was sent first: the device answered because no answer came.
    expect(calls).toHaveLength(9);
    expect(calls[0]).toBe(`http://server.test/api/Records/1/search/${PROFILE}/10/1/stef%20HOR?tableIds=${FARMERS}`);
  });

  it("answers with the device's own edits: a farmer added offline is found, a deleted one is not, nor rows of another profile or project", async () => {
    const { db, store } = await deviceWithFarmers();
    const added = await saveEdit(db, { kind: 'insert', projectId: testConfig.projectId, tableId: FARMERS, properties: { '11': 'Ana Zelenko' } });
    await saveEdit(db, { kind: 'delete', projectId: testConfig.projectId, tableId: FARMERS, id: farmers[3]!.id });
    await refreshRows(db, [wire(10_000_009, FARMERS, { '11': 'Ana Izbrisana' }, { deleted: true })], { projectId: testConfig.projectId, tableId: FARMERS });
    await db.features.bulkPut([
      {
        tableId: FARMERS,
        featureId: 10_000_010,
        projectId: testConfig.projectId,
        feature: wire(10_000_010, FARMERS, { '11': 'Ana Drugi Profil' }),
        isInsert: 0,
        isEdit: 0,
        isDelete: 0,
        isRecord: 1,
        profileId: PROFILE + 1,
      },
      {
        tableId: FARMERS,
        featureId: 10_000_011,
        projectId: testConfig.projectId + 1,
        feature: wire(10_000_011, FARMERS, { '11': 'Ana Drugi Projekt' }),
        isInsert: 0,
        isEdit: 0,
        isDelete: 0,
        isRecord: 1,
        profileId: PROFILE,
      },
    ]);
    expect(idsOf((await search(store, { query: 'ana', tableIds: [FARMERS] })).data)).toEqual([added.id, farmers[0]!.id, farmers[2]!.id]);
    expect(idsOf((await search(store, { query: 'ana', tableIds: [FARMERS], profileId: PROFILE + 1 })).data)).toEqual([10_000_010]);
  });

  it('answers from the device for a server error (5xx) and when the app knows it is offline (without asking), not for a refusal', async () => {
    const db = openTestDb();
    let status = 503;
    const { store, calls } = storeWith(db, () => response({ status, body: { status, message: 'x' } }));
    await refreshRows(db, farmers, { projectId: testConfig.projectId, tableId: FARMERS });
    expect(idsOf((await search(store, { query: 'kmet2' })).data)).toEqual([farmers[1]!.id]);
    status = 404;
    const refused = await search(store, { query: 'kmet2' });
    expect(refused.isError).toBe(true);
    expect(refused.error).toMatchObject({ status: 404, message: 'Not Found' });
    expect(calls).toHaveLength(2);
    expect(idsOf((await search(store, { query: 'kmet2', offline: true })).data)).toEqual([farmers[1]!.id]);
    expect(calls).toHaveLength(2);
    // What the route's schema refuses, the device refuses alike.
    const bad = await search(store, { query: 'kmet2', limit: 0, offline: true });
    expect(bad.error).toMatchObject({ status: 400, message: 'Bad Request', detail: expect.stringContaining('limit') });
  });
});

describe('against the real server', () => {
  let server: RealServer;

  // Building the server (migrations, the demo seed) is work, not a wait: it gets the budget every
  // real-server suite has (test/server's setup file, outbox-real-server.test.ts) instead of
  // jest's 5 s, which it passes on a machine whose two cores are busy with other suites.
  beforeAll(async () => {
    server = await startRealServer();
  }, 30_000);

  afterAll(async () => {
    await server.t.close();
  });

  it('the device finds what the server finds (farmers, meadows, paths), with the same totals and pages', async () => {
    const { config } = server;
    const db = openTestDb();
    const store = server.storeFor(db, USERS.editor);
    store.dispatch(configLoaded({ config, source: 'network' }));
    const tableIds = [config.tables.farmers.id, config.tables.areas.id, config.tables.paths.id];
    // The editor's copy of the three tables, stored as a season load stores it.
    for (const tableId of tableIds) {
      const result = await searchAllRecords(store.dispatch, config.projectId, { tableId });
      expect(result.records?.length).toBeGreaterThan(0);
      await refreshRows(db, result.records!, { projectId: config.projectId, tableId });
    }
    const ask = (query: string, offline: boolean, limit = 1000, page = 1) =>
      store.dispatch(
        recordsApi.endpoints.textSearchRecords.initiate(
          { projectId: config.projectId, profileId: config.searchProfileId, limit, page, query, tableIds, offline },
          { subscribe: false, forceRefetch: true },
        ),
      );
    const queries = ['travnik', 'TRAVNIK pod', 'senozet', 'Čepinci', 'stef', 'ana vogr', 'example', 'kmet1', 'janez novak', '2314', 'pri', 'nič takega'];
    let found = 0;
    for (const query of queries) {
      const online = await ask(query, false);
      const offline = await ask(query, true);
      expect(online.error).toBeUndefined();
      // The server ranks its hits (best first); the device lists them by id.
      expect({ query, ids: idsOf(offline.data) }).toEqual({ query, ids: idsOf(online.data)!.sort((a, b) => a - b) });
      expect(offline.data!.totalCount).toBe(online.data!.totalCount);
      expect(offline.data!.records).toEqual(online.data!.records.slice().sort((a, b) => a.id - b.id));
      found += online.data!.totalCount;
    }
    expect(found).toBeGreaterThan(20);
    // Pages: the same total, a page of the device's order.
    const all = (await ask('example', true)).data!;
    const second = (await ask('example', true, 2, 2)).data!;
    expect(second).toEqual({ records: all.records.slice(2, 4), totalCount: all.totalCount });
    expect((await ask('example', false, 2, 2)).data!.totalCount).toBe(all.totalCount);
  });
});
