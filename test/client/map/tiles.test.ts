import { describe, expect, it } from '@jest/globals';
import {
  bufferExtent,
  countTiles,
  enumerateTiles,
  estimateBytes,
  isValidExtent,
  isValidZoomRange,
  latToTileY,
  lonToTileX,
  tileBounds,
  tileUrl,
} from '../../../src/client/lib/map/tiles';

const goricko = { minX: 16.1, minY: 46.75, maxX: 16.3, maxY: 46.85 };

describe('tile arithmetic', () => {
  it('maps lon/lat to XYZ tiles (known values)', () => {
    expect(lonToTileX(0, 1)).toBe(1);
    expect(latToTileY(0.0001, 1)).toBe(0);
    // Ljubljana (14.5058E 46.0569N) at z10: x = 553.25, y = 364.47 by the slippy-map formula.
    expect(lonToTileX(14.5058, 10)).toBe(553);
    expect(latToTileY(46.0569, 10)).toBe(364);
    expect(lonToTileX(180, 3)).toBe(7);
    expect(latToTileY(-89, 3)).toBe(7);
  });

  it('tile bounds contain the point that produced the tile', () => {
    const z = 14;
    const t = { z, x: lonToTileX(16.2, z), y: latToTileY(46.8, z) };
    const b = tileBounds(t);
    expect(b.minX).toBeLessThanOrEqual(16.2);
    expect(b.maxX).toBeGreaterThan(16.2);
    expect(b.minY).toBeLessThanOrEqual(46.8);
    expect(b.maxY).toBeGreaterThan(46.8);
  });

  it('counts exactly the tiles it enumerates, without duplicates, low zooms first', () => {
    const tiles = [...enumerateTiles(goricko, 8, 14)];
    expect(tiles).toHaveLength(countTiles(goricko, 8, 14));
    expect(new Set(tiles.map((t) => `${t.z}/${t.x}/${t.y}`)).size).toBe(tiles.length);
    expect(tiles[0]!.z).toBe(8);
    expect(tiles[tiles.length - 1]!.z).toBe(14);
    // One z0 tile covers the world; a tiny extent is one tile per zoom.
    expect(countTiles({ minX: -180, minY: -85, maxX: 180, maxY: 85 }, 0, 0)).toBe(1);
    expect(countTiles({ minX: 16.2, minY: 46.8, maxX: 16.2001, maxY: 46.8001 }, 0, 5)).toBe(6);
  });

  it('grows roughly fourfold per zoom level', () => {
    const at16 = countTiles(goricko, 16, 16);
    const at17 = countTiles(goricko, 17, 17);
    expect(at17 / at16).toBeGreaterThan(3.5);
    expect(at17 / at16).toBeLessThan(4.5);
  });

  it('estimates size and validates input', () => {
    expect(estimateBytes(100, 2048)).toBe(204_800);
    expect(estimateBytes(-1, 2048)).toBe(0);
    expect(isValidExtent(goricko)).toBe(true);
    expect(isValidExtent({ minX: 16.3, minY: 46.75, maxX: 16.1, maxY: 46.85 })).toBe(false);
    expect(isValidExtent({ minX: NaN, minY: 0, maxX: 1, maxY: 1 })).toBe(false);
    expect(isValidZoomRange(10, 16)).toBe(true);
    expect(isValidZoomRange(16, 10)).toBe(false);
    expect(isValidZoomRange(10, 25)).toBe(false);
    expect(tileUrl('/basemap/tiles/{z}/{x}/{y}.pbf', { z: 3, x: 4, y: 5 })).toBe('/basemap/tiles/3/4/5.pbf');
  });

  it('buffers an extent by metres', () => {
    const b = bufferExtent(goricko, 1000);
    expect(goricko.minY - b.minY).toBeCloseTo(1000 / 111_320, 6);
    expect(b.maxX - goricko.maxX).toBeGreaterThan(1000 / 111_320);
  });
});
