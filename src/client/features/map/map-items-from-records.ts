/**
 * Season rows (areas, paths, indicators as lib/db StoredRecords) → MapItems, read through the typed
 * model (lib/db/model.ts) with the column ids of config.json: an area's farmer is its `user` column; a path's farmer is its area's; an
 * indicator point's farmer is unknown here (screens pass the already-filtered farmer's rows).
 */
import type { MultiLineString } from 'geojson';
import type { StoredRecord } from '../../lib/db/database';
import { readRow } from '../../lib/db/model';
import type { MapItem } from '../../lib/map/map-items';
import type { TablesConfig } from '../../../common/schemas/config';

export interface MapRows {
  areas: readonly StoredRecord[];
  paths: readonly StoredRecord[];
  indicators?: readonly StoredRecord[];
  /** Indicator rows have no name: the screen may supply one (e.g. the plant's name) by id. */
  indicatorName?: (row: StoredRecord) => string;
  selectedPathId?: number | null;
  /** A walk being recorded (the recorder's segments): drawn last as the selected path, id -1, once a segment has two points. */
  track?: readonly number[][][];
}

/**
 * The rows a map of one path shows: the path on its meadow (every meadow when the path's is not
 * among the rows); every row when the path is not (yet) among them.
 */
export function onePathRows(rows: Pick<MapRows, 'areas' | 'paths'>, tables: Pick<TablesConfig, 'areas' | 'paths'>, pathId: number | null): MapRows {
  const path = rows.paths.find((p) => p.id === pathId);
  if (!path) return { areas: rows.areas, paths: rows.paths, selectedPathId: pathId };
  const meadowId = readRow({ tables }, 'paths', path).parent;
  const meadow = rows.areas.find((a) => a.id === meadowId);
  return { areas: meadow ? [meadow] : rows.areas, paths: [path], selectedPathId: pathId };
}

export function recordsToMapItems(rows: MapRows, tables: Pick<TablesConfig, 'areas' | 'paths'>): MapItem[] {
  const farmerOfArea = new Map<number, number | null>();
  const items: MapItem[] = [];
  for (const record of rows.areas) {
    const area = readRow({ tables }, 'areas', record);
    farmerOfArea.set(area.id, area.user);
    items.push({ kind: 'area', id: area.id, name: area.name ?? '', farmerId: area.user, geometry: area.geometry ?? null });
  }
  for (const record of rows.paths) {
    const path = readRow({ tables }, 'paths', record);
    items.push({
      kind: 'path',
      id: path.id,
      name: path.name ?? '',
      farmerId: path.parent !== null ? (farmerOfArea.get(path.parent) ?? null) : null,
      geometry: path.geometry ?? null,
      selected: rows.selectedPathId === path.id,
    });
  }
  for (const indicator of rows.indicators ?? []) {
    if (!indicator.geometry) continue;
    items.push({ kind: 'indicator', id: indicator.id, name: rows.indicatorName?.(indicator) ?? '', geometry: indicator.geometry });
  }
  const walked = (rows.track ?? []).filter((s) => s.length > 1);
  if (walked.length) {
    const geometry: MultiLineString = { type: 'MultiLineString', coordinates: walked };
    items.push({ kind: 'path', id: -1, name: '', selected: true, geometry });
  }
  return items;
}
