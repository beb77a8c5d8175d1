/**
 * Season rows (areas, paths, indicators as lib/db StoredRecords) → MapItems, using the column ids
 * of config.json: an area's farmer is its `user` column; a path's farmer is its area's; an
 * indicator point's farmer is unknown here (screens pass the already-filtered farmer's rows).
 */
import type { StoredRecord } from '../../lib/db/database';
import type { MapItem } from '../../lib/map/map-items';
import type { TablesConfig } from '../../../common/schemas/config';

export interface MapRows {
  areas: readonly StoredRecord[];
  paths: readonly StoredRecord[];
  indicators?: readonly StoredRecord[];
  /** Indicator rows have no name: the screen may supply one (e.g. the plant's name) by id. */
  indicatorName?: (row: StoredRecord) => string;
  selectedPathId?: number | null;
}

export function recordsToMapItems(rows: MapRows, tables: Pick<TablesConfig, 'areas' | 'paths'>): MapItem[] {
  const areaName = String(tables.areas.columns.name);
  const areaUser = String(tables.areas.columns.user);
  const pathName = String(tables.paths.columns.name);
  const pathParent = String(tables.paths.columns.parent);
  const farmerOfArea = new Map<number, number | null>();
  const items: MapItem[] = [];
  for (const area of rows.areas) {
    const farmerId = typeof area.properties[areaUser] === 'number' ? (area.properties[areaUser] as number) : null;
    farmerOfArea.set(area.id, farmerId);
    items.push({ kind: 'area', id: area.id, name: String(area.properties[areaName] ?? ''), farmerId, geometry: area.geometry ?? null });
  }
  for (const path of rows.paths) {
    const parent = path.properties[pathParent];
    items.push({
      kind: 'path',
      id: path.id,
      name: String(path.properties[pathName] ?? ''),
      farmerId: typeof parent === 'number' ? (farmerOfArea.get(parent) ?? null) : null,
      geometry: path.geometry ?? null,
      selected: rows.selectedPathId === path.id,
    });
  }
  for (const indicator of rows.indicators ?? []) {
    if (!indicator.geometry) continue;
    items.push({ kind: 'indicator', id: indicator.id, name: rows.indicatorName?.(indicator) ?? '', geometry: indicator.geometry });
  }
  return items;
}
