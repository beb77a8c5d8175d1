/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * When the season loader asks the server, against the real server (demo project): at once, while
 * the offline database is still answering (on a phone, opening it on a first visit takes as long
 * as a round trip).
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
});
