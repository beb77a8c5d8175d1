/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The sync listeners seen from the outside (redux-mock-store records every action, in order),
 * and what redux-persist keeps: only small session state, never the outbox or the API cache.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { createListenerMiddleware } from '@reduxjs/toolkit';
import configureMockStoreImport from 'redux-mock-store';
import { thunk, withExtraArgument } from 'redux-thunk';
import type { Storage } from 'redux-persist';
import { makeStore } from '../../../src/client/app/store';
import type { AppExtra, AppStartListening } from '../../../src/client/app/store-types';
import { api } from '../../../src/client/lib/api';
import { saveEdit } from '../../../src/client/lib/db';
import {
  addSyncListeners,
  connectivitySlice,
  drainRequested,
  drainSucceeded,
  outboxChanged,
  reachabilityProbed,
  syncSlice,
  syncStarted,
  syncStopped,
} from '../../../src/client/features/sync';
import { FakeBulkServer, makeTestStore, openTestDb, settleStores, until } from './helpers';

// A budget for a loaded shared machine (several suites, real IndexedDB emulation, a real server); nothing here asserts time.
jest.setTimeout(30_000);

afterEach(settleStores);
void thunk;
// CommonJS package: Node's ESM loader hands over the module object.
const configureMockStore = ((configureMockStoreImport as unknown as { default?: typeof configureMockStoreImport }).default ??
  configureMockStoreImport) as typeof configureMockStoreImport;

function mockStoreWithListeners(extra: AppExtra, online = true) {
  const listener = createListenerMiddleware({ extra });
  addSyncListeners(listener.startListening as unknown as AppStartListening);
  const state = {
    api: api.reducer(undefined, { type: 'init' }),
    connectivity: { ...connectivitySlice.getInitialState(), serverReachable: online },
    sync: syncSlice.getInitialState(),
  };
  const middlewares = [withExtraArgument(extra), listener.middleware, api.middleware] as unknown as Parameters<typeof configureMockStore>[0];
  const mockStore = configureMockStore(middlewares);
  return mockStore(state);
}

function extraFor(db: ReturnType<typeof openTestDb>, fetchFn: typeof fetch): AppExtra {
  return {
    api: { baseUrl: 'http://server.test', fetchFn },
    db,
    refreshAuth: async () => false,
    now: () => Date.parse('2026-06-15T08:00:00Z'),
    random: () => 0.5,
    flushPersist: async () => undefined,
  };
}

const syncTypes = (actions: Array<{ type: string }>) => actions.map((a) => a.type).filter((t) => t.startsWith('sync/') || t.startsWith('offlineDb/'));

describe('sync listeners (redux-mock-store)', () => {
  it('drain: started → ids remapped → succeeded → summary, in that order; the delivery is announced once', async () => {
    const db = openTestDb();
    const server = new FakeBulkServer();
    const saved = await saveEdit(db, { kind: 'insert', projectId: 1, tableId: 6, properties: {} });
    const store = mockStoreWithListeners(extraFor(db, server.fetch));
    // syncStarted wires the announcements of lib/db (the outbox, identity) to the store.
    store.dispatch(syncStarted());
    store.dispatch(drainRequested());
    await until(() => syncTypes(store.getActions()).includes('sync/drainSucceeded'), 'drain finished');
    const drainTypes = ['sync/drainStarted', 'offlineDb/localIdsRemapped', 'sync/drainSucceeded'];
    const seen = syncTypes(store.getActions()).filter((type) => drainTypes.includes(type) || type === 'offlineDb/rowsChanged');
    expect(seen.slice(0, 3)).toEqual(drainTypes);
    // syncStarted's outbox summary is read 25 ms later; on a busy machine that read can still see
    // the edit in flight and ask for one more pass (the `again` of a running drain), which finds
    // nothing left: a started/succeeded pair that delivers nothing and announces nothing.
    expect(seen.slice(3).filter((type) => type !== 'sync/drainStarted' && type !== 'sync/drainSucceeded')).toEqual([]);
    const remapped = store.getActions().find((a) => a.type === 'offlineDb/localIdsRemapped')!;
    expect(remapped.payload).toEqual([{ localId: saved.id, id: 10_000_000, of: 'record' }]);
    expect(store.getActions().find((a) => a.type === 'sync/drainSucceeded')!.payload).toEqual({ at: '2026-06-15T08:00:00.000Z' });
    store.dispatch(syncStopped());
  });

  it('an outbox change mirrors the queue and asks for a drain; offline, nothing is sent', async () => {
    const db = openTestDb();
    let requests = 0;
    await saveEdit(db, { kind: 'insert', projectId: 1, tableId: 6, properties: {} });
    const store = mockStoreWithListeners(
      extraFor(db, async () => {
        requests++;
        throw new TypeError('offline');
      }),
      false,
    );
    store.dispatch(outboxChanged());
    await until(() => syncTypes(store.getActions()).includes('sync/drainRequested'), 'drain asked');
    expect(syncTypes(store.getActions())).toEqual(['sync/outboxChanged', 'sync/outboxSummaryLoaded', 'sync/drainRequested']);
    expect(store.getActions().find((a) => a.type === 'sync/outboxSummaryLoaded')!.payload).toEqual({ pendingCount: 1, attention: [] });
    expect(requests).toBe(0);
  });
});

