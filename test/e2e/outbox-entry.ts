/** Browser entry of outbox-durability.test.ts: lib/db's outbox on Chromium's IndexedDB. */
import { openOfflineDb, readOutbox, saveEdit } from '../../src/client/lib/db';

const db = openOfflineDb();

(window as unknown as { outbox: unknown }).outbox = {
  async save(note: string) {
    const saved = await saveEdit(db, { kind: 'insert', projectId: 1, tableId: 6, properties: { '65': note } });
    return saved.opId;
  },
  async items() {
    return (await readOutbox(db)).map((item) => ({ opId: item.opId, note: item.properties?.['65'], status: item.status }));
  },
  async rows() {
    return (await db.features.toArray()).map((row) => ({ isInsert: row.isInsert, note: row.feature.properties['65'] }));
  },
};
