export { configLoaded } from './config-slice';
