/**
 * Synthetic map items around Goričko (16.2E 46.8N) for the map preview and the bench: meadows
 * (polygons), a transect path on each, and indicator points. Deterministic (no Math.random).
 */
import type { MapItem } from '../../src/client/lib/map/map-items';

const M_LAT = 1 / 110_574;
const M_LON = 1 / 76_250;

export function demoItems(pathCount = 6, center: [number, number] = [16.2, 46.8]): MapItem[] {
  const items: MapItem[] = [];
  const perRow = Math.ceil(Math.sqrt(pathCount));
  for (let i = 0; i < pathCount; i += 1) {
    const row = Math.floor(i / perRow);
    const col = i % perRow;
    // Meadows 160 m × 110 m on a 220 m grid.
    const x0 = center[0] + (col - perRow / 2) * 220 * M_LON;
    const y0 = center[1] + (row - perRow / 2) * 150 * M_LAT;
    const w = 160 * M_LON;
    const h = 110 * M_LAT;
    const farmerId = 100 + (i % 2);
    const areaId = 1_000 + i;
    items.push({
      kind: 'area',
      id: areaId,
      name: `Travnik ${i + 1}`,
      farmerId,
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [x0, y0],
            [x0 + w, y0],
            [x0 + w, y0 + h],
            [x0, y0 + h],
            [x0, y0],
          ],
        ],
      },
    });
    const coordinates: [number, number][] = [];
    for (let k = 0; k <= 8; k += 1) coordinates.push([x0 + (w * (k + 0.5)) / 9.5, y0 + h * (0.3 + 0.35 * Math.sin(k / 1.6 + i))]);
    items.push({ kind: 'path', id: 2_000 + i, name: `Pot ${i + 1}`, farmerId, geometry: { type: 'LineString', coordinates } });
    if (i < 50) {
      items.push({ kind: 'indicator', id: 3_000 + i, name: 'Kukavičja lučca', farmerId, geometry: { type: 'Point', coordinates: coordinates[3]! } });
    }
  }
  return items;
}
