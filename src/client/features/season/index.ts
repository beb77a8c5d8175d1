/** features/season: the loading chain and the selectors screens read the season with. */
export * from './season-slice';
export * from './season-actions';
export * from './season-thunks';
export { currentDuration, localDate } from './season-requests';
