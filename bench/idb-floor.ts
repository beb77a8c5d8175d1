/**
 * floor.idb_put_10k_ms: raw IndexedDB in the Chromium under measurement, putting 10,000 rows in
 * one transaction (no Dexie, no app code, no throttling): the yardstick the browser figures of the
 * same run are read against, since this shared machine's speed moves a lot between runs.
 *
 * Each row is shaped like a stored record (id, table id, a few properties), so its structured
 * clone costs what the app's rows cost. Each measurement is on a database of its own, deleted
 * afterwards; the figure is the median of the measurements taken in the run (some at its start,
 * some at its end, so a load that changes during the run moves the floor with it).
 */
import type { Browser } from 'playwright-core';

export const FLOOR_NAME = 'floor.idb_put_10k_ms';
const ROWS = 10_000;

/** An object store as the page creates it (the drain's floor takes the app's from database.ts). */
interface StoreSpec {
  name: string;
  keyPath: string | string[];
  autoIncrement: boolean;
  indexes: Array<{ name: string; keyPath: string | string[]; unique: boolean; multiEntry: boolean }>;
}

/**
 * What both floors' page scripts share, as page code: a database of its own with the stores given
 * (`openDb`), a transaction run to its `complete` (`runTx`), the database deleted afterwards
 * (`dropDb`), and the properties of row `i`, shaped like a stored record's.
 */
const PAGE_HELPERS = `
  const openDb = async (stores) => {
    const name = 'bench-floor-' + Math.random().toString(36).slice(2);
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open(name, 1);
      request.onupgradeneeded = () => {
        for (const spec of stores) {
          const store = request.result.createObjectStore(spec.name, { keyPath: spec.keyPath, autoIncrement: spec.autoIncrement });
          for (const index of spec.indexes) store.createIndex(index.name, index.keyPath, { unique: index.unique, multiEntry: index.multiEntry });
        }
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    return { db, name };
  };
  const runTx = (db, names, mode, durability, work) =>
    new Promise((resolve, reject) => {
      const tx = db.transaction(names, mode, { durability });
      work(tx);
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  const dropDb = async ({ db, name }) => {
    db.close();
    await new Promise((resolve) => {
      const del = indexedDB.deleteDatabase(name);
      del.onsuccess = del.onerror = del.onblocked = resolve;
    });
  };
  const properties = (i) => ({ '71': i % 2000, '72': 'k' + (i % 24), '73': i % 100, '74': i % 7 === 0 ? 'opomba ' + i : null });
`;

const RECORDS_STORE: StoreSpec = { name: 'records', keyPath: 'id', autoIncrement: false, indexes: [] };

/**
 * The page's side, a string rather than a function: tsx's name-keeping helpers would not exist in
 * the page. Resolves to the transaction's time, from its creation to its `complete`.
 */
const PUT_10K = `(async () => {
  ${PAGE_HELPERS}
  const set = await openDb(${JSON.stringify([RECORDS_STORE])});
  const rows = [];
  for (let i = 0; i < ${ROWS}; i++) rows.push({ id: i + 1, tableId: 7, version: 1, properties: properties(i) });
  const start = performance.now();
  await runTx(set.db, ['records'], 'readwrite', 'default', (tx) => {
    const store = tx.objectStore('records');
    for (const row of rows) store.put(row);
  });
  const ms = performance.now() - start;
  await dropDb(set);
  return ms;
})()`;

/**
 * `runs` results of the page script `script` in a fresh context of `browser` on `origin`
 * (IndexedDB needs an origin; the page is one of the server's small JSON documents, so no app code
 * runs beside it), one after another.
 */
async function runInPage<T>(browser: Browser, origin: string, page: string, runs: number, script: string): Promise<T[]> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const tab = await context.newPage();
    await tab.goto(`${origin}${page}`);
    const results: T[] = [];
    for (let run = 0; run < runs; run++) results.push((await tab.evaluate(script)) as T);
    return results;
  } finally {
    await context.close();
  }
}

/** `runs` measurements of the floor (PUT_10K) on `origin`. */
export function measureIdbFloor(browser: Browser, origin: string, page: string, runs: number): Promise<number[]> {
  return runInPage<number>(browser, origin, page, runs, PUT_10K);
}

export const DRAIN_FLOOR_NAME = 'floor.idb_drain_10k_ms';

