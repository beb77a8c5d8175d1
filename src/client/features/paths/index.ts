/** features/paths: the season's paths as rows (meadow, forms, score), their list and one path's screen. */
export { buildPathRows, pathsByArea } from './path-rows';
export { PathScreen } from './path-screen';
export { PathsScreen } from './paths-screen';
export { usePathView, pathScreenLoading } from './path-view';
export { PathRecorder, usePathCorrection } from './path-recorder';
