/**
 * Web Mercator (XYZ, "slippy map") tile arithmetic for the Download screen: which tiles cover an
 * extent over a zoom range, how many there are, and what they will weigh. Pure functions.
 */
import type { Extent } from '../../../common/schemas/wire';

export interface TileId {
  z: number;
  x: number;
  y: number;
}

/** Web Mercator is undefined at the poles; tiles stop at ±85.0511°. */
const MAX_MERCATOR_LAT = 85.0511287798066;

/** Highest zoom the Download screen offers (z18 ≈ 0.6 m/px: more than any orthophoto needs). */
export const MAX_DOWNLOAD_ZOOM = 18;

export function lonToTileX(lon: number, z: number): number {
  const n = 2 ** z;
  return Math.min(n - 1, Math.max(0, Math.floor(((lon + 180) / 360) * n)));
}

export function latToTileY(lat: number, z: number): number {
  const n = 2 ** z;
  const clamped = Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat));
  const rad = (clamped * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
  return Math.min(n - 1, Math.max(0, y));
}

/** Bounds of a tile in lon/lat. */
export function tileBounds({ z, x, y }: TileId): Extent {
  const n = 2 ** z;
  const lon = (tx: number) => (tx / n) * 360 - 180;
  const lat = (ty: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * ty) / n))) * 180) / Math.PI;
  return { minX: lon(x), maxX: lon(x + 1), minY: lat(y + 1), maxY: lat(y) };
}

/** Tile index range covering the extent at zoom z (inclusive). */
function tileRange(extent: Extent, z: number): { minX: number; maxX: number; minY: number; maxY: number } {
  return {
    minX: lonToTileX(extent.minX, z),
    maxX: lonToTileX(extent.maxX, z),
    // y grows southwards: the north edge gives the smallest y.
    minY: latToTileY(extent.maxY, z),
    maxY: latToTileY(extent.minY, z),
  };
}

export function isValidExtent(extent: Extent): boolean {
  const { minX, minY, maxX, maxY } = extent;
  return [minX, minY, maxX, maxY].every(Number.isFinite) && minX < maxX && minY < maxY && minX >= -180 && maxX <= 180 && minY >= -90 && maxY <= 90;
}

export function isValidZoomRange(minZoom: number, maxZoom: number): boolean {
  return Number.isInteger(minZoom) && Number.isInteger(maxZoom) && minZoom >= 0 && minZoom <= maxZoom && maxZoom <= MAX_DOWNLOAD_ZOOM;
}

/** Number of tiles covering the extent over minZoom..maxZoom, computed without enumerating them. */
export function countTiles(extent: Extent, minZoom: number, maxZoom: number): number {
  let total = 0;
  for (let z = minZoom; z <= maxZoom; z += 1) {
    const r = tileRange(extent, z);
    total += (r.maxX - r.minX + 1) * (r.maxY - r.minY + 1);
  }
  return total;
}

/** Every tile covering the extent over the zoom range, low zooms first (a generator: z18 of a county is millions). */
export function* enumerateTiles(extent: Extent, minZoom: number, maxZoom: number): Generator<TileId> {
  for (let z = minZoom; z <= maxZoom; z += 1) {
    const r = tileRange(extent, z);
    for (let x = r.minX; x <= r.maxX; x += 1) for (let y = r.minY; y <= r.maxY; y += 1) yield { z, x, y };
  }
}

/** Fill a {z}/{x}/{y} URL template. */
export function tileUrl(template: string, { z, x, y }: TileId): string {
  return template.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y));
}

/**
 * Average bytes per tile used for the estimate before anything is downloaded. Our own vector base
 * map tiles are tiny (mostly empty land: ~0.1–2 kB); orthophoto JPEG tiles run 15–40 kB. When the
 * base map says what it serves (config basemaps[].tileBytes) that figure wins.
 */
export const DEFAULT_TILE_BYTES = { vector: 2_048, raster: 25_600 } as const;

/** Size estimate (bytes) for a tile count at an average tile size. */
export function estimateBytes(tileCount: number, bytesPerTile: number): number {
  return Math.max(0, Math.round(tileCount * bytesPerTile));
}

/** Grow an extent by a buffer in metres on every side (for "my areas with a buffer"). */
export function bufferExtent(extent: Extent, metres: number): Extent {
  const dLat = metres / 111_320;
  const midLat = ((extent.minY + extent.maxY) / 2) * (Math.PI / 180);
  const dLon = metres / (111_320 * Math.max(0.01, Math.cos(midLat)));
  return {
    minX: Math.max(-180, extent.minX - dLon),
    minY: Math.max(-90, extent.minY - dLat),
    maxX: Math.min(180, extent.maxX + dLon),
    maxY: Math.min(90, extent.maxY + dLat),
  };
}
