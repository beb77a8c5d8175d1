/**
 * A first visit's picture of the farmer's home, made from the early reads' answers
 * (early-reads.ts): the season's name and window and the meadows with their paths, listed as home
 * lists them. Kept as the home's picture (lib/home-snapshot.ts) when the device has none, home's
 * first render shows the farmer's paths from it while the app still reads the rest of the season
 * (on a phone, seconds), as on any later start. What needs the forms, which come later, is left
 * out: a path's status and score (null: not known yet).
 */
import type { AppConfig } from '../../../common/schemas/config';
import type { WireRecord } from '../../../common/schemas/wire';
import { homeSnapshotKey, readHomeSnapshot, writeHomeSnapshot, type HomeSnapshot } from '../../lib/home-snapshot';
import { routeHref } from '../../lib/links';
// The pure pieces alone: the features' indexes would bring the UI library into the first entry.
// eslint-disable-next-line no-restricted-imports
import { homeSeasonOf } from '../../features/home/home-season';
// eslint-disable-next-line no-restricted-imports
import { pathsByArea } from '../../features/paths/path-rows';

export interface FirstVisitRows {
  /** The current season's durations row (null: no season today). */
  duration: WireRecord | null;
  areas: WireRecord[];
  paths: WireRecord[];
}

export function firstVisitSnapshot(config: AppConfig, key: string, rows: FirstVisitRows): HomeSnapshot {
  const areas = pathsByArea({ areas: rows.areas, paths: rows.paths, duration: rows.duration, durationPaths: [], forms: [] }, config);
  return {
    key,
    season: rows.duration ? homeSeasonOf(config, rows.duration) : null,
    areas: areas.map((area) => ({
      id: area.id,
      name: area.name,
      paths: area.paths.map((path) => ({ id: path.id, name: path.name, lengthM: path.lengthM, status: null, score: null })),
      // Early reads are a farmer's, who adds paths on their own meadows.
      newPathHref: routeHref('path-new', {}, { area: area.id }),
    })),
    html: '',
  };
}

/** Keeps the picture unless the device has one of this user's home already (true when it wrote). */
export function keepFirstVisitHome(storage: Storage | null, config: AppConfig, email: string, rows: FirstVisitRows): boolean {
  const key = homeSnapshotKey(config.projectId, email);
  if (readHomeSnapshot(storage, key)) return false;
  writeHomeSnapshot(storage, firstVisitSnapshot(config, key, rows));
  return true;
}
