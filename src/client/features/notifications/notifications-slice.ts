/**
 * Notifications: kind (info, success, error), message, timeout, hasClose. Several can
 * be shown at once. Default timeouts come from NOTICE_TIMEOUT_MS (info 3 s, success 2 s, error
 * stays until closed). The timer runs in the notification area while it is on screen; the state
 * holds only plain data.
 */
import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import { NOTICE_TIMEOUT_MS } from '../../../common/constants';

type NoticeKind = 'info' | 'success' | 'error';

export interface Notice {
  id: string;
  kind: NoticeKind;
  message: string;
  /** Milliseconds until it disappears by itself; null = stays until closed or removed. */
  timeout: number | null;
  /** Shows a close button. */
  hasClose: boolean;
}

export interface NoticeInput {
  kind?: NoticeKind;
  message: string;
  timeout?: number | null;
  hasClose?: boolean;
  /**
   * A stable id replaces an earlier notice with the same id instead of stacking a second one
   * (e.g. the location warning that stays until access is granted).
   */
  id?: string;
}

interface NotificationsState {
  items: Notice[];
}

const initialState: NotificationsState = { items: [] };

export const notificationsSlice = createSlice({
  name: 'notifications',
  initialState,
  reducers: {
    noticeShown: {
      reducer(state, action: PayloadAction<Notice>) {
        const index = state.items.findIndex((n) => n.id === action.payload.id);
        if (index === -1) state.items.push(action.payload);
        else state.items[index] = action.payload;
      },
      prepare(input: NoticeInput) {
        const kind = input.kind ?? 'info';
        const timeout = input.timeout === undefined ? NOTICE_TIMEOUT_MS[kind] : input.timeout;
        // A notice that never times out must be closable unless the caller removes it itself.
        const hasClose = input.hasClose ?? timeout === null;
        return { payload: { id: input.id ?? nanoid(), kind, message: input.message, timeout, hasClose } };
      },
    },
    noticeDismissed(state, action: PayloadAction<string>) {
      state.items = state.items.filter((n) => n.id !== action.payload);
    },
    noticesCleared(state) {
      state.items = [];
    },
  },
  selectors: {
    selectNotices: (state) => state.items,
  },
});

export const { noticeShown, noticeDismissed } = notificationsSlice.actions;
export const { selectNotices } = notificationsSlice.selectors;
