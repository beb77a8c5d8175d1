/**
 * Map figures, one JSON line each through bench/run.ts:
 * - map.simplify_10k_points_ms   Douglas–Peucker (lib/map/simplify) on a noisy 10,000-point walk
 * - map.simplify_10k_naive_ms    the textbook baseline on the same walk: recursive, haversine
 *                                cross-track distance, arrays sliced per call
 * - map.tile_count_estimate_us   the Download screen's estimate (planDownload: tile count + size
 *                                over two base maps, Goričko z8–z18), median of many runs
 * - map.tile_download_per_s      tiles stored per second by the Download screen's code
 *                                (runDownload) from the local base map server (warm tile cache),
 *                                Dexie on fake-indexeddb (Node)
 * - map.tile_bulkput_per_s       raw Dexie bulkPut of the same tiles: the floor of the above
 * - map.render_10k_paths_ms      Chromium (SwiftShader WebGL): page start → map idle with 10,000
 *                                paths (+ their meadows); skipped when /usr/bin/chromium is missing
 * Simplify and estimate run in-process and are medians of repeated runs.
 */
import 'fake-indexeddb/auto';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { OWN_BASEMAP, type BaseMapEntry } from '../src/common/basemap';
import { createExtent, planDownload, runDownload, tileJobs } from '../src/client/features/download/download-runner';
import { openOfflineDb } from '../src/client/lib/db';
import { distanceM, type LonLat } from '../src/client/lib/map/geo';
import { simplifyLine } from '../src/client/lib/map/simplify';
import { basemapRoutes } from '../src/server/routes/basemap/index';
import { CHROMIUM_PATH } from '../scripts/chromium';
import { renderPaths, startMapHarness } from '../scripts/basemap/map-harness';

export interface MapBenchIo {
  want: (name: string) => boolean;
  emit: (name: string, value: number, unit?: string) => void;
  log: (message: string) => void;
}

function median(values: number[]): number {
  const s = values.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** A 10k-point walk: 1 fix/s at ~1.2 m/s, wandering, with ±3 m GPS noise (deterministic). */
function walk(n: number): LonLat[] {
  let seed = 42;
  const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31 - 0.5;
  const points: LonLat[] = [];
  let x = 0;
  let y = 0;
  let heading = 0;
  for (let i = 0; i < n; i += 1) {
    heading += rand() * 0.3;
    x += Math.cos(heading) * 1.2;
    y += Math.sin(heading) * 1.2;
    points.push([16.2 + (x + rand() * 6) / 76_250, 46.8 + (y + rand() * 6) / 110_574]);
  }
  return points;
}

/** The textbook recursive Douglas–Peucker with spherical cross-track distances. */
function naiveSimplify(points: LonLat[], toleranceM: number): LonLat[] {
  if (points.length <= 2) return points;
  const a = points[0]!;
  const b = points[points.length - 1]!;
  const ab = distanceM(a, b);
  let max = 0;
  let index = 0;
  for (let i = 1; i < points.length - 1; i += 1) {
    const p = points[i]!;
    // Heron: height of triangle a-b-p over base ab.
    const ap = distanceM(a, p);
    const bp = distanceM(b, p);
    const s = (ab + ap + bp) / 2;
    const area = Math.sqrt(Math.max(0, s * (s - ab) * (s - ap) * (s - bp)));
    const d = ab === 0 ? ap : (2 * area) / ab;
    if (d > max) {
      max = d;
      index = i;
    }
  }
  if (max <= toleranceM) return [a, b];
  const left = naiveSimplify(points.slice(0, index + 1), toleranceM);
  const right = naiveSimplify(points.slice(index), toleranceM);
  return [...left.slice(0, -1), ...right];
}

export async function mapFigures({ want, emit, log }: MapBenchIo): Promise<void> {
  const points = walk(10_000);
  if (want('map.simplify')) {
    log('map: simplify 10k points');
    const fast: number[] = [];
    const naive: number[] = [];
    let kept = 0;
    for (let run = 0; run < 15; run += 1) {
      let t = performance.now();
      kept = simplifyLine(points, 3).length;
      fast.push(performance.now() - t);
      t = performance.now();
      naiveSimplify(points, 3);
      naive.push(performance.now() - t);
    }
    log(`map: 10,000 → ${kept} vertices at 3 m`);
    emit('map.simplify_10k_points_ms', median(fast));
    emit('map.simplify_10k_naive_ms', median(naive));
  }

  const goricko = { minX: 16.0, minY: 46.7, maxX: 16.4, maxY: 46.9 };
  const orthophoto: BaseMapEntry = { id: 'dof', name: 'DOF', tiles: ['https://example.invalid/{z}/{x}/{y}.jpg'], kind: 'raster', maxZoom: 18 };
  if (want('map.tile_count_estimate_us')) {
    const times: number[] = [];
    for (let run = 0; run < 200; run += 1) {
      const t = performance.now();
      planDownload(goricko, 8, 18, [OWN_BASEMAP, orthophoto]);
      times.push(performance.now() - t);
    }
    emit('map.tile_count_estimate_us', median(times) * 1000, 'us');
  }

  if (want('map.tile_download_per_s') || want('map.tile_bulkput_per_s')) {
    const server = Fastify();
    await server.register(basemapRoutes);
    const base = `${await server.listen({ port: 0, host: '127.0.0.1' })}/`;
    try {
      await fetch(`${base}basemap/tiles/0/0/0.pbf`); // build the tile index outside the timing
      const db = openOfflineDb({ name: `bench-map-${Date.now()}` });
      const extentBounds = { minX: 15.0, minY: 45.8, maxX: 16.6, maxY: 46.9 };
      const extent = await createExtent(db, { name: 'bench', bounds: extentBounds, minZoom: 6, maxZoom: 10, projectId: 1, tableIds: [] }, [OWN_BASEMAP]);
      log(`map: downloading ${extent.tileCount} tiles from the local base map server`);
      // A first pass warms the server's tile cache (geojson-vt cuts each tile once per process);
      // the figure is the second pass, the Download screen's own cost plus serving.
      await runDownload(extent, [OWN_BASEMAP], { db, base, fetchTile: (url, signal) => fetch(url, { signal }) });
      await db.baseMapTiles.clear();
      let t = performance.now();
      const done = await runDownload(extent, [OWN_BASEMAP], { db, base, fetchTile: (url, signal) => fetch(url, { signal }) });
      const downloadMs = performance.now() - t;
      emit('map.tile_download_per_s', (done.storedTiles / downloadMs) * 1000, 'tiles/s');

      const rows = await db.baseMapTiles.toArray();
      await db.baseMapTiles.clear();
      t = performance.now();
      await db.baseMapTiles.bulkPut(rows);
      const putMs = performance.now() - t;
      emit('map.tile_bulkput_per_s', (rows.length / putMs) * 1000, 'tiles/s');
      log(`map: ${rows.length} tiles, ${[...tileJobs(extentBounds, 6, 10, [OWN_BASEMAP], base)].length} jobs`);
      db.close();
      await db.delete();
    } finally {
      await server.close();
    }
  }

  if (want('map.render_10k_paths_ms')) {
    if (!existsSync(CHROMIUM_PATH)) {
      log(`map: ${CHROMIUM_PATH} missing, map.render_10k_paths_ms skipped`);
    } else {
      log('map: rendering 10,000 paths in Chromium');
      const harness = await startMapHarness();
      try {
        emit('map.render_10k_paths_ms', await renderPaths(harness, 10_000));
      } finally {
        await harness.close();
      }
    }
  }
}
