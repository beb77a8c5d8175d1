/**
 * Actions about the offline data that several features react to. They live in lib so that the
 * feature which causes them (sync) and the features that hold ids in their state (season, screens)
 * do not import each other.
 */
import { createAction } from '@reduxjs/toolkit';
import type { IdChange } from './identity';

/**
 * Offline-made ids were replaced by server ids (in Dexie already; announced by identity.ts once
 * its transaction committed); slices holding ids follow.
 */
export const localIdsRemapped = createAction<IdChange[]>('offlineDb/localIdsRemapped');
