/**
 * The season the user works in (the loading chain): who they are (editor, reader,
 * farmer), the farmers, and for one farmer the areas, the current duration, the paths, the
 * duration-path links, forms, indicators and the forms' comments. Rows come from the offline database (refreshed from
 * the server when online), so this slice is the same online and offline.
 */
import { createSlice, current, type PayloadAction } from '@reduxjs/toolkit';
import { localIdsRemapped } from '../../lib/db/actions';
import type { StoredRecord } from '../../lib/db/database';
import { followSeason, NO_SEASON, seasonLoaded, seasonLoadFailed, seasonLoadStarted, type SeasonData } from './season-actions';

const NO_COMMENTS: StoredRecord[] = [];

export type SeasonRole = 'editor' | 'reader' | 'farmer';

interface SeasonState extends SeasonData {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  /** Slovenian message for the user (e.g. the missing farmer record). */
  error: string | null;
}

const initialState: SeasonState = { ...NO_SEASON, status: 'idle', error: null };

export const seasonSlice = createSlice({
  name: 'season',
  initialState,
  reducers: {
    farmerChosen(state, action: PayloadAction<number | null>) {
      state.farmerId = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(seasonLoadStarted, (state) => {
        state.status = 'loading';
        state.error = null;
      })
      .addCase(seasonLoaded, (state, action: PayloadAction<SeasonData>) => {
        Object.assign(state, action.payload);
        state.comments = (action.payload.comments as StoredRecord[] | undefined) ?? [];
        state.status = 'ready';
        state.error = null;
      })
      .addCase(seasonLoadFailed, (state, action: PayloadAction<{ message: string; role?: SeasonRole | null }>) => {
        state.status = 'failed';
        state.error = action.payload.message;
        // A load that failed before reading the role (role null) says nothing about it: the
        // known role stays, or every screen would turn read-only until the next load succeeds.
        if (action.payload.role) state.role = action.payload.role;
      })
      .addCase(localIdsRemapped, (state, action) => {
        // Rows made offline got server ids: the loaded rows follow (lib/db/identity's rule).
        const map = new Map(action.payload.filter((m) => m.of === 'record').map((m) => [m.localId, m.id]));
        return followSeason(current(state), map);
      });
  },
  selectors: {
    selectSeasonStatus: (state) => state.status,
    selectSeasonError: (state) => state.error,
    selectSeasonSource: (state) => state.source,
    selectSeasonNotice: (state) => state.notice,
    selectRole: (state) => state.role,
    selectFarmers: (state) => state.farmers,
    selectFarmerId: (state) => state.farmerId,
    selectAreas: (state) => state.areas,
    selectCurrentDuration: (state) => state.duration,
    selectPaths: (state) => state.paths,
    selectDurationPaths: (state) => state.durationPaths,
    selectForms: (state) => state.forms,
    selectIndicators: (state) => state.indicators,
    // A state preloaded without the comments list (older tests, a QA replay's start) reads none.
    selectComments: (state) => (state.comments as StoredRecord[] | undefined) ?? NO_COMMENTS,
    selectSeasonLoadedAt: (state) => state.loadedAt,
  },
});

export const { farmerChosen } = seasonSlice.actions;
export const {
  selectSeasonStatus,
  selectSeasonError,
  selectSeasonSource,
  selectRole,
  selectFarmers,
  selectFarmerId,
  selectAreas,
  selectCurrentDuration,
  selectPaths,
  selectDurationPaths,
  selectForms,
  selectIndicators,
  selectComments,
  selectSeasonLoadedAt,
} = seasonSlice.selectors;