describe('one drain across tabs', () => {
  it('skips the drain while another tab holds the Web Lock, and drains once it is free', async () => {
    const db = openTestDb();
    const server = new FakeBulkServer();
    await saveEdit(db, { kind: 'insert', projectId: 1, tableId: 6, properties: {} });
    let heldElsewhere = true;
    const asked: Array<{ name: string; ifAvailable?: boolean }> = [];
    const locks = {
      request: async (name: string, options: { ifAvailable?: boolean }, callback: (lock: { name: string } | null) => Promise<unknown>) => {
        asked.push({ name, ifAvailable: options.ifAvailable });
        return callback(heldElsewhere ? null : { name });
      },
    } as unknown as LockManager;
    const store = makeTestStore(db, server.fetch, { locks });
    store.dispatch(reachabilityProbed({ reachable: true, at: 'now' }));
    store.dispatch(drainRequested());
    await until(() => asked.length === 1, 'lock asked');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.calls).toHaveLength(0);
    expect(await db.outbox.count()).toBe(1);
    heldElsewhere = false;
    store.dispatch(drainRequested());
    await until(async () => (await db.outbox.count()) === 0, 'drained with the lock');
    expect(asked).toEqual([
      { name: 'moj-travnik-outbox-drain', ifAvailable: true },
      { name: 'moj-travnik-outbox-drain', ifAvailable: true },
    ]);
  });
});

describe('redux-persist', () => {
  function memoryStorage(): Storage & { data: Map<string, string> } {
    const data = new Map<string, string>();
    return {
      data,
      getItem: async (key: string) => data.get(key) ?? null,
      setItem: async (key: string, value: string) => void data.set(key, value),
      removeItem: async (key: string) => void data.delete(key),
    };
  }

  it('keeps only the last sync time, and brings it back after a reload', async () => {
    const storage = memoryStorage();
    const db = openTestDb();
    const first = makeStore(undefined, { persist: storage, extra: { db } });
    await until(() => first.persistor!.getState().bootstrapped, 'first rehydrated');
    await saveEdit(db, { kind: 'insert', projectId: 1, tableId: 6, properties: {} });
    first.dispatch(drainSucceeded({ at: '2026-06-15T08:00:00.000Z' }));
    await first.persistor!.flush();
    const stored = JSON.parse(storage.data.get('persist:moj-travnik')!) as Record<string, string>;
    expect(Object.keys(stored).sort()).toEqual(['_persist', 'sync']);
    expect(JSON.parse(stored.sync!)).toEqual({ lastSyncAt: '2026-06-15T08:00:00.000Z' });

    const second = makeStore(undefined, { persist: storage, extra: { db } });
    await until(() => second.persistor!.getState().bootstrapped, 'second rehydrated');
    expect(second.getState().sync.lastSyncAt).toBe('2026-06-15T08:00:00.000Z');
    expect(second.getState().sync.pendingCount).toBe(0); // mirrored from Dexie, not from storage
    expect(await db.outbox.count()).toBe(1); // the outbox lives in Dexie, untouched by persist
  });

  it('writes the session state when the page is hidden, before the tab may be gone', async () => {
    const storage = memoryStorage();
    let flushes = 0;
    const win = Object.assign(new EventTarget(), { navigator: { onLine: false } }) as unknown as Window;
    const store = makeStore(undefined, { persist: storage, extra: { db: openTestDb(), window: win } });
    const flush = store.persistor!.flush.bind(store.persistor);
    store.persistor!.flush = () => {
      flushes++;
      return flush();
    };
    store.dispatch(syncStarted());
    await until(() => store.persistor!.getState().bootstrapped, 'rehydrated');
    store.dispatch(drainSucceeded({ at: '2026-06-15T09:00:00.000Z' }));
    win.dispatchEvent(new Event('pagehide'));
    expect(flushes).toBe(1);
    await until(() => (storage.data.get('persist:moj-travnik') ?? '').includes('2026-06-15T09:00:00.000Z'), 'flushed');
    store.dispatch(syncStopped());
  });
});
