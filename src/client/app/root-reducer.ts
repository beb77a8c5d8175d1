/**
 * The reducers of the app in one map. Each feature exports its slice; add it here.
 * (RTK Query's reducer is added by the api slice in lib/api once it exists.)
 */
import { combineReducers } from '@reduxjs/toolkit';
import { notificationsSlice } from '../features/notifications/notifications-slice'; // H3
import { appUpdateSlice } from '../features/app-update/app-update-slice'; // H3
import { configSlice } from '../lib/config/config-slice'; // H3

export const rootReducer = combineReducers({
  // features register their slices here, e.g. notifications: notificationsSlice.reducer
  placeholder: (state: null = null) => state,
  [notificationsSlice.reducerPath]: notificationsSlice.reducer, // H3
  [appUpdateSlice.reducerPath]: appUpdateSlice.reducer, // H3
  [configSlice.reducerPath]: configSlice.reducer, // H3
});

export type RootState = ReturnType<typeof rootReducer>;
