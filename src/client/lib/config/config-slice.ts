/**
 * The loaded config.json in the store, so features read it through selectors (it is plain JSON).
 * status: 'loading' until the first attempt ends; 'failed' when neither the server nor a last
 * good copy gave one.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AppConfig } from '../../../common/schemas/config';
import type { ConfigSource } from './load-config';

interface ConfigState {
  status: 'loading' | 'ready' | 'failed';
  source: ConfigSource | null;
  value: AppConfig | null;
}

const initialState: ConfigState = { status: 'loading', source: null, value: null };

export const configSlice = createSlice({
  name: 'config',
  initialState,
  reducers: {
    configLoaded(state, action: PayloadAction<{ config: AppConfig | null; source: ConfigSource | null }>) {
      state.value = action.payload.config;
      state.source = action.payload.source;
      state.status = action.payload.config ? 'ready' : 'failed';
    },
  },
  selectors: {
    selectConfig: (state) => state.value,
    selectConfigStatus: (state) => state.status,
    selectConfigSource: (state) => state.source,
  },
});

export const { configLoaded } = configSlice.actions;
export const { selectConfig, selectConfigStatus } = configSlice.selectors;
