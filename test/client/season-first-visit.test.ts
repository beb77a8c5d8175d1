/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * A farmer's first visit on a device, against the real server (demo project): the season is shown
 * from the server's answers before they are stored, then stored in one transaction begun before
 * the screen can take an edit, so an edit made on the season shown is written after the answers
 * (on the row with all its columns and its version) and reaches the server whole. With the
 * season, or an edit, already on the device the season is shown from the device as before.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { loadSeason, type SeasonData } from '../../src/client/features/season';
import { drainOnce, rtkQueryTransport } from '../../src/client/features/sync';
import { saveEdit } from '../../src/client/lib/db';
import { refKeysFor } from '../../src/client/lib/db/refs';
import { USERS } from '../server/helpers/build-test-app';
import { demoFormsAsDrafts } from '../server/helpers/demo-ids';
import { openTestDb, PROJECT_ID, settleStores } from './data-layer/helpers';
import { startRealServer, type RealServer } from './data-layer/real-server';

// A budget for a loaded shared machine (real IndexedDB emulation, a real server); nothing here asserts time.
jest.setTimeout(30_000);

let server: RealServer;
const JUNE_2025 = Date.parse('2025-06-15T10:00:00');
const LISTS = ['farmers', 'areas', 'paths', 'durationPaths', 'forms', 'indicators', 'comments'] as const;

beforeAll(async () => {
  server = await startRealServer();
  // The demo's 2025 forms are approved, so locked for their farmer; a test here changes an answer as the farmer.
  await demoFormsAsDrafts(server.t.app, server.t.tables);
});
afterEach(settleStores);
afterAll(async () => {
  await server.t.close();
});

const ids = (rows: Array<{ id: number }>) => rows.map((row) => row.id);

/** Every season the store showed, with how many device rows there were as it was shown (read in a transaction begun then). */
function watchShown(store: ReturnType<RealServer['storeFor']>, db: ReturnType<typeof openTestDb>) {
  const shown: Array<{ season: SeasonData; deviceRows: Promise<number> }> = [];
  // Each season loaded brings new row lists (the clock is fixed here, so loadedAt does not tell).
  let last = store.getState().season.paths;
  const unsubscribe = store.subscribe(() => {
    const season = store.getState().season;
    if (season.paths === last) return;
    last = season.paths;
    shown.push({ season, deviceRows: db.features.count() });
  });
  return { shown, unsubscribe };
}

describe('a first visit', () => {
  it('shows the season from the answers before they are stored, and the chain’s season read back from the device is the same', async () => {
    const db = openTestDb();
    const store = server.storeFor(db, USERS.farmer1, { now: () => JUNE_2025 });
    const { shown, unsubscribe } = watchShown(store, db);
    const before = server.requests.length;
    const loaded = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    unsubscribe();

    expect(shown).toHaveLength(2);
    const [fromAnswers, fromDevice] = shown;
    expect(await fromAnswers!.deviceRows).toBe(0);
    expect(fromAnswers!.season.source).toBe('server');
    expect(fromAnswers!.season.indicators.length).toBeGreaterThan(0);
    for (const list of LISTS) expect(ids(fromAnswers!.season[list])).toEqual(ids(loaded[list]));
    expect(fromAnswers!.season.duration?.id).toBe(loaded.duration?.id);
    expect(fromAnswers!.season.farmerId).toBe(loaded.farmerId);
    expect(await fromDevice!.deviceRows).toBeGreaterThan(loaded.indicators.length);
    // Each answer stored once: the chain took them from the device without asking again.
    expect(server.requests.slice(before).filter((request) => request.url.includes('/search'))).toHaveLength(8);
  });

  it('writes an edit made on the season shown after the answers, on the whole row, and delivers it with the row’s version', async () => {
    const db = openTestDb();
    const store = server.storeFor(db, USERS.farmer1, { now: () => JUNE_2025 });
    const { indicators } = server.config.tables;
    const value = String(indicators.columns.value);
    let edit: Promise<unknown> | null = null;
    let edited: SeasonData['indicators'][number] | undefined;
    const unsubscribe = store.subscribe(() => {
      const season = store.getState().season;
      if (edit || season.loadedAt === null) return;
      // A tap on the screen comes a task after the season was shown.
      edited = season.indicators.find((row) => typeof row.properties[value] === 'boolean');
      edit = new Promise((resolve) => setTimeout(resolve, 0)).then(() =>
        saveEdit(db, {
          kind: 'update',
          projectId: PROJECT_ID,
          tableId: indicators.id,
          id: edited!.id,
          properties: { [value]: !edited!.properties[value] },
          refs: refKeysFor(server.config, 'indicators'),
        }),
      );
    });
    const loaded = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    unsubscribe();
    await edit;

    const [row] = await db.features.where('[tableId+feature.id]').equals([indicators.id, edited!.id]).toArray();
    expect(row!.isEdit).toBe(1);
    expect(row!.feature.properties).toEqual({ ...edited!.properties, [value]: !edited!.properties[value] });
    expect(row!.feature.version).toBe(edited!.version);
    const [queued] = await db.outbox.toArray();
    expect(queued).toMatchObject({ kind: 'update', id: edited!.id, version: edited!.version });
    expect(loaded.indicators.some((shownRow) => shownRow.id === edited!.id)).toBe(true);

    expect(await drainOnce({ db, transport: rtkQueryTransport(store.dispatch) })).toMatchObject({ kind: 'done', sent: 1 });
    const reread = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    const onServer = reread.indicators.find((shownRow) => shownRow.id === edited!.id)!;
    expect(onServer.properties).toEqual({ ...edited!.properties, [value]: !edited!.properties[value] });
    expect(onServer.version).toBe(edited!.version + 1);
  });

  it('shows the device’s season, not the answers, when the device holds an edit of the user', async () => {
    const db = openTestDb();
    const setup = server.storeFor(db, USERS.farmer1, { now: () => JUNE_2025 });
    const before = await setup.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    const path = before.paths[0]!;
    const { paths } = server.config.tables;
    const name = String(paths.columns.name);
    await saveEdit(db, { kind: 'update', projectId: PROJECT_ID, tableId: paths.id, id: path.id, properties: { [name]: 'Pot ob potoku' } });
    // The device no longer counts as holding the user's season (its note of the roles is gone); the edit waits in the outbox.
    await db.meta.delete(`roles:${PROJECT_ID}:${USERS.farmer1}`);

    const store = server.storeFor(db, USERS.farmer1, { now: () => JUNE_2025 });
    const { shown, unsubscribe } = watchShown(store, db);
    await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    unsubscribe();
    expect(shown).toHaveLength(1);
    expect(shown[0]!.season.paths.find((row) => row.id === path.id)!.properties[name]).toBe('Pot ob potoku');
  });
});
