/**
 * Actions about the offline data that several features react to. They live in lib so that the
 * feature which causes them (sync) and the features that hold ids in their state (season, screens)
 * do not import each other.
 */
import { createAction } from '@reduxjs/toolkit';
import type { IdMapping } from './identity';

/** Offline-made ids were replaced by server ids (in Dexie already); slices holding ids follow. */
export const localIdsRemapped = createAction<IdMapping[]>('offlineDb/localIdsRemapped');
/** The local copy of rows changed outside a feature's own thunks (sync acknowledged, conflict resolved). */
export const offlineRowsChanged = createAction('offlineDb/rowsChanged');
