/**
 * Update-ready flag: set when a new service worker is installed and waiting; the
 * notice dialog 'Obvestilo' shows while it is set. `updateAccepted` marks that the user agreed,
 * so the dialog can say it is working while the new worker takes over and the page reloads.
 */
import { createSlice } from '@reduxjs/toolkit';

interface AppUpdateState {
  updateReady: boolean;
  accepted: boolean;
}

const initialState: AppUpdateState = { updateReady: false, accepted: false };

export const appUpdateSlice = createSlice({
  name: 'appUpdate',
  initialState,
  reducers: {
    updateBecameReady(state) {
      state.updateReady = true;
    },
    updateAccepted(state) {
      state.accepted = true;
    },
  },
  selectors: {
    selectUpdateReady: (state) => state.updateReady,
    selectUpdateAccepted: (state) => state.accepted,
  },
});

export const { updateBecameReady, updateAccepted } = appUpdateSlice.actions;
export const { selectUpdateReady, selectUpdateAccepted } = appUpdateSlice.selectors;
