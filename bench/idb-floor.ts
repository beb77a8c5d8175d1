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

/**
 * The page's side, a string rather than a function: tsx's name-keeping helpers would not exist in
 * the page. Resolves to the transaction's time, from its creation to its `complete`.
 */
const PUT_10K = `(async () => {
  const name = 'bench-floor-' + Math.random().toString(36).slice(2);
  const db = await new Promise((resolve, reject) => {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => open.result.createObjectStore('records', { keyPath: 'id' });
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const rows = [];
  for (let i = 0; i < ${ROWS}; i++) {
    rows.push({ id: i + 1, tableId: 7, version: 1, properties: { '71': i % 2000, '72': 'k' + (i % 24), '73': i % 100, '74': i % 7 === 0 ? 'opomba ' + i : null } });
  }
  const start = performance.now();
  await new Promise((resolve, reject) => {
    const tx = db.transaction('records', 'readwrite');
    const store = tx.objectStore('records');
    for (const row of rows) store.put(row);
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
  const ms = performance.now() - start;
  db.close();
  await new Promise((resolve) => {
    const del = indexedDB.deleteDatabase(name);
    del.onsuccess = del.onerror = del.onblocked = resolve;
  });
  return ms;
})()`;

/**
 * `runs` measurements of the floor in a fresh context of `browser` on `origin` (IndexedDB needs
 * an origin; the page is one of the server's small JSON documents, so no app code runs beside it).
 */
export async function measureIdbFloor(browser: Browser, origin: string, page: string, runs: number): Promise<number[]> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const tab = await context.newPage();
    await tab.goto(`${origin}${page}`);
    const times: number[] = [];
    for (let run = 0; run < runs; run++) times.push((await tab.evaluate(PUT_10K)) as number);
    return times;
  } finally {
    await context.close();
  }
}
