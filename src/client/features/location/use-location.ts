/** React hook over location-permission.ts: the location permission's state, kept current. */
import { useEffect, useState } from 'react';
import { LOCATION_POLL_MS } from '../../../common/constants';
import { browserLocationEnv, watchLocationPermission, type LocationEnv, type LocationPermission } from './location-permission';

export function useLocationPermission(env: LocationEnv = browserLocationEnv(), pollMs: number = LOCATION_POLL_MS): LocationPermission {
  const [state, setState] = useState<LocationPermission>('unknown');
  // The env object is created per render by default; the watch depends on the APIs, not the wrapper.
  const { permissions, geolocation } = env;
  useEffect(() => watchLocationPermission(env, setState, pollMs), [permissions, geolocation, pollMs]); // eslint-disable-line react-hooks/exhaustive-deps
  return state;
}
