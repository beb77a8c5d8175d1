/** React hooks over location-permission.ts and the geolocation watch for the map's position dot. */
import { useEffect, useState } from 'react';
import { LOCATION_POLL_MS } from '../../../common/constants';
import { browserLocationEnv, reportLocationDenied, watchLocationPermission, type LocationEnv, type LocationPermission } from './location-permission';

export function useLocationPermission(env: LocationEnv = browserLocationEnv(), pollMs: number = LOCATION_POLL_MS): LocationPermission {
  const [state, setState] = useState<LocationPermission>('unknown');
  // The env object is created per render by default; the watch depends on the APIs, not the wrapper.
  const { permissions, geolocation } = env;
  useEffect(() => watchLocationPermission(env, setState, pollMs), [permissions, geolocation, pollMs]); // eslint-disable-line react-hooks/exhaustive-deps
  return state;
}

export interface UserPosition {
  lon: number;
  lat: number;
  accuracy: number;
  timestamp: number;
}

/** The user's position while `enabled` (high accuracy); null until the first fix. */
export function useUserPosition(enabled = true, geolocation: Geolocation | undefined = globalThis.navigator?.geolocation): UserPosition | null {
  const [position, setPosition] = useState<UserPosition | null>(null);
  useEffect(() => {
    if (!enabled || !geolocation) return undefined;
    const id = geolocation.watchPosition(
      (p) => setPosition({ lon: p.coords.longitude, lat: p.coords.latitude, accuracy: p.coords.accuracy, timestamp: p.timestamp }),
      (error) => {
        if (error.code === 1) reportLocationDenied();
      },
      { enableHighAccuracy: true, maximumAge: 10_000 },
    );
    return () => geolocation.clearWatch(id);
  }, [enabled, geolocation]);
  return position;
}
