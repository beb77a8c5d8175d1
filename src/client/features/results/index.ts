/** features/results: scores of the season and earlier ones, per farmer or all, with CSV and GeoJSON export. */
export { PathHistory, ResultsScreen } from './results-screen';
export { usePathResults } from './use-path-results';
export { useResultsView } from './use-results-view';
export { addHistoryAheadListener } from './history-ahead';
