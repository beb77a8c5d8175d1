/**
 * Offline-made forms get a server id once the outbox delivered them (lib/db localIdsRemapped).
 * A farmer may be looking at such a form at that moment, by its old local id in the address; this
 * slice remembers the mapping so the form screen can move to the new address instead of saying
 * the form is gone.
 */
import { createSlice } from '@reduxjs/toolkit';
import { localIdsRemapped } from '../../lib/db/actions';

export interface FormsState {
  /** Local id → server id of records delivered in this session. */
  remapped: Record<number, number>;
}

const initialState: FormsState = { remapped: {} };

export const formsSlice = createSlice({
  name: 'forms',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    builder.addCase(localIdsRemapped, (state, action) => {
      for (const m of action.payload) if (m.of === 'record') state.remapped[m.localId] = m.id;
    });
  },
  selectors: {
    selectRemappedId: (state, id: number): number | null => state.remapped[id] ?? null,
  },
});

export const { selectRemappedId } = formsSlice.selectors;
