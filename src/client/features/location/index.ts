/** features/location: permission polling, the denied warning for the layout, the position hook. */
export { LocationWarning } from './location-warning';
