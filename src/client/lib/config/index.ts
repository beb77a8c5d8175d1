export { loadConfig, CONFIG_LOAD_ERROR_LOG, CONFIG_STORAGE_KEY } from './load-config';
export type { LoadedConfig, LoadConfigDeps, ConfigSource } from './load-config';
export { configSlice, configLoaded, selectConfig, selectConfigStatus, selectConfigSource } from './config-slice';
export type { ConfigState } from './config-slice';
