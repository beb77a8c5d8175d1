/** features/paths: the season's paths as rows (meadow, forms, score), their list and one path's screen. */
export { buildPathRows, groupByArea } from './path-rows';
export { PathScreen, type PathFormItem } from './path-screen';
export { PathsScreen } from './paths-screen';
