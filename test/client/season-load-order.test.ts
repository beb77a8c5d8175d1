/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * When the season loader asks the server, against the real server (demo project): at once, while
 * the offline database is still answering (on a phone, opening it on a first visit takes as long
 * as a round trip); on a visit the installed app serves, only once the device copy is shown (the
 * answers' work would hold up the device copy on the phone's one busy thread).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { loadSeason } from '../../src/client/features/season';
import { USERS } from '../server/helpers/build-test-app';
import { openTestDb, settleStores, until } from './data-layer/helpers';
import { startRealServer, type RealServer } from './data-layer/real-server';

// A budget for a loaded shared machine (real IndexedDB emulation, a real server); nothing here asserts time.
jest.setTimeout(30_000);

let server: RealServer;
const JUNE_2025 = Date.parse('2025-06-15T10:00:00');

beforeAll(async () => {
  server = await startRealServer();
});
afterEach(settleStores);
afterAll(async () => {
  await server.t.close();
});

describe('season loading order', () => {
  it('asks the server while the device read is still waiting', async () => {
    const db = openTestDb();
    let now = JUNE_2025;
    const store = server.storeFor(db, USERS.farmer1, { now: () => now });
    await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();

    // The device's first read (this user's roles) does not answer until released.
    let releaseDevice!: () => void;
    const deviceHeld = new Promise<void>((resolve) => (releaseDevice = resolve));
    const readMeta = db.meta.get.bind(db.meta);
    db.meta.get = ((key: string) => deviceHeld.then(() => readMeta(key))) as typeof db.meta.get;
    const before = server.requests.length;
    now = JUNE_2025 + 60_000;
    const loading = store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config }));
    try {
      // Roles, the farmer's own record and the durations: asked before the device has answered.
      await until(() => server.requests.length - before >= 3, 'three reads in flight while the device read waits');
      expect(store.getState().season.loadedAt).toBe(new Date(JUNE_2025).toISOString());
    } finally {
      releaseDevice();
    }
    const loaded = await loading.unwrap();
    db.meta.get = readMeta;
    expect(loaded.source).toBe('server');
    expect(store.getState().season.loadedAt).toBe(new Date(now).toISOString());
  });

  it('on a visit the installed app serves, shows the device copy before it asks the server', async () => {
    const db = openTestDb();
    let now = JUNE_2025;
    const first = server.storeFor(db, USERS.farmer1, { now: () => now });
    const firstLoad = await first.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    expect(firstLoad.paths.length).toBeGreaterThan(0);

    now = JUNE_2025 + 60_000;
    const store = server.storeFor(db, USERS.farmer1, { now: () => now, installedVisit: true });
    const before = server.requests.length;
    // The requests sent by the time each season state was shown.
    const shown: Array<{ paths: number; source: string | null; requests: number }> = [];
    let last = store.getState().season;
    const unsubscribe = store.subscribe(() => {
      const season = store.getState().season;
      if (season.loadedAt !== last.loadedAt || season.source !== last.source) {
        shown.push({ paths: season.paths.length, source: season.source, requests: server.requests.length - before });
      }
      last = season;
    });
    const loaded = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    unsubscribe();

    expect(loaded.source).toBe('server');
    expect(shown[0]).toEqual({ paths: firstLoad.paths.length, source: null, requests: 0 });
    expect(shown.at(-1)!.source).toBe('server');
    expect(server.requests.length - before).toBeGreaterThan(0);

    // With a season on screen, a reload asks at once again (the device copy only refreshes it).
    let releaseDevice!: () => void;
    const deviceHeld = new Promise<void>((resolve) => (releaseDevice = resolve));
    const readMeta = db.meta.get.bind(db.meta);
    db.meta.get = ((key: string) => deviceHeld.then(() => readMeta(key))) as typeof db.meta.get;
    const beforeReload = server.requests.length;
    const reloading = store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config }));
    try {
      await until(() => server.requests.length - beforeReload >= 3, 'three reads in flight while the device read waits');
    } finally {
      releaseDevice();
    }
    await reloading.unwrap();
    db.meta.get = readMeta;
  });
});
