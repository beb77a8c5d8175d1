import { describe, expect, it } from '@jest/globals';
import { onePathRows, recordsToMapItems } from '../../../src/client/features/map/map-items-from-records';
import type { StoredRecord } from '../../../src/client/lib/db/database';
import { distanceM } from '../../../src/client/lib/map/geo';
import { circlePolygon, extentOf, filterByFarmer, labelPoint, toFeatureCollection } from '../../../src/client/lib/map/map-items';

const row = (id: number, properties: Record<string, unknown>, geometry: StoredRecord['geometry']): StoredRecord => ({
  id,
  tableId: 1,
  properties,
  geometry,
  deleted: false,
  archived: false,
  createdAt: '',
  updatedAt: '',
  version: 1,
});

const square = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [16.2, 46.8],
      [16.21, 46.8],
      [16.21, 46.81],
      [16.2, 46.81],
      [16.2, 46.8],
    ],
  ],
};
const line = {
  type: 'LineString' as const,
  coordinates: [
    [16.201, 46.801],
    [16.205, 46.805],
    [16.209, 46.802],
  ],
};
const tables = {
  areas: { id: 2, columns: { name: 21, user: 22, gerk_pid: 23, area_ha: 24 } },
  paths: { id: 3, columns: { name: 31, parent: 32, length_m: 33, walk: 34 } },
};

describe('map items', () => {
  const items = recordsToMapItems(
    {
      areas: [row(10, { '21': 'Travnik pri hiši', '22': 100 }, square), row(11, { '21': 'Sosedov', '22': 101 }, square)],
      paths: [row(20, { '31': 'Pot A', '32': 10 }, line), row(21, { '31': 'Pot B', '32': 11 }, null)],
      indicators: [row(30, {}, { type: 'Point', coordinates: [16.203, 46.803] }), row(31, {}, null)],
      indicatorName: () => 'Navadna marjetica',
      selectedPathId: 20,
    },
    tables,
  );

  it('maps records through config column ids, inheriting the farmer from the area', () => {
    expect(items.map((i) => [i.kind, i.id, i.name, i.farmerId ?? null])).toEqual([
      ['area', 10, 'Travnik pri hiši', 100],
      ['area', 11, 'Sosedov', 101],
      ['path', 20, 'Pot A', 100],
      ['path', 21, 'Pot B', 101],
      ['indicator', 30, 'Navadna marjetica', null],
    ]);
    expect(items.find((i) => i.id === 20)?.selected).toBe(true);
  });

  it('a map of one path shows it on its meadow; every row while the path is not there', () => {
    const areas = [row(10, { '22': 100 }, square), row(11, { '22': 101 }, square)];
    const paths = [row(20, { '32': 10 }, line), row(21, { '32': 11 }, line), row(22, { '32': 99 }, line)];
    const ids = (rows: ReturnType<typeof onePathRows>) => [rows.areas.map((a) => a.id), rows.paths.map((p) => p.id), rows.selectedPathId];
    expect(ids(onePathRows({ areas, paths }, tables, 21))).toEqual([[11], [21], 21]);
    // The path's meadow is not among the rows: every meadow, the one path.
    expect(ids(onePathRows({ areas, paths }, tables, 22))).toEqual([[10, 11], [22], 22]);
    expect(ids(onePathRows({ areas, paths }, tables, 5))).toEqual([[10, 11], [20, 21, 22], 5]);
  });

  it('filters by farmer for editors and readers (null = everyone)', () => {
    expect(filterByFarmer(items, null)).toHaveLength(5);
    expect(filterByFarmer(items, 101).map((i) => i.id)).toEqual([11, 21]);
  });

  it('builds per-kind feature collections, skipping rows without geometry', () => {
    const paths = toFeatureCollection(items, 'path');
    expect(paths.features).toHaveLength(1);
    expect(paths.features[0]?.properties).toEqual({ id: 20, kind: 'path', name: 'Pot A', farmerId: 100, selected: true });
  });

  it('places labels and bounds geometry', () => {
    expect(labelPoint(square, 'top')).toEqual([16.205, 46.81]);
    expect(labelPoint(line)).toEqual([16.205, 46.805]);
    expect(labelPoint(null)).toBeNull();
    expect(extentOf([square, line, null])).toEqual({ minX: 16.2, minY: 46.8, maxX: 16.21, maxY: 46.81 });
    expect(extentOf([])).toBeNull();
  });

  it('draws the accuracy halo at the right radius', () => {
    const ring = circlePolygon([16.2, 46.8], 25).coordinates[0]!;
    for (const p of ring) expect(distanceM([16.2, 46.8], [p[0]!, p[1]!])).toBeCloseTo(25, 0);
  });
});
