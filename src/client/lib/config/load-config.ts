/**
 * Loads GET /config.json at start. A failure is logged as 'error loading config'
 * (docs/architecture.md, Error catalogue) and the last good copy is used, kept in localStorage (small, synchronous, survives
 * reloads and updates). The service worker also answers /config.json network-first from its
 * cache, so offline starts usually get a copy from there before this fallback is needed.
 */
import type { AppConfig } from '../../../common/schemas/config';

/** Exact: what the log says when config.json cannot be loaded. */
export const CONFIG_LOAD_ERROR_LOG = 'error loading config';
export const CONFIG_STORAGE_KEY = 'moj-travnik:config';
export const CONFIG_URL = '/config.json';

export type ConfigSource = 'network' | 'last-good';

export interface LoadConfigDeps {
  fetch: typeof fetch;
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
  log?: (message: string, error: unknown) => void;
  url?: string;
}

export interface LoadedConfig {
  config: AppConfig | null;
  source: ConfigSource | null;
}

export function looksLikeConfig(value: unknown): value is AppConfig {
  return typeof value === 'object' && value !== null && typeof (value as { projectId?: unknown }).projectId === 'number';
}

export async function loadConfig({ fetch: doFetch, storage, log = console.error, url = CONFIG_URL }: LoadConfigDeps): Promise<LoadedConfig> {
  try {
    const response = await doFetch(url, { headers: { accept: 'application/json' }, cache: 'no-cache' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body: unknown = await response.json();
    if (!looksLikeConfig(body)) throw new Error('config.json has no projectId');
    try {
      storage?.setItem(CONFIG_STORAGE_KEY, JSON.stringify(body));
    } catch (error) {
      // Quota or private mode: the app still runs with the config it just got.
      log('config not stored as last good copy', error);
    }
    return { config: body, source: 'network' };
  } catch (error) {
    log(CONFIG_LOAD_ERROR_LOG, error);
    const saved = readLastGoodConfig(storage);
    return { config: saved, source: saved ? 'last-good' : null };
  }
}

/** The last good copy on this device, or null (none, unreadable, blocked storage). */
export function readLastGoodConfig(storage: LoadConfigDeps['storage']): AppConfig | null {
  try {
    const raw = storage?.getItem(CONFIG_STORAGE_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return looksLikeConfig(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
