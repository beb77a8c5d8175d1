/**
 * Stores an extent for offline use (docs/architecture.md, Maps, walks and downloads): the base map tiles over a zoom range, raster
 * tiles of raster base maps, and the project's features inside the extent. What it guarantees:
 * - every tile is written to Dexie as it arrives (baseMapTiles for vector base maps, rasters for
 *   raster ones), keyed by its absolute URL — the same key the map's offline protocol reads;
 * - resumable: a run skips tiles already stored, so after going offline, a cancel or a closed tab
 *   "continue" downloads only what is missing; the extent row always says how far it got;
 * - cancellable through an AbortSignal; a network failure stops the run as 'paused' (not failed),
 *   an HTTP error on a tile counts the tile as failed and goes on;
 * - the estimate before the run uses the same enumeration (countTiles) as the run.
 * A tile shared by two extents is stored once, under the extent that fetched it first; deleting
 * that extent removes it and "refresh" on the other fetches it again.
 */
import type { Feature } from 'geojson';
import type { BaseMapEntry } from '../../../common/basemap';
import type { Extent, WireFeature } from '../../../common/schemas/wire';
import { guardWrite, type ExtentRow, type OfflineDb } from '../../lib/db/database';
import { refreshRows } from '../../lib/db/local-data';
import { absoluteUrl } from '../../lib/map/urls';
import { countTiles, DEFAULT_TILE_BYTES, enumerateTiles, estimateBytes, tileUrl } from '../../lib/map/tiles';

/** More tiles than this in one extent is refused: at ~25 kB per orthophoto tile it is 0.5 GB. */
export const MAX_DOWNLOAD_TILES = 20_000;
const DOWNLOAD_CONCURRENCY = 4;

type ExtentStatus = 'downloading' | 'paused' | 'complete' | 'partial';

/** The extents row as this feature writes it (ExtentRow plus the download's bookkeeping). */
export interface DownloadExtent extends ExtentRow {
  id: number;
  bounds: Extent;
  minZoom: number;
  maxZoom: number;
  createdAt: string;
  updatedAt: string;
  status: ExtentStatus;
  tileCount: number;
  storedTiles: number;
  failedTiles: number;
  bytes: number;
  featureCount: number;
  tableIds: number[];
  projectId: number;
}

export interface TileJob {
  url: string;
  /** 0 = base map tile (baseMapTiles); > 0 = raster id (rasters). */
  rasterId: number;
}

/** The zoom range actually fetched for a base map (no tiles exist beyond its own limits). */
function zoomRangeFor(basemap: BaseMapEntry, minZoom: number, maxZoom: number): [number, number] | null {
  const lo = Math.max(minZoom, basemap.minZoom ?? 0);
  const hi = Math.min(maxZoom, basemap.maxZoom ?? maxZoom);
  return lo <= hi ? [lo, hi] : null;
}

function isRaster(basemap: BaseMapEntry): boolean {
  return basemap.kind === 'raster' || (!basemap.style && basemap.kind !== 'vector');
}

/** Tile count and size estimate for an extent over the base maps (before anything is fetched). */
export function planDownload(extent: Extent, minZoom: number, maxZoom: number, basemaps: readonly BaseMapEntry[]): { tiles: number; bytes: number } {
  let tiles = 0;
  let bytes = 0;
  for (const basemap of basemaps) {
    const range = zoomRangeFor(basemap, minZoom, maxZoom);
    const templates = basemap.tiles ?? [];
    if (!range || templates.length === 0) continue;
    const n = countTiles(extent, range[0], range[1]);
    tiles += n;
    bytes += estimateBytes(n, basemap.tileBytes ?? (isRaster(basemap) ? DEFAULT_TILE_BYTES.raster : DEFAULT_TILE_BYTES.vector));
  }
  return { tiles, bytes };
}

/** Every tile URL of the plan, absolute, with where it is stored. */
export function* tileJobs(extent: Extent, minZoom: number, maxZoom: number, basemaps: readonly BaseMapEntry[], base?: string): Generator<TileJob> {
  for (const [index, basemap] of basemaps.entries()) {
    const range = zoomRangeFor(basemap, minZoom, maxZoom);
    // One template is enough: a{s} mirrors serve the same tiles.
    const template = basemap.tiles?.[0];
    if (!range || !template) continue;
    const rasterId = isRaster(basemap) ? index + 1 : 0;
    for (const tile of enumerateTiles(extent, range[0], range[1])) yield { url: absoluteUrl(tileUrl(template, tile), base), rasterId };
  }
}

