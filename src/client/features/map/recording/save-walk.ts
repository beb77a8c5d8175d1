/**
 * The end of a walk: the simplified line becomes the path's geometry, and the path's `walk`
 * column keeps the quality summary and every raw fix (so a walk can be re-examined or
 * re-simplified later); `length_m` gets the walked distance. Saved through lib/db's outbox
 * (saveEdit: local row + queued operation in one strict transaction), i.e. offline first.
 */
import { saveEdit, type SavedEdit } from '../../../lib/db/outbox';
import type { AppConfig } from '../../../../common/schemas/config';
import type { OfflineDb } from '../../../lib/db/database';
import type { RawFix, WalkResult } from './track-recorder';

export interface PathsTableRef {
  projectId: number;
  tableId: number;
  /** Column ids from config.json → tables.paths.columns. */
  columns: { walk: number; length_m: number };
}

/** The paths table as config.json names it, for the walk recorder. */
export function pathsTableRef(config: Pick<AppConfig, 'projectId' | 'tables'>): PathsTableRef {
  const { paths } = config.tables;
  return { projectId: config.projectId, tableId: paths.id, columns: { walk: paths.columns.walk, length_m: paths.columns.length_m } };
}

/** Raw fixes compactly: [lon, lat, accuracy m, time ms, verdict]. */
type RawFixTuple = [number, number, number, number, RawFix['verdict']];

interface StoredWalk {
  recordedAt: string;
  summary: WalkResult['summary'];
  raw: RawFixTuple[];
}

function toStoredWalk(result: WalkResult, raw: readonly RawFix[], recordedAt: number): StoredWalk {
  return {
    recordedAt: new Date(recordedAt).toISOString(),
    summary: result.summary,
    raw: raw.map((r) => [r.lon, r.lat, r.accuracy, r.timestamp, r.verdict]),
  };
}

export async function saveWalk(
  db: OfflineDb,
  table: PathsTableRef,
  pathId: number,
  result: WalkResult,
  raw: readonly RawFix[],
  recordedAt: number,
): Promise<SavedEdit> {
  if (!result.geometry) throw new Error('no geometry to save');
  return saveEdit(db, {
    kind: 'update',
    isRecord: false,
    projectId: table.projectId,
    tableId: table.tableId,
    id: pathId,
    geometry: result.geometry,
    properties: {
      [String(table.columns.walk)]: toStoredWalk(result, raw, recordedAt),
      [String(table.columns.length_m)]: Math.round(result.summary.distanceM * 10) / 10,
    },
  });
}
