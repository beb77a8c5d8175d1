/**
 * Runs in Chromium (bench/sync-browser.ts builds and loads it): the offline database code of
 * lib/db on Chromium's real IndexedDB.
 */
import { LOCAL_ID_BOUND } from '../../src/common/constants';
import { newOpId, openOfflineDb, readRows, saveEdit, type FeatureRow, type OutboxItem } from '../../src/client/lib/db';

const PROJECT = 1;
const FORMS = 6;
const PATHS = 3;

function rowsAndItems(count: number, offset = 0): { rows: FeatureRow[]; items: OutboxItem[] } {
  const now = new Date().toISOString();
  const rows: FeatureRow[] = [];
  const items: OutboxItem[] = [];
  for (let i = 0; i < count; i++) {
    const id = offset + i + 1;
    const properties = { '61': 10_000_001, '65': `opomba ${i}` };
    rows.push({
      tableId: FORMS,
      featureId: id,
      projectId: PROJECT,
      feature: { id, tableId: FORMS, properties, geometry: null, deleted: false, archived: false, createdAt: now, updatedAt: now, version: 0 },
      isInsert: 1,
      isEdit: 0,
      isDelete: 0,
      isRecord: 1,
    });
    items.push({
      opId: newOpId(),
      projectId: PROJECT,
      api: 'Records',
      kind: 'insert',
      tableId: FORMS,
      id,
      properties,
      geometry: null,
      refs: ['61'],
      status: 'pending',
      attempts: 0,
      createdAt: now,
    });
  }
  return { rows, items };
}

async function dexieBulk(count: number): Promise<number> {
  const db = openOfflineDb({ name: `bench-bulk-${Date.now()}` });
  await db.open();
  const { rows, items } = rowsAndItems(count);
  const start = performance.now();
  await db.transaction('rw', db.features, db.outbox, async () => {
    await db.features.bulkPut(rows);
    await db.outbox.bulkAdd(items);
  });
  const ms = performance.now() - start;
  if ((await db.outbox.count()) !== count) throw new Error('bulk: wrong count');
  db.close();
  return ms;
}

async function dexiePerRow(count: number): Promise<number> {
  const db = openOfflineDb({ name: `bench-row-${Date.now()}` });
  await db.open();
  const start = performance.now();
  // The real saveEdit: one strict transaction per edit (row + queued operation).
  for (let i = 0; i < count; i++)
    await saveEdit(db, { kind: 'insert', projectId: PROJECT, tableId: FORMS, properties: { '61': 10_000_001, '65': `opomba ${i}` }, refs: ['61'] });
  const ms = performance.now() - start;
  if ((await db.outbox.count()) !== count) throw new Error('per row: wrong count');
  db.close();
  return ms;
}

async function offlinePaths(count: number): Promise<number> {
  const db = openOfflineDb({ name: `bench-paths-${Date.now()}` });
  const now = new Date().toISOString();
  const rows: FeatureRow[] = [];
  for (let i = 0; i < count; i++) {
    const id = LOCAL_ID_BOUND + i;
    const coordinates = Array.from({ length: 20 }, (_, k) => [16.2 + i * 1e-5 + k * 1e-4, 46.8 + k * 1e-4]);
    rows.push({
      tableId: PATHS,
      featureId: id,
      projectId: PROJECT,
      feature: {
        id,
        tableId: PATHS,
        properties: { '31': `Pot ${i}`, '32': 10_000_000 + (i % 500), '33': 250 },
        geometry: { type: 'LineString', coordinates },
        deleted: false,
        archived: false,
        createdAt: now,
        updatedAt: now,
        version: 1,
      },
      isInsert: 0,
      isEdit: 0,
      isDelete: 0,
      isRecord: 1,
    });
  }
  await db.features.bulkPut(rows);
  db.close();
  // A fresh connection, as when the app opens offline: read the paths of every area.
  const reopened = openOfflineDb({ name: db.name });
  const start = performance.now();
  const paths = await readRows(reopened, PATHS, (row) => typeof row.properties['32'] === 'number');
  const ms = performance.now() - start;
  if (paths.length !== count) throw new Error(`paths: ${paths.length}`);
  reopened.close();
  return ms;
}

(window as unknown as { syncBench: unknown }).syncBench = { dexieBulk, dexiePerRow, offlinePaths };
