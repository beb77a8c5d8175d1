/**
 * Location permission state (docs/architecture.md, States and timers): polled every LOCATION_POLL_MS through the Permissions
 * API, and also updated at once by its `change` event and by any geolocation call that fails with
 * PERMISSION_DENIED (some browsers lack the Permissions API for geolocation, and a user can revoke
 * the permission while the app runs). Pure of React: the hook in use-location.ts wraps it.
 */
import { LOCATION_POLL_MS } from '../../../common/constants';

export type LocationPermission = 'granted' | 'denied' | 'prompt' | 'unsupported' | 'unknown';

export interface LocationEnv {
  permissions?: Pick<Permissions, 'query'>;
  geolocation?: Geolocation;
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (id: unknown) => void;
}

export function browserLocationEnv(): LocationEnv {
  return {
    permissions: globalThis.navigator?.permissions,
    geolocation: globalThis.navigator?.geolocation,
    setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
    clearInterval: (id) => globalThis.clearInterval(id as ReturnType<typeof setInterval>),
  };
}

/** Reads the permission once. */
async function queryLocationPermission(env: LocationEnv): Promise<LocationPermission> {
  if (!env.geolocation) return 'unsupported';
  if (!env.permissions?.query) return 'unknown';
  try {
    const status = await env.permissions.query({ name: 'geolocation' });
    return status.state;
  } catch {
    return 'unknown';
  }
}

/**
 * Watches the permission: calls `onChange` with the first state and every change. Returns a stop
 * function. `reportDenied()` (exported below) lets geolocation callers push a denial at once.
 */
export function watchLocationPermission(env: LocationEnv, onChange: (state: LocationPermission) => void, pollMs: number = LOCATION_POLL_MS): () => void {
  let last: LocationPermission | null = null;
  let stopped = false;
  const emit = (state: LocationPermission) => {
    if (stopped || state === last) return;
    last = state;
    onChange(state);
  };
  const poll = () => {
    void queryLocationPermission(env).then(emit);
  };
  poll();
  const id = env.setInterval(poll, pollMs);
  const unsubscribeDenied = onDeniedReported(() => emit('denied'));
  // The change event gives an immediate update where supported; the poll stays as the backstop.
  let status: PermissionStatus | null = null;
  const onStatusChange = () => status && emit(status.state);
  void env.permissions
    ?.query({ name: 'geolocation' })
    .then((s) => {
      if (stopped) return;
      status = s;
      s.addEventListener?.('change', onStatusChange);
    })
    .catch(() => undefined);
  return () => {
    stopped = true;
    env.clearInterval(id);
    unsubscribeDenied();
    status?.removeEventListener?.('change', onStatusChange);
  };
}

const deniedListeners = new Set<() => void>();

/** A geolocation call failed with PERMISSION_DENIED (code 1): tell the watchers now. */
export function reportLocationDenied(): void {
  for (const listener of deniedListeners) listener();
}

function onDeniedReported(listener: () => void): () => void {
  deniedListeners.add(listener);
  return () => deniedListeners.delete(listener);
}
