/**
 * Online/offline as the whole app reads it (docs/architecture.md, States and timers): the browser's online/offline events plus
 * the GET /api/Test probe every REACHABILITY_POLL_MS. Online = the browser says online AND the
 * last probe got a 200.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

interface ConnectivityState {
  browserOnline: boolean;
  /** null until the first probe answered. */
  serverReachable: boolean | null;
  lastProbeAt: string | null;
}

const initialState: ConnectivityState = { browserOnline: true, serverReachable: null, lastProbeAt: null };

export const connectivitySlice = createSlice({
  name: 'connectivity',
  initialState,
  reducers: {
    browserOnlineChanged(state, action: PayloadAction<boolean>) {
      state.browserOnline = action.payload;
      // No network means no server, without waiting for the next probe.
      if (!action.payload) state.serverReachable = false;
    },
    reachabilityProbed(state, action: PayloadAction<{ reachable: boolean; at: string }>) {
      state.serverReachable = action.payload.reachable;
      state.lastProbeAt = action.payload.at;
    },
  },
  selectors: {
    selectIsOnline: (state) => state.browserOnline && state.serverReachable === true,
    selectBrowserOnline: (state) => state.browserOnline,
    selectServerReachable: (state) => state.serverReachable,
    selectLastProbeAt: (state) => state.lastProbeAt,
  },
});

export const { browserOnlineChanged, reachabilityProbed } = connectivitySlice.actions;
export const { selectIsOnline, selectBrowserOnline, selectServerReachable } = connectivitySlice.selectors;
