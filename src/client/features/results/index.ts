/** features/results: scores of the season and earlier ones, per farmer or all, with CSV and GeoJSON export. */
export { fetchFormHistories } from './export-history';
export { buildAllFarmersResults, buildResults, resultsCsv, resultsGeoJson, type ResultRow } from './results-model';
export { PathHistory, ResultsScreen } from './results-screen';
export { useAllFarmers } from './use-all-farmers';
export { useSeasonHistory } from './use-season-history';
export { usePathResults } from './use-path-results';
