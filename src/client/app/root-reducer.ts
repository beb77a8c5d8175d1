/**
 * The reducers of the app in one map. Each feature exports its slice; add it here.
 * (RTK Query's reducer is added by the api slice in lib/api once it exists.)
 */
import { combineReducers } from '@reduxjs/toolkit';

export const rootReducer = combineReducers({
  // features register their slices here, e.g. notifications: notificationsSlice.reducer
  placeholder: (state: null = null) => state,
});

export type RootState = ReturnType<typeof rootReducer>;
