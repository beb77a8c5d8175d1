/** features/location: permission polling, the denied warning for the layout, the position hook. */
export { LocationWarning, type LocationWarningProps } from './location-warning';
export { useLocationPermission, useUserPosition, type UserPosition } from './use-location';
export {
  browserLocationEnv,
  queryLocationPermission,
  reportLocationDenied,
  watchLocationPermission,
  type LocationEnv,
  type LocationPermission,
} from './location-permission';
