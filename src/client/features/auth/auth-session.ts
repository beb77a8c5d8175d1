/**
 * Runs the sign-in session of the app: connects the keycloak-js wrapper (lib/auth) to the store,
 * the API layer (bearer credentials, refresh on 401) and the browser (online, visibility).
 *
 * Rules (docs/architecture.md, States and timers, Roles):
 * - login-required: a device with nobody on it goes straight to the login page when online;
 * - offline, the last identity is used and nothing redirects — field work never waits for sign-in;
 * - back online (browser event, the app's reachability probe, or the tab shown again) the session
 *   is renewed silently; if it cannot be, the user is sent to sign in only when no edits wait to
 *   sync, otherwise asked (SignInBanner) so they choose the moment; the outbox keeps everything.
 */
import { sessionRenewed } from '../../lib/api/auth-events';
import { setAuthRefresher, setCredentialsProvider } from '../../lib/api/credentials';
import {
  AuthClient,
  checkBasicCredentials,
  clearIdentity,
  readBasicCredentials,
  readUser,
  writeBasicCredentials,
  writeIdentity,
  type BasicCredentials,
} from '../../lib/auth';
import type { AppDispatch, RootState } from '../../app/store-types';
import { authenticated, authOffline, identityRestored, signedOut, signInRequired, tokenCleared, tokenRefreshed } from './auth-slice';

export type ClientAuthMode = 'keycloak' | 'basic' | 'none';

/** What sign-in/sign-out buttons need, whatever the mode. */
export interface ActiveSession {
  mode: ClientAuthMode;
  login(): Promise<void>;
  logout(options: { reachable: boolean }): Promise<void>;
  /** AUTH=basic: checks and keeps the credentials; the result for the form. */
  signInBasic?(credentials: BasicCredentials, projectId: number): Promise<'ok' | 'rejected' | 'unreachable'>;
}

export interface AuthSessionDeps {
  /** From config.json `auth.mode` (default keycloak). */
  mode?: ClientAuthMode;
  /** Where basic credentials live (default sessionStorage). */
  sessionStorage?: Storage | null;
  localStorage?: Storage | null;
  dispatch: AppDispatch;
  getState: () => RootState;
  subscribe?: (listener: () => void) => () => void;
  client?: AuthClient;
  /** GET /api/Test; true when the server answered 200. */
  probe?: () => Promise<boolean>;
  window?: Pick<Window, 'addEventListener' | 'removeEventListener'> & { navigator?: { onLine?: boolean } };
  document?: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'>;
  /** Edits waiting in the outbox (the sync feature's count, read from the state). */
  pendingEdits?: (state: RootState) => number;
}

let activeClient: AuthClient | null = null;
let activeSession: ActiveSession | null = null;

/** The running session, whatever the mode; null before start. */
export function getActiveSession(): ActiveSession | null {
  return activeSession;
}

function storageOf(kind: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return typeof window !== 'undefined' ? window[kind] : null;
  } catch {
    return null;
  }
}

export function defaultPendingEdits(state: RootState): number {
  const sync = (state as { sync?: { pendingCount?: number } }).sync;
  return sync?.pendingCount ?? 0;
}

async function defaultProbe(): Promise<boolean> {
  try {
    const response = await fetch('/api/Test', { cache: 'no-store', signal: AbortSignal.timeout(5_000) });
    // The body is read, short as it is: the timeout also covers an unread body, and would cancel
    // the answered request 5 s later (a failed request in the browser's log on every start).
    await response.text();
    return response.ok;
  } catch {
    return false;
  }
}

export function startAuthSession(deps: AuthSessionDeps): () => void {
  if (deps.mode === 'none') return startWithoutSignIn(deps);
  if (deps.mode === 'basic') return startBasicSession(deps);
  return startTokenSession(deps);
}

/** AUTH=none (local demo): no credentials, nobody to sign in; the server picks the demo user. */
function startWithoutSignIn(deps: AuthSessionDeps): () => void {
  setCredentialsProvider(null);
  setAuthRefresher(null);
  const session: ActiveSession = { mode: 'none', login: async () => undefined, logout: async () => void deps.dispatch(signedOut()) };
  activeSession = session;
  deps.dispatch(authenticated({ user: null, token: null }));
  return () => {
    if (activeSession === session) activeSession = null;
  };
}

