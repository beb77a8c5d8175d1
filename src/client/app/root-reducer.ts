/**
 * The reducers of the app in one map. Each feature exports its slice; add it here with one line.
 * Not persisted here: what redux-persist keeps is chosen in store.ts (PERSISTED_STATE).
 */
import { combineReducers } from '@reduxjs/toolkit';
import { api } from '../lib/api/api';
import { connectivitySlice } from '../features/sync/connectivity-slice';
import { syncSlice } from '../features/sync/sync-slice';
import { seasonSlice } from '../features/season/season-slice';
import { notificationsSlice } from '../features/notifications/notifications-slice';
import { appUpdateSlice } from '../features/app-update/app-update-slice';
import { configSlice } from '../lib/config/config-slice';
import { authSlice } from '../features/auth/auth-slice';

export const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  [connectivitySlice.reducerPath]: connectivitySlice.reducer,
  [syncSlice.reducerPath]: syncSlice.reducer,
  [seasonSlice.reducerPath]: seasonSlice.reducer,
  [notificationsSlice.reducerPath]: notificationsSlice.reducer,
  [appUpdateSlice.reducerPath]: appUpdateSlice.reducer,
  [configSlice.reducerPath]: configSlice.reducer,
  [authSlice.reducerPath]: authSlice.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;
