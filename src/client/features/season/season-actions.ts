/** Plain actions of the season chain (separate file so slice and thunks do not import each other). */
import { createAction } from '@reduxjs/toolkit';
import type { StoredRecord } from '../../lib/db/database';

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
  /** Reference column keys per table id (for remapping offline ids in this slice). */
  refKeys: Record<number, string[]>;
  loadedAt: string | null;
  /** A non-blocking note, e.g. no current duration. */
  notice: string | null;
}

export const seasonLoadStarted = createAction('season/loadStarted');
export const seasonLoaded = createAction<SeasonData>('season/loaded');
export const seasonLoadFailed = createAction<{ message: string; role?: SeasonData['role'] }>('season/loadFailed');