/** AUTH=basic: credentials typed into our own form, kept for the tab, sent on every call. */
function startBasicSession(deps: AuthSessionDeps): () => void {
  const { dispatch } = deps;
  const tabStorage = deps.sessionStorage === undefined ? storageOf('sessionStorage') : deps.sessionStorage;
  const deviceStorage = deps.localStorage === undefined ? storageOf('localStorage') : deps.localStorage;
  let credentials = readBasicCredentials(tabStorage);
  const user = readUser(deviceStorage);
  if (user) dispatch(identityRestored({ user, token: null }));
  setCredentialsProvider(() => (credentials ? { kind: 'basic', username: credentials.username, password: credentials.password } : null));
  setAuthRefresher(async () => false);
  const session: ActiveSession = {
    mode: 'basic',
    login: async () => void dispatch(signInRequired()),
    logout: async () => {
      credentials = null;
      writeBasicCredentials(tabStorage, null);
      clearIdentity(deviceStorage);
      dispatch(signedOut());
    },
    signInBasic: async (candidate, projectId) => {
      const result = await checkBasicCredentials(candidate, projectId);
      if (result !== 'ok') return result;
      credentials = candidate;
      writeBasicCredentials(tabStorage, candidate);
      const signedIn = { sub: candidate.username.trim().toLowerCase(), email: candidate.username.trim().toLowerCase() };
      writeIdentity(deviceStorage, signedIn, { token: null, refreshToken: null, idToken: null });
      dispatch(authenticated({ user: signedIn, token: null }));
      dispatch(sessionRenewed());
      return 'ok';
    },
  };
  activeSession = session;
  if (credentials) dispatch(authenticated({ user: user ?? { sub: credentials.username, email: credentials.username }, token: null }));
  else dispatch(signInRequired());
  return () => {
    setCredentialsProvider(null);
    setAuthRefresher(null);
    if (activeSession === session) activeSession = null;
  };
}

function startTokenSession(deps: AuthSessionDeps): () => void {
  const { dispatch, getState } = deps;
  const client = deps.client ?? new AuthClient();
  const win = deps.window ?? window;
  const doc = deps.document ?? document;
  const probe = deps.probe ?? defaultProbe;
  const pendingEdits = deps.pendingEdits ?? defaultPendingEdits;
  activeClient = client;
  const session: ActiveSession = { mode: 'keycloak', login: () => client.login(), logout: (options) => client.logout(options) };
  activeSession = session;

  const unsubscribeClient = client.subscribe((event) => {
    switch (event.type) {
      case 'restored':
        dispatch(identityRestored({ user: event.user, token: event.token }));
        break;
      case 'authenticated':
        dispatch(authenticated({ user: event.user, token: event.token }));
        // Work the outbox held for sign-in may go out now.
        dispatch(sessionRenewed());
        break;
      case 'token-refreshed':
        dispatch(tokenRefreshed(event.token));
        dispatch(sessionRenewed());
        break;
      case 'token-cleared':
        dispatch(tokenCleared());
        break;
      case 'sign-in-required':
        dispatch(signInRequired());
        break;
      case 'signed-out':
        dispatch(signedOut());
        break;
      case 'refresh-failed':
        break; // logged by the client; the token is kept for the next try
    }
  });

  setCredentialsProvider(async () => {
    const token = await client.freshToken();
    return token ? { kind: 'bearer', token } : null;
  });
  setAuthRefresher(() => client.refresh(-1));

  client.restore();

  let starting: Promise<void> | null = null;
  const start = (): Promise<void> => {
    starting ??= (async () => {
      try {
        const online = win.navigator?.onLine !== false;
        const reachable = online && (await probe());
        const result = await client.start({ reachable, allowRedirect: pendingEdits(getState()) === 0 });
        if (result === 'offline') dispatch(authOffline());
      } catch (error) {
        console.error('sign-in start failed', error);
        dispatch(authOffline());
      } finally {
        starting = null;
      }
    })();
    return starting;
  };

  const needsStart = () => {
    const status = getState().auth.status;
    return status === 'offline' || status === 'unknown';
  };

  void start();

  const onOnline = () => {
    if (needsStart()) void start();
  };
  const onVisibility = () => {
    if (doc.visibilityState !== 'visible') return;
    if (client.isAuthenticated()) void client.onVisible();
    else if (needsStart()) void start();
  };
  win.addEventListener('online', onOnline);
  doc.addEventListener('visibilitychange', onVisibility);

  // The app's own reachability probe (every 10 s) also tells us the server is back.
  let wasReachable: boolean | null = null;
  const unsubscribeStore = deps.subscribe?.(() => {
    const reachable = (getState() as { connectivity?: { serverReachable?: boolean | null } }).connectivity?.serverReachable ?? null;
    if (reachable === true && wasReachable !== true && needsStart() && !starting) void start();
    wasReachable = reachable;
  });

  return () => {
    unsubscribeClient();
    unsubscribeStore?.();
    win.removeEventListener('online', onOnline);
    doc.removeEventListener('visibilitychange', onVisibility);
    setCredentialsProvider(null);
    setAuthRefresher(null);
    if (activeClient === client) activeClient = null;
    if (activeSession === session) activeSession = null;
  };
}
