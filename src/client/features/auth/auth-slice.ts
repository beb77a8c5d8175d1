/**
 * Who is signed in, as the UI sees it: the user, the current access token, the project roles
 * (from GET /api/PublicApp/{projectId}/roles) and the session status:
 * - unknown: starting;
 * - offline: working with the last identity stored on the device (server unreachable);
 * - authenticated: a live session (tokens are being refreshed);
 * - needs-sign-in: the session cannot be renewed; the user is asked to sign in again (only
 *   shown while the server is reachable; nothing queued is lost meanwhile);
 * - signed-out.
 * The keycloak-js instance itself lives in lib/auth, outside Redux (not serialisable).
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { RolesResult } from '../../../common/schemas/wire';
import { publicAppApi } from '../../lib/api/public-app';
import type { AuthUser } from '../../lib/auth';

type AuthStatus = 'unknown' | 'offline' | 'authenticated' | 'needs-sign-in' | 'signed-out';

interface AuthState {
  status: AuthStatus;
  user: AuthUser | null;
  token: string | null;
  roles: RolesResult | null;
  /** Sign-out was asked for while this many edits wait to sync: the dialog asks what to do. */
  signOutPendingEdits: number | null;
}

const initialState: AuthState = { status: 'unknown', user: null, token: null, roles: null, signOutPendingEdits: null };

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    identityRestored(state, action: PayloadAction<{ user: AuthUser; token: string | null }>) {
      state.user = action.payload.user;
      state.token = action.payload.token;
      if (state.status === 'unknown') state.status = 'offline';
    },
    /** A live session; `token` is null with basic credentials, `user` null with AUTH=none. */
    authenticated(state, action: PayloadAction<{ user: AuthUser | null; token: string | null }>) {
      if (state.user && state.user.sub !== action.payload.user?.sub) state.roles = null;
      state.user = action.payload.user;
      state.token = action.payload.token;
      state.status = 'authenticated';
    },
    tokenRefreshed(state, action: PayloadAction<string>) {
      state.token = action.payload;
      state.status = 'authenticated';
    },
    /** A refresh got 400: the token is gone; the user stays known (their data stays). */
    tokenCleared(state) {
      state.token = null;
    },
    signInRequired(state) {
      state.status = 'needs-sign-in';
    },
    authOffline(state) {
      if (state.status !== 'needs-sign-in') state.status = 'offline';
    },
    signOutBlocked(state, action: PayloadAction<number>) {
      state.signOutPendingEdits = action.payload;
    },
    signOutCancelled(state) {
      state.signOutPendingEdits = null;
    },
    signedOut() {
      return { ...initialState, status: 'signed-out' as const };
    },
  },
  extraReducers: (builder) => {
    builder.addMatcher(publicAppApi.endpoints.roles.matchFulfilled, (state, action) => {
      state.roles = action.payload;
    });
  },
  selectors: {
    selectAuthStatus: (state) => state.status,
    selectAuthUser: (state) => state.user,
    selectAuthToken: (state) => state.token,
    selectRoles: (state) => state.roles,
    selectIsEditor: (state) => state.roles?.editor === true,
    selectIsReader: (state) => state.roles?.reader === true,
    selectSignInNeeded: (state) => state.status === 'needs-sign-in',
    selectSignOutPendingEdits: (state) => state.signOutPendingEdits,
  },
});

export const { identityRestored, authenticated, tokenRefreshed, tokenCleared, signInRequired, authOffline, signOutBlocked, signOutCancelled, signedOut } =
  authSlice.actions;
export const {
  selectAuthUser,

  selectRoles,

  selectSignInNeeded,
  selectSignOutPendingEdits,
} = authSlice.selectors;