/** The device rows' and the queue's stores as the app's database declares them (keys and indexes). */
async function deviceStores(): Promise<StoreSpec[]> {
  const { OfflineDb } = await import('../src/client/lib/db/database');
  // Dexie declares its tables when the versions are, without opening anything.
  const db = new OfflineDb('bench-schema', { indexedDB: {} as IDBFactory, IDBKeyRange: {} as typeof IDBKeyRange });
  return db.tables
    .filter((table) => table.name === 'features' || table.name === 'outbox')
    .map(({ name, schema: { primKey, indexes } }) => ({
      name,
      keyPath: primKey.keyPath!,
      autoIncrement: !!primKey.auto,
      indexes: indexes.map((index) => ({ name: index.name, keyPath: index.keyPath!, unique: !!index.unique, multiEntry: !!index.multi })),
    }));
}

/**
 * The page's side of the drain's floor: what a drain of ROWS queued edits must do on the device
 * in this design, and nothing else, in raw IndexedDB. Set up (not timed): ROWS edited device rows
 * and ROWS queued updates of them, in the app's stores (keys and indexes from database.ts), the
 * rows' properties those of the floor above. Timed, per call of `chunk` edits as the drain sends
 * them: the queued items read by their key range; then one durable transaction (the app's
 * `strict`) that deletes them by that range and puts each acknowledged row over its earlier copy.
 * `rowsMs` is the same with the rows' puts alone (no queue to read or empty): a design keeping the
 * queued edits inside the rows.
 */
const DRAIN_10K = (stores: StoreSpec[], chunk: number) => `(async () => {
  ${PAGE_HELPERS}
  const stores = ${JSON.stringify(stores)};
  const chunk = ${chunk};
  const record = (i, version) => ({ id: i + 1, tableId: 7, properties: properties(i), deleted: false, archived: false, createdAt: '2026-06-01T08:00:00.000Z', updatedAt: '2026-06-01T08:00:0' + version + '.000Z', version });
  const row = (i, version, edited) => ({ tableId: 7, featureId: i + 1, projectId: 1, feature: record(i, version), isInsert: 0, isEdit: edited ? 1 : 0, isDelete: 0, isRecord: 1, syncedAt: 1780000000000 + version, profileId: 1 });
  const item = (i) => ({ opId: 'op-' + i, projectId: 1, api: 'Records', kind: 'update', tableId: 7, id: i + 1, properties: properties(i), version: 1, status: 'pending', attempts: 0, createdAt: '2026-06-01T08:00:00.000Z', profileId: 1 });
  const setUp = async (withQueue) => {
    const { db, name } = await openDb(stores);
    await runTx(db, ['features', 'outbox'], 'readwrite', 'relaxed', (tx) => {
      for (let i = 0; i < ${ROWS}; i++) {
        tx.objectStore('features').put(row(i, 1, true));
        if (withQueue) tx.objectStore('outbox').put(item(i));
      }
    });
    const acked = [];
    for (let i = 0; i < ${ROWS}; i++) acked.push(row(i, 2, false));
    return { db, name, acked };
  };
  const drain = async (withQueue) => {
    const set = await setUp(withQueue);
    const start = performance.now();
    for (let from = 0; from < ${ROWS}; from += chunk) {
      const seqs = IDBKeyRange.bound(from + 1, from + chunk);
      if (withQueue) await runTx(set.db, ['outbox'], 'readonly', 'default', (tx) => tx.objectStore('outbox').getAll(seqs));
      await runTx(set.db, withQueue ? ['features', 'outbox'] : ['features'], 'readwrite', 'strict', (tx) => {
        if (withQueue) tx.objectStore('outbox').delete(seqs);
        const features = tx.objectStore('features');
        for (let i = from; i < from + chunk; i++) features.put(set.acked[i]);
      });
    }
    const ms = performance.now() - start;
    await dropDb(set);
    return ms;
  };
  return { ms: await drain(true), rowsMs: await drain(false) };
})()`;

/**
 * `runs` measurements of the drain's floor (DRAIN_10K) in a fresh context of `browser` on `origin`,
 * edits sent `chunk` to a call.
 */
export async function measureIdbDrainFloor(
  browser: Browser,
  origin: string,
  page: string,
  runs: number,
  chunk: number,
): Promise<Array<{ ms: number; rowsMs: number }>> {
  return runInPage(browser, origin, page, runs, DRAIN_10K(await deviceStores(), chunk));
}
