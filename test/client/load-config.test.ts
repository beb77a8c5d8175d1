import { describe, expect, it, jest } from '@jest/globals';
import { CONFIG_LOAD_ERROR_LOG, CONFIG_STORAGE_KEY, loadConfig } from '../../src/client/lib/config/load-config';
import { configLoaded, configSlice } from '../../src/client/lib/config/config-slice';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

const config = { version: '1', projectId: 1, searchProfileId: 1, tables: {}, forms: {}, basemaps: [], auth: { mode: 'none' } };
// jsdom has no Response class; the loader only reads ok, status and json().
const jsonResponse = (body: unknown, status = 200) => ({ ok: status >= 200 && status < 300, status, json: async () => body });

describe('loadConfig', () => {
  it('loads /config.json and keeps it as the last good copy', async () => {
    const storage = memoryStorage();
    const fetch = jest.fn(async (_url: string, _init?: RequestInit) => jsonResponse(config));
    const result = await loadConfig({ fetch: fetch as unknown as typeof globalThis.fetch, storage, log: jest.fn() });
    expect(fetch).toHaveBeenCalledWith('/config.json', expect.anything());
    expect(result).toEqual({ config, source: 'network' });
    expect(JSON.parse(storage.data.get(CONFIG_STORAGE_KEY)!)).toEqual(config);
  });

  it.each([
    ['network error', async () => Promise.reject(new TypeError('Failed to fetch'))],
    ['HTTP 503', async () => jsonResponse({ status: 503, message: 'Service Unavailable' }, 503)],
    ['not a config', async () => jsonResponse({ hello: 'world' })],
  ])('%s: logs "error loading config" and falls back to the last good copy', async (_name, fetchImpl) => {
    const storage = memoryStorage({ [CONFIG_STORAGE_KEY]: JSON.stringify(config) });
    const log = jest.fn();
    const result = await loadConfig({ fetch: jest.fn(fetchImpl) as unknown as typeof globalThis.fetch, storage, log });
    expect(CONFIG_LOAD_ERROR_LOG).toBe('error loading config');
    expect(log).toHaveBeenCalledWith('error loading config', expect.anything());
    expect(result).toEqual({ config, source: 'last-good' });
  });

  it('with no copy at all the result is empty and the slice says failed', async () => {
    const result = await loadConfig({
      fetch: (async () => Promise.reject(new TypeError('offline'))) as unknown as typeof globalThis.fetch,
      storage: memoryStorage({ [CONFIG_STORAGE_KEY]: '{broken' }),
      log: () => undefined,
    });
    expect(result).toEqual({ config: null, source: null });
    const state = configSlice.reducer(undefined, configLoaded(result));
    expect(state.status).toBe('failed');
    expect(configSlice.reducer(undefined, configLoaded({ config: config as never, source: 'network' })).status).toBe('ready');
  });
});
