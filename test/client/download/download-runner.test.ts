/**
 * @jest-environment node
 *
 * The Download screen's engine against the real base map server (Fastify on an ephemeral
 * loopback port, real vector tiles) and the real Dexie schema on fake-indexeddb.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';

// Real HTTP and IndexedDB round trips for a few hundred tiles; generous on a shared 2-core box.
jest.setTimeout(60_000);
import Fastify, { type FastifyInstance } from 'fastify';
import { OWN_BASEMAP, type BaseMapEntry } from '../../../src/common/basemap';
import type { WireFeature } from '../../../src/common/schemas/wire';
import {
  createExtent,
  deleteExtent,
  DownloadPaused,
  listExtents,
  planDownload,
  runDownload,
  storedTileLookup,
  tileJobs,
  type DownloadProgress,
} from '../../../src/client/features/download/download-runner';
import { deviceRow, openOfflineDb, type OfflineDb } from '../../../src/client/lib/db';
import { countTiles } from '../../../src/client/lib/map/tiles';
import { basemapRoutes } from '../../../src/server/routes/basemap/index';

let server: FastifyInstance;
let base: string;
beforeAll(async () => {
  server = Fastify();
  await server.register(basemapRoutes);
  base = `${await server.listen({ port: 0, host: '127.0.0.1' })}/`;
  // The server builds its tile index on the first request (a second or two on a busy machine).
  await fetch(`${base}basemap/tiles/0/0/0.pbf`);
}, 60_000);
afterAll(async () => {
  await server.close();
});

const dbs: OfflineDb[] = [];
function freshDb(): OfflineDb {
  const db = openOfflineDb({ name: `download-test-${dbs.length}-${Date.now()}` });
  dbs.push(db);
  return db;
}
afterEach(async () => {
  for (const db of dbs.splice(0)) {
    db.close();
    await db.delete();
  }
});

// Goričko, about 15 × 11 km.
const goricko = { minX: 16.05, minY: 46.75, maxX: 16.25, maxY: 46.85 };
const orthophoto: BaseMapEntry = {
  id: 'dof',
  name: 'DOF',
  tiles: [`${'http://127.0.0.1:1'}/dof/{z}/{x}/{y}.jpg`],
  kind: 'raster',
  minZoom: 8,
  maxZoom: 17,
  tileBytes: 30_000,
};
const input = { name: 'Domači travniki', bounds: goricko, minZoom: 8, maxZoom: 14, projectId: 1, tableIds: [] as number[] };
const realFetch = (url: string, signal: AbortSignal) => fetch(url, { signal });

describe('download planning', () => {
  it("counts tiles per base map within each base map's own zoom limits and estimates the size", () => {
    const own = planDownload(goricko, 8, 14, [OWN_BASEMAP]);
    // The own base map stops at z10: z11..z14 are over-zoomed by MapLibre, not stored.
    expect(own.tiles).toBe(countTiles(goricko, 8, 10));
    expect(own.bytes).toBe(own.tiles * OWN_BASEMAP.tileBytes!);
    const both = planDownload(goricko, 8, 14, [OWN_BASEMAP, orthophoto]);
    expect(both.tiles).toBe(own.tiles + countTiles(goricko, 8, 14));
    expect(both.bytes).toBe(own.bytes + countTiles(goricko, 8, 14) * 30_000);
    const jobs = [...tileJobs(goricko, 8, 14, [OWN_BASEMAP, orthophoto], 'http://app.example/')];
    expect(jobs).toHaveLength(both.tiles);
    expect(jobs[0]!.url).toMatch(/^http:\/\/app\.example\/basemap\/tiles\/8\/\d+\/\d+\.pbf$/);
    expect(jobs.filter((j) => j.rasterId === 2)).toHaveLength(countTiles(goricko, 8, 14));
  });
});

describe('download run', () => {
  it('stores every base map tile from the server, reports progress and finishes complete', async () => {
    const db = freshDb();
    const extent = await createExtent(db, input, [OWN_BASEMAP]);
    const seen: DownloadProgress[] = [];
    const done = await runDownload(extent, [OWN_BASEMAP], { db, fetchTile: realFetch, base, onProgress: (p) => seen.push(p) });
    const total = countTiles(goricko, 8, 10);
    expect(done.status).toBe('complete');
    expect(done.storedTiles).toBe(total);
    expect(await db.baseMapTiles.where('extentId').equals(extent.id).count()).toBe(total);
    expect(seen[seen.length - 1]).toMatchObject({ done: total, total, phase: 'done' });
    expect(done.bytes).toBeGreaterThan(0);
    // The map's offline lookup finds a stored tile by its absolute URL.
    const [first] = [...tileJobs(goricko, 8, 8, [OWN_BASEMAP], base)];
    const bytes = await storedTileLookup(db)(first!.url);
    expect(bytes?.byteLength).toBeGreaterThan(0);
    const [listed] = await listExtents(db);
    expect(listed).toMatchObject({ name: 'Domači travniki', status: 'complete', storedTiles: total, minZoom: 8, maxZoom: 14 });
  });

  it('going offline pauses the run; resuming fetches only the missing tiles', async () => {
    const db = freshDb();
    const extent = await createExtent(db, input, [OWN_BASEMAP]);
    let calls = 0;
    const flaky = (url: string, signal: AbortSignal) => {
      calls += 1;
      if (calls > 5) return Promise.reject(new TypeError('Failed to fetch'));
      return realFetch(url, signal);
    };
    await expect(runDownload(extent, [OWN_BASEMAP], { db, fetchTile: flaky, base })).rejects.toEqual(new DownloadPaused('offline'));
    const paused = (await listExtents(db))[0]!;
    expect(paused.status).toBe('paused');
    const storedBefore = await db.baseMapTiles.count();
    expect(storedBefore).toBe(5);
    expect(paused.storedTiles).toBe(5);

    let resumedCalls = 0;
    const counting = (url: string, signal: AbortSignal) => {
      resumedCalls += 1;
      return realFetch(url, signal);
    };
    const done = await runDownload(paused, [OWN_BASEMAP], { db, fetchTile: counting, base });
    const total = countTiles(goricko, 8, 10);
    expect(resumedCalls).toBe(total - storedBefore);
    expect(done.status).toBe('complete');
    expect(await db.baseMapTiles.count()).toBe(total);
  });

  it('can be cancelled, and keeps what it stored', async () => {
    const db = freshDb();
    const extent = await createExtent(db, input, [OWN_BASEMAP]);
    const controller = new AbortController();
    let calls = 0;
    const cancelling = (url: string, signal: AbortSignal) => {
      calls += 1;
      if (calls === 3) controller.abort();
      return realFetch(url, signal);
    };
    await expect(runDownload(extent, [OWN_BASEMAP], { db, fetchTile: cancelling, base, signal: controller.signal })).rejects.toEqual(
      new DownloadPaused('cancelled'),
    );
    expect((await listExtents(db))[0]!.status).toBe('paused');
  });

  it('counts tiles the server refuses as failed (partial), stores the project features inside the extent, and deletes cleanly', async () => {
    const db = freshDb();
    const missing: BaseMapEntry = { id: 'nothing', name: 'x', tiles: [`${base}no-such-layer/{z}/{x}/{y}.png`], kind: 'raster', minZoom: 8, maxZoom: 8 };
    const features: WireFeature[] = [
      {
        type: 'Feature',
        id: 10_000_001,
        tableId: 2,
        geometry: { type: 'Point', coordinates: [16.1, 46.8] },
        properties: { '21': 'Travnik' },
        deleted: false,
        archived: false,
        createdAt: '',
        updatedAt: '',
        version: 1,
      },
      {
        type: 'Feature',
        id: 10_000_002,
        tableId: 3,
        geometry: {
          type: 'LineString',
          coordinates: [
            [16.1, 46.8],
            [16.11, 46.81],
          ],
        },
        properties: {},
        deleted: false,
        archived: false,
        createdAt: '',
        updatedAt: '',
        version: 1,
      },
    ];
    const asked: Array<{ tableIds: number[] }> = [];
    const extent = await createExtent(db, { ...input, maxZoom: 8, tableIds: [2, 3] }, [OWN_BASEMAP, missing]);
    const done = await runDownload(extent, [OWN_BASEMAP, missing], {
      db,
      fetchTile: realFetch,
      base,
      fetchFeatures: async (_extent, tableIds) => {
        asked.push({ tableIds });
        return features;
      },
    });
    expect(done.status).toBe('partial');
    expect(done.failedTiles).toBe(countTiles(goricko, 8, 8));
    expect(done.featureCount).toBe(2);
    expect(asked).toEqual([{ tableIds: [2, 3] }]);
    expect(await deviceRow(db, 2, 10_000_001)).toMatchObject({ isRecord: 0, isInsert: 0 });
    expect(await db.vectorTiles.where('extentId').equals(extent.id).count()).toBe(2);

    await deleteExtent(db, extent.id);
    expect(await db.extents.count()).toBe(0);
    expect(await db.baseMapTiles.count()).toBe(0);
    expect(await db.vectorTiles.count()).toBe(0);
    // The features stay: they are the app's offline copy, not the download's property.
    expect(await db.features.count()).toBe(2);
  });
});
