/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * A device that ran an earlier version of the app keeps its offline copy and its queue when the
 * database schema moves on (Dexie upgrades it in place when the app opens it).
 */
import { describe, expect, it } from '@jest/globals';
import { Dexie } from 'dexie';
import { openOfflineDb, readOutbox, readRows, tableRows, type FeatureRow, type OutboxItem } from '../../../src/client/lib/db';
import { uniqueDbName } from './helpers';

const FORMS = 60;

/** The database as version 2 of the schema left it (copied, never imported: it must not follow the app's). */
function openVersion2(name: string): Dexie {
  const db = new Dexie(name);
  db.version(1).stores({
    extents: '++id, name',
    vectorTiles: '++id, extentId, [extentId+tableId]',
    features: '[tableId+featureId], tableId, featureId, isInsert, isEdit, isDelete, isRecord, profileId',
    baseMapTiles: 'url, extentId',
    rasters: 'url, extentId, rasterId',
    attachments: 'id, [tableId+featureId], featureId, tableAttachmentInfoId, isInsert, isEdit, isDelete, projectId',
    localLayers: '++id, name',
  });
  db.version(2).stores({
    outbox: '++seq, &opId, status, id, recordId, *refIds, [tableId+id]',
    meta: 'key',
  });
  return db;
}

describe('the offline database schema', () => {
  it('keeps rows and queued edits of a version 2 database, finds rows by their current id and a table\'s rows by their keys, and indexes only what rows and items are looked up by', async () => {
    const name = uniqueDbName();
    const old = openVersion2(name);
    const now = new Date().toISOString();
    const row: FeatureRow = {
      tableId: FORMS,
      featureId: 4_242,
      projectId: 1,
      feature: { id: 4_242, tableId: FORMS, properties: { '65': 'opomba' }, geometry: null, deleted: false, archived: false, createdAt: now, updatedAt: now, version: 0 },
      isInsert: 1,
      isEdit: 0,
      isDelete: 0,
      isRecord: 1,
    };
    const item: OutboxItem = { opId: 'op-1', projectId: 1, api: 'Records', kind: 'insert', tableId: FORMS, id: 4_242, properties: { '65': 'opomba' }, status: 'pending', attempts: 0, createdAt: now };
    await old.table('features').put(row);
    await old.table('outbox').add(item);
    old.close();

    const db = openOfflineDb({ name });
    await db.open();
    expect(db.verno).toBe(4);
    expect((await readRows(db, FORMS)).map((record) => record.properties)).toEqual([{ '65': 'opomba' }]);
    expect((await readOutbox(db)).map(({ opId, kind, id }) => ({ opId, kind, id }))).toEqual([{ opId: 'op-1', kind: 'insert', id: 4_242 }]);
    expect((await tableRows(db, FORMS).toArray()).map((stored) => stored.featureId)).toEqual([4_242]);
    expect(await tableRows(db, FORMS + 1).count()).toBe(0);
    expect(db.features.schema.indexes.map((index) => index.name).sort()).toEqual(['[tableId+feature.id]', 'featureId']);
    expect(db.outbox.schema.indexes.map((index) => index.name).sort()).toEqual(['[tableId+id]', 'id', 'recordId', 'refIds', 'status']);
    db.close();
  });
});
