/**
 * The reducers of the app in one map. Each feature exports its slice; add it here with one line.
 * Not persisted here: what redux-persist keeps is chosen in store.ts (PERSISTED_STATE).
 */
import { combineReducers } from '@reduxjs/toolkit';
import { api } from '../lib/api/api';
import { connectivitySlice, syncSlice } from '../features/sync';
import { seasonSlice } from '../features/season';
import { notificationsSlice } from '../features/notifications';
import { appUpdateSlice } from '../features/app-update';
import { configSlice } from '../lib/config/config-slice';
import { authSlice } from '../features/auth';

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
