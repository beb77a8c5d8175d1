/** Plain actions of the season chain (separate file so slice and thunks do not import each other). */
import { createAction } from '@reduxjs/toolkit';
import type { StoredRecord } from '../../lib/db/database';
import { followIds } from '../../lib/db/identity';

export interface SeasonData {
  /** 'server' when every step was read online, 'device' when any came from the offline copy. */
  source: 'server' | 'device' | null;
  role: 'editor' | 'reader' | 'farmer' | null;
  farmers: StoredRecord[];
  farmerId: number | null;
  areas: StoredRecord[];
  duration: StoredRecord | null;
  paths: StoredRecord[];
  durationPaths: StoredRecord[];
  forms: StoredRecord[];
  indicators: StoredRecord[];
  /** The forms' threads (comments table: replies and the reasons of review moves), by parent form. */
  comments: StoredRecord[];
  /** Reference column keys per table id (for remapping offline ids in this slice). */
  refKeys: Record<number, string[]>;
  loadedAt: string | null;
  /** A non-blocking note, e.g. no current duration. */
  notice: string | null;
}

/** No season read yet: no role, no rows. */
export const NO_SEASON: SeasonData = {
  source: null,
  role: null,
  farmers: [],
  farmerId: null,
  areas: [],
  duration: null,
  paths: [],
  durationPaths: [],
  forms: [],
  indicators: [],
  comments: [],
  refKeys: {},
  loadedAt: null,
  notice: null,
};

/** The season's row lists (each a list of stored records). */
export const ROW_LISTS = ['farmers', 'areas', 'paths', 'durationPaths', 'forms', 'indicators', 'comments'] as const;

/**
 * The season as it is after deliveries (`map`: offline id → server id): every row's id and
 * reference columns, and the chosen farmer, follow. The one rule for a finished read that may
 * predate a delivery and for the loaded season when a delivery is announced. The same object when
 * nothing changed.
 */
export function followSeason<T extends SeasonData>(data: T, map: ReadonlyMap<number, number>): T {
  if (!map.size) return data;
  const follow = (row: StoredRecord) => followIds(row, data.refKeys[row.tableId], map);
  const next: T = { ...data, duration: data.duration ? follow(data.duration) : null };
  // A state preloaded before the comments step existed (tests, a replayed QA log) has no comments list.
  for (const list of ROW_LISTS) next[list] = ((data[list] as StoredRecord[] | undefined) ?? []).map(follow);
  if (next.farmerId !== null) next.farmerId = map.get(next.farmerId) ?? next.farmerId;
  return next;
}

export const seasonLoadStarted = createAction('season/loadStarted');
export const seasonLoaded = createAction<SeasonData>('season/loaded');
export const seasonLoadFailed = createAction<{ message: string; role?: SeasonData['role'] }>('season/loadFailed');