export interface DownloadProgress {
  done: number;
  total: number;
  stored: number;
  failed: number;
  bytes: number;
  phase: 'tiles' | 'features' | 'done';
}

export interface DownloadDeps {
  db: OfflineDb;
  fetchTile: (url: string, signal: AbortSignal) => Promise<Response>;
  /** GET /api/Features/{projectId}/extenttables through the app's api (auth headers). */
  fetchFeatures?: (extent: Extent, tableIds: number[]) => Promise<WireFeature[]>;
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
  now?: () => number;
  base?: string;
}

export interface NewExtentInput {
  name: string;
  bounds: Extent;
  minZoom: number;
  maxZoom: number;
  projectId: number;
  tableIds: number[];
}

export async function createExtent(db: OfflineDb, input: NewExtentInput, basemaps: readonly BaseMapEntry[], now = Date.now()): Promise<DownloadExtent> {
  const { tiles } = planDownload(input.bounds, input.minZoom, input.maxZoom, basemaps);
  const iso = new Date(now).toISOString();
  const row: Omit<DownloadExtent, 'id'> = {
    ...input,
    name: input.name.trim(),
    createdAt: iso,
    updatedAt: iso,
    status: 'paused',
    tileCount: tiles,
    storedTiles: 0,
    failedTiles: 0,
    bytes: 0,
    featureCount: 0,
  };
  const id = await guardWrite(db, () => db.extents.add(row as ExtentRow));
  return { ...row, id: id as number };
}

async function updateExtent(db: OfflineDb, id: number, changes: Partial<DownloadExtent>): Promise<void> {
  await guardWrite(db, () => db.extents.update(id, changes as Partial<ExtentRow>));
}

export class DownloadPaused extends Error {
  constructor(readonly reason: 'offline' | 'cancelled') {
    super(reason);
    this.name = 'DownloadPaused';
  }
}

