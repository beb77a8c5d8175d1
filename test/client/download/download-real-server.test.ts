/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The Download screen's engine against the whole real server (buildApp, demo project): base map
 * tiles from /basemap/…, and the project's features inside the extent through the app's RTK Query
 * call GET /api/Features/{projectId}/extenttables as a demo farmer — who gets only their own rows.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { OWN_BASEMAP } from '../../../src/common/basemap';
import { extentFeaturesFetcher } from '../../../src/client/features/download/download-deps';
import { createExtent, runDownload } from '../../../src/client/features/download/download-runner';
import { readRows } from '../../../src/client/lib/db';
import { USERS } from '../../server/helpers/build-test-app';
import { openTestDb, settleStores } from '../data-layer/helpers';
import { startRealServer, type RealServer } from '../data-layer/real-server';

jest.setTimeout(60_000);

let server: RealServer;
beforeAll(async () => {
  server = await startRealServer();
});
afterEach(settleStores);
afterAll(async () => {
  await server.t.close();
});

describe('download against the real server', () => {
  it("stores base map tiles and the farmer's own areas and paths inside the extent", async () => {
    const db = openTestDb();
    const store = server.storeFor(db, USERS.farmer1);
    const { config } = server;
    // Goričko, where the demo meadows lie (around 16.2E 46.8N).
    const bounds = { minX: 15.9, minY: 46.5, maxX: 16.6, maxY: 47.0 };
    const tableIds = [config.tables.areas.id, config.tables.paths.id];
    const extent = await createExtent(db, { name: 'Goričko', bounds, minZoom: 8, maxZoom: 10, projectId: config.projectId, tableIds }, [OWN_BASEMAP]);
    const done = await runDownload(extent, [OWN_BASEMAP], {
      db,
      base: `${server.t.origin}/`,
      fetchTile: (url, signal) => fetch(url, { signal }),
      fetchFeatures: extentFeaturesFetcher(store.dispatch, config.projectId),
    });
    expect(done.status).toBe('complete');
    expect(done.storedTiles).toBe(done.tileCount);
    expect(done.featureCount).toBeGreaterThan(0);

    const areas = await readRows(db, config.tables.areas.id);
    expect(areas.length).toBeGreaterThan(0);
    const userColumn = String(config.tables.areas.columns.user);
    // A farmer's download holds their own meadows only (the server filters by role).
    expect(new Set(areas.map((a) => a.properties[userColumn])).size).toBe(1);
    const paths = await readRows(db, config.tables.paths.id);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((p) => p.geometry?.type === 'LineString' || p.geometry?.type === 'MultiLineString')).toBe(true);
    expect(server.requests.some((r) => r.url.includes(`/api/Features/${config.projectId}/extenttables?`))).toBe(true);
    expect(await db.vectorTiles.where('extentId').equals(extent.id).count()).toBe(2);
  });
});
