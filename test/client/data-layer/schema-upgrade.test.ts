/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * A device that ran an earlier version of the app keeps its offline copy and its queue when the
 * database schema moves on (Dexie upgrades it in place when the app opens it).
 */
import { describe, expect, it } from '@jest/globals';
import { Dexie } from 'dexie';
import { openOfflineDb, readOutbox, readRows, searchDeviceRows, tableRows, type FeatureRow, type OutboxItem } from '../../../src/client/lib/db';
import { uniqueDbName } from './helpers';

const FORMS = 60;

/** The database as version 2 of the schema left it (copied, never imported: it must not follow the app's). */
function openVersion2(name: string): Dexie {
  return declareVersion2(new Dexie(name));
}

/** The database as version 4 of the schema left it (rows and items carry no search profile). */
function openVersion4(name: string): Dexie {
  const db = declareVersion2(new Dexie(name));
  db.version(3).stores({ features: '[tableId+featureId], tableId, featureId, profileId, [tableId+feature.id]' });
  db.version(4).stores({
    features: '[tableId+featureId], featureId, [tableId+feature.id]',
    outbox: '++seq, status, id, recordId, *refIds, [tableId+id]',
  });
  return db;
}

function declareVersion2(db: Dexie): Dexie {
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
  it("keeps rows and queued edits of a version 2 database, finds rows by their current id and a table's rows by their keys, and indexes only what rows and items are looked up by", async () => {
    const name = uniqueDbName();
    const old = openVersion2(name);
    const now = new Date().toISOString();
    const row: FeatureRow = {
      tableId: FORMS,
      featureId: 4_242,
      projectId: 1,
      feature: {
        id: 4_242,
        tableId: FORMS,
        properties: { '65': 'opomba' },
        geometry: null,
        deleted: false,
        archived: false,
        createdAt: now,
        updatedAt: now,
        version: 0,
      },
      isInsert: 1,
      isEdit: 0,
      isDelete: 0,
      isRecord: 1,
    };
    const item: OutboxItem = {
      opId: 'op-1',
      projectId: 1,
      api: 'Records',
      kind: 'insert',
      tableId: FORMS,
      id: 4_242,
      properties: { '65': 'opomba' },
      status: 'pending',
      attempts: 0,
      createdAt: now,
    };
    await old.table('features').put(row);
    await old.table('outbox').add(item);
    old.close();

    const db = openOfflineDb({ name });
    await db.open();
    expect(db.verno).toBe(5);
    expect((await readRows(db, FORMS)).map((record) => record.properties)).toEqual([{ '65': 'opomba' }]);
    expect((await readOutbox(db)).map(({ opId, kind, id }) => ({ opId, kind, id }))).toEqual([{ opId: 'op-1', kind: 'insert', id: 4_242 }]);
    expect((await tableRows(db, FORMS).toArray()).map((stored) => stored.featureId)).toEqual([4_242]);
    expect(await tableRows(db, FORMS + 1).count()).toBe(0);
    expect(db.features.schema.indexes.map((index) => index.name).sort()).toEqual(['[tableId+feature.id]', 'featureId']);
    expect(db.outbox.schema.indexes.map((index) => index.name).sort()).toEqual(['[tableId+id]', 'id', 'recordId', 'refIds', 'status']);
    db.close();
  });

  describe('version 5: rows carry the search profile they were stored under', () => {
    const FARMERS = 1;
    const now = new Date().toISOString();
    const record = (id: number, properties: FeatureRow['feature']['properties']): FeatureRow['feature'] => ({
      id,
      tableId: FARMERS,
      properties,
      geometry: null,
      deleted: false,
      archived: false,
      createdAt: now,
      updatedAt: now,
      version: id > 10_000_000 ? 3 : 0,
    });
    const rows: FeatureRow[] = [
      // A farmer added offline (queued insert) and one from the server changed offline (queued update).
      { tableId: FARMERS, featureId: 4_242, projectId: 1, feature: record(4_242, { '11': 'Ana Kovač' }), isInsert: 1, isEdit: 0, isDelete: 0, isRecord: 1 },
      {
        tableId: FARMERS,
        featureId: 10_000_007,
        projectId: 1,
        feature: record(10_000_007, { '11': 'Štefan Horvat' }),
        isInsert: 0,
        isEdit: 1,
        isDelete: 0,
        isRecord: 1,
        syncedAt: 5,
      },
      {
        tableId: FARMERS,
        featureId: 10_000_008,
        projectId: 1,
        feature: record(10_000_008, { '11': 'Marija Novak' }),
        isInsert: 0,
        isEdit: 0,
        isDelete: 0,
        isRecord: 1,
      },
    ];
    const items: OutboxItem[] = [
      {
        opId: 'op-insert',
        projectId: 1,
        api: 'Records',
        kind: 'insert',
        tableId: FARMERS,
        id: 4_242,
        properties: { '11': 'Ana Kovač' },
        status: 'pending',
        attempts: 0,
        createdAt: now,
      },
      {
        opId: 'op-update',
        projectId: 1,
        api: 'Records',
        kind: 'update',
        tableId: FARMERS,
        id: 10_000_007,
        properties: { '11': 'Štefan Horvat' },
        version: 3,
        status: 'failed',
        attempts: 2,
        error: { status: 400, message: 'Bad Request' },
        createdAt: now,
      },
      { opId: 'op-archive', projectId: 1, api: 'Records', kind: 'archive', tableId: FARMERS, id: 10_000_008, status: 'pending', attempts: 0, createdAt: now },
    ];

    async function storeVersion4(name: string): Promise<void> {
      const old = openVersion4(name);
      await old.table('features').bulkPut(rows);
      await old.table('outbox').bulkAdd(items);
      expect(old.verno).toBe(4);
      old.close();
    }

    it("stamps the rows and queued inserts and updates of a version 4 database with the device config's profile and keeps every row and queued edit as it was", async () => {
      const name = uniqueDbName();
      await storeVersion4(name);

      const db = openOfflineDb({ name, searchProfileId: 3 });
      await db.open();
      expect(db.verno).toBe(5);
      expect(await tableRows(db, FARMERS).toArray()).toEqual(rows.map((row) => ({ ...row, profileId: 3 })));
      const queued = await readOutbox(db);
      expect(queued.map(({ seq: _seq, ...item }) => item)).toEqual([{ ...items[0], profileId: 3 }, { ...items[1], profileId: 3 }, items[2]]);
      // The queued rows are found offline by the profile's text search.
      const found = await searchDeviceRows(db, { projectId: 1, profileId: 3, limit: 10, page: 1, query: 'kovac', tableIds: [FARMERS] });
      expect(found).toEqual({ records: [rows[0]!.feature], totalCount: 1 });
      db.close();
    });

    it('keeps the rows as they were when the device has no config to take the profile from', async () => {
      const name = uniqueDbName();
      await storeVersion4(name);

      const db = openOfflineDb({ name });
      await db.open();
      expect(db.verno).toBe(5);
      expect(await tableRows(db, FARMERS).toArray()).toEqual(rows);
      expect((await readOutbox(db)).map(({ seq: _seq, ...item }) => item)).toEqual(items);
      db.close();
    });
  });
});