/** Runs (or resumes) the download of an extent. Resolves with the final extent row. */
export async function runDownload(extent: DownloadExtent, basemaps: readonly BaseMapEntry[], deps: DownloadDeps): Promise<DownloadExtent> {
  const { db, signal } = deps;
  const now = deps.now ?? Date.now;
  const jobs = [...tileJobs(extent.bounds, extent.minZoom, extent.maxZoom, basemaps, deps.base)];
  const total = jobs.length;
  const progress: DownloadProgress = { done: 0, total, stored: 0, failed: 0, bytes: extent.bytes, phase: 'tiles' };
  await updateExtent(db, extent.id, { status: 'downloading', tileCount: total, updatedAt: new Date(now()).toISOString() });

  // Resume: what is already on the device for this extent needs no second fetch.
  const storedUrls = new Set<string>([
    ...((await db.baseMapTiles.where('extentId').equals(extent.id).primaryKeys()) as string[]),
    ...((await db.rasters.where('extentId').equals(extent.id).primaryKeys()) as string[]),
  ]);
  let offline = false;
  let next = 0;
  const report = () => deps.onProgress?.({ ...progress });

  const worker = async () => {
    while (next < jobs.length && !offline && !signal?.aborted) {
      const job = jobs[next++]!;
      if (storedUrls.has(job.url)) {
        progress.done += 1;
        progress.stored += 1;
        report();
        continue;
      }
      let response: Response;
      try {
        response = await deps.fetchTile(job.url, signal ?? new AbortController().signal);
      } catch (error) {
        if ((error as Error).name === 'AbortError' || signal?.aborted) return;
        offline = true; // network gone: stop, keep everything, resume later
        return;
      }
      if (!response.ok) {
        progress.failed += 1;
        progress.done += 1;
        report();
        continue;
      }
      const data = await response.arrayBuffer();
      const mimeType = response.headers.get('content-type') ?? undefined;
      await guardWrite(db, () =>
        job.rasterId === 0
          ? db.baseMapTiles.put({ url: job.url, extentId: extent.id, data, mimeType })
          : db.rasters.put({ url: job.url, extentId: extent.id, rasterId: job.rasterId, data, mimeType }),
      );
      progress.done += 1;
      progress.stored += 1;
      progress.bytes += data.byteLength;
      report();
    }
  };
  await Promise.all(Array.from({ length: DOWNLOAD_CONCURRENCY }, worker));

  const bookkeeping = { storedTiles: progress.stored, failedTiles: progress.failed, bytes: progress.bytes, updatedAt: new Date(now()).toISOString() };
  if (offline || signal?.aborted) {
    await updateExtent(db, extent.id, { ...bookkeeping, status: 'paused' });
    throw new DownloadPaused(signal?.aborted ? 'cancelled' : 'offline');
  }

  let featureCount = extent.featureCount;
  if (deps.fetchFeatures && extent.tableIds.length > 0) {
    progress.phase = 'features';
    report();
    let features: WireFeature[];
    try {
      features = await deps.fetchFeatures(extent.bounds, extent.tableIds);
    } catch {
      await updateExtent(db, extent.id, { ...bookkeeping, status: 'paused' });
      throw new DownloadPaused('offline');
    }
    featureCount = features.length;
    const byTable = new Map<number, WireFeature[]>();
    for (const f of features) byTable.set(f.tableId, [...(byTable.get(f.tableId) ?? []), f]);
    for (const [tableId, rows] of byTable) {
      await refreshRows(db, rows, { projectId: extent.projectId, tableId, isRecord: false });
    }
    // vectorTiles: which features (by table) belong to this extent, for the list and for delete.
    await guardWrite(db, () =>
      db.transaction('rw', db.vectorTiles, async () => {
        await db.vectorTiles.where('extentId').equals(extent.id).delete();
        for (const [tableId, rows] of byTable) {
          await db.vectorTiles.add({ extentId: extent.id, tableId, data: { type: 'FeatureCollection', features: rows as unknown as Feature[] } });
        }
      }),
    );
  }
  progress.phase = 'done';
  report();
  const final: Partial<DownloadExtent> = { ...bookkeeping, featureCount, status: progress.failed > 0 ? 'partial' : 'complete' };
  await updateExtent(db, extent.id, final);
  return { ...extent, ...final, tileCount: total } as DownloadExtent;
}

export async function listExtents(db: OfflineDb): Promise<DownloadExtent[]> {
  const rows = (await db.extents.toArray()) as DownloadExtent[];
  return rows.sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
}

/** Removes an extent and everything stored for it (features stay: they are the app's own copy). */
export async function deleteExtent(db: OfflineDb, id: number): Promise<void> {
  await guardWrite(db, () =>
    db.transaction('rw', [db.extents, db.baseMapTiles, db.rasters, db.vectorTiles], async () => {
      await db.baseMapTiles.where('extentId').equals(id).delete();
      await db.rasters.where('extentId').equals(id).delete();
      await db.vectorTiles.where('extentId').equals(id).delete();
      await db.extents.delete(id);
    }),
  );
}

/** "Refresh": fetch everything again (tiles may have changed on the server). */
export async function resetExtentTiles(db: OfflineDb, id: number): Promise<void> {
  await guardWrite(db, () =>
    db.transaction('rw', [db.extents, db.baseMapTiles, db.rasters], async () => {
      await db.baseMapTiles.where('extentId').equals(id).delete();
      await db.rasters.where('extentId').equals(id).delete();
      await db.extents.update(id, { status: 'paused', storedTiles: 0, failedTiles: 0, bytes: 0 } as Partial<ExtentRow>);
    }),
  );
}

/** The map's offline lookup: a stored tile by absolute URL (base map tiles, then rasters). */
export function storedTileLookup(db: OfflineDb): (url: string) => Promise<ArrayBuffer | undefined> {
  return async (url) => (await db.baseMapTiles.get(url))?.data ?? (await db.rasters.get(url))?.data;
}

/** Free space on the device as the browser reports it, or null where it cannot tell. */
export async function freeSpace(storage: StorageManager | undefined = globalThis.navigator?.storage): Promise<number | null> {
  if (!storage?.estimate) return null;
  try {
    const { quota, usage } = await storage.estimate();
    return quota === undefined ? null : Math.max(0, quota - (usage ?? 0));
  } catch {
    return null;
  }
}
