/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The outbox as the client sees it (docs/architecture.md, Sync rules). The server here is an in-memory stand-in of the
 * bulk endpoint with the same per-opId dedup contract: these tests are about the client's queue
 * (what is stored, in what order, how it is batched and remapped, what the user sees), and the
 * real server is exercised in outbox-real-server.test.ts.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { LOCAL_ID_BOUND, MODIFY_CHUNK_SIZE, SYNC_BACKOFF_MAX_MS, SYNC_BACKOFF_START_MS, TOMBSTONE_KEEP_MS } from '../../../src/common/constants';
import { slSync } from '../../../src/common/i18n/sl';
import {
  deviceRow,
  tableRows,
  acknowledge,
  newOpId,
  readOutbox,
  saveEdit,
  saveEdits,
  newLocalIds,
  readRows,
  refreshRows,
  keepMine,
  takeTheirs,
  retryItem,
  discardItem,
  resolveIds,
  deliveredAmong,
  type LocalEdit,
  type OutboxItem,
} from '../../../src/client/lib/db';
import type { WireRecord } from '../../../src/common/schemas/wire';
import {
  backoffDelay,
  browserOnlineChanged,
  drainOnce,
  editsSaved,
  outboxChanged,
  reachabilityProbed,
  rtkQueryTransport,
  selectConflicts,
  selectFailedItems,
  selectPendingCount,
  selectStorageError,
  syncStarted,
  syncStopped,
} from '../../../src/client/features/sync';
import { FakeBulkServer, makeTestStore, openTestDb, response, settleStores, uniqueDbName, until } from './helpers';

// A budget for a loaded shared machine (several suites, real IndexedDB emulation, a real server); nothing here asserts time.
jest.setTimeout(30_000);

// Stores keep listeners (timers, probes) alive: stop and settle them after each test.
afterEach(settleStores);

const P = 1;
const FORMS = 6;
const INDICATORS = 7;
const DURATION_PATHS = 5;

function drain(store: ReturnType<typeof makeTestStore>, maxBatch?: number) {
  return drainOnce({ db: store.extra.db, transport: rtkQueryTransport(store.dispatch), maxBatch });
}

/**
 * Queues `count` inserts of forms (note '65' = 0, 1, …) as saveEdit stores them, in one
 * transaction (a long queue without a transaction per edit).
 */
async function queueInserts(db: ReturnType<typeof openTestDb>, count: number): Promise<void> {
  const createdAt = new Date().toISOString();
  const edits = [...Array(count).keys()].map((n) => ({ id: n + 1, properties: { '65': n } }));
  await db.transaction('rw', db.features, db.outbox, async () => {
    await db.features.bulkPut(
      edits.map(({ id, properties }) => ({
        tableId: FORMS,
        featureId: id,
        projectId: P,
        feature: { id, tableId: FORMS, properties, geometry: null, deleted: false, archived: false, createdAt, updatedAt: createdAt, version: 0 },
        isInsert: 1 as const,
        isEdit: 0 as const,
        isDelete: 0 as const,
        isRecord: 1 as const,
      })),
    );
    await db.outbox.bulkAdd(
      edits.map(({ id, properties }) => ({
        opId: newOpId(),
        projectId: P,
        api: 'Records' as const,
        kind: 'insert' as const,
        tableId: FORMS,
        id,
        properties,
        geometry: null,
        status: 'pending' as const,
        attempts: 0,
        createdAt,
      })),
    );
  });
}

/** Lets the sync slice mirror the outbox (what the sync panel shows) and waits for `predicate`. */
async function mirrored(store: ReturnType<typeof makeTestStore>, predicate: (state: ReturnType<typeof store.getState>) => boolean, label: string) {
  store.dispatch(outboxChanged());
  await until(() => predicate(store.getState()), label);
}

describe('saving an edit', () => {
  it('stores the row flagged isInsert with a random local id below 10,000,000 and queues it, before resolving', async () => {
    const db = openTestDb();
    const saved = await saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '62': 1 } });
    expect(saved.id).toBeGreaterThan(0);
    expect(saved.id).toBeLessThan(LOCAL_ID_BOUND);
    const row = await deviceRow(db, FORMS, saved.id);
    expect(row).toMatchObject({ isInsert: 1, isEdit: 0, isDelete: 0, isRecord: 1 });
    const [item] = await readOutbox(db);
    expect(item).toMatchObject({ kind: 'insert', id: saved.id, status: 'pending', opId: saved.opId });
    // A version 7 UUID: its first 48 bits are the time in milliseconds.
    expect(item!.opId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const millis = parseInt(item!.opId.replace(/-/g, '').slice(0, 12), 16);
    expect(Math.abs(millis - Date.now())).toBeLessThan(60_000);
  });

  it('gives operation ids that sort in the order they were made (the server appends them to its index)', () => {
    const made: string[] = [];
    const start = Date.now();
    // Across at least one change of millisecond; ids of the same millisecond differ in their random bits.
    while (Date.now() < start + 3 || made.length < 100) made.push(newOpId());
    expect(new Set(made).size).toBe(made.length);
    const millis = made.map((id) => parseInt(id.replace(/-/g, '').slice(0, 12), 16));
    expect(millis).toEqual([...millis].sort((a, b) => a - b));
    expect(new Set(millis).size).toBeGreaterThan(1);
  });

  it('flags edits and deletes of server rows isEdit / isDelete', async () => {
    const db = openTestDb();
    await db.features.put({
      tableId: FORMS,
      featureId: 10_000_001,
      projectId: P,
      feature: { id: 10_000_001, tableId: FORMS, properties: { '65': 'a' }, deleted: false, archived: false, createdAt: '', updatedAt: '', version: 3 },
      isInsert: 0,
      isEdit: 0,
      isDelete: 0,
      isRecord: 1,
    });
    await saveEdit(db, { kind: 'update', projectId: P, tableId: FORMS, id: 10_000_001, properties: { '65': 'b' } });
    expect(await deviceRow(db, FORMS, 10_000_001)).toMatchObject({ isEdit: 1, feature: { properties: { '65': 'b' } } });
    await saveEdit(db, { kind: 'delete', projectId: P, tableId: FORMS, id: 10_000_001 });
    expect(await deviceRow(db, FORMS, 10_000_001)).toMatchObject({ isDelete: 1 });
    const items = await readOutbox(db);
    expect(items.map((i) => [i.kind, i.version])).toEqual([
      ['update', 3],
      ['delete', undefined],
    ]);
    expect(await readRows(db, FORMS)).toEqual([]);
  });

  it("saves a form's edits together, in one transaction: a failure at the third stores none of them", async () => {
    const db = openTestDb();
    await db.open();
    let queued = 0;
    db.outbox.hook('creating', () => {
      queued++;
      if (queued === 3) throw new Error('the disk went away');
    });
    const edits: LocalEdit[] = [
      { kind: 'insert', projectId: P, tableId: INDICATORS, properties: { '71': 'salvia-pratensis' } },
      { kind: 'insert', projectId: P, tableId: INDICATORS, properties: { '71': 'solidago' } },
      { kind: 'update', projectId: P, tableId: FORMS, id: 10_000_001, properties: { '65': 'opomba' } },
    ];
    await expect(saveEdits(db, edits)).rejects.toThrow();
    expect(await readOutbox(db)).toEqual([]);
    expect(await db.features.count()).toBe(0);
  });

  it("a new row's photo names the row by its place in the save, and its bytes are read before the transaction", async () => {
    const db = openTestDb();
    const photo = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], { type: 'image/jpeg' });
    const saved = await saveEdits(db, [
      { kind: 'insert', projectId: P, tableId: INDICATORS, properties: { '71': 'salvia-pratensis' } },
      {
        kind: 'attachment',
        projectId: P,
        tableId: INDICATORS,
        recordId: { savedIndex: 0 },
        tableAttachmentInfoId: 1,
        name: 'a.jpg',
        mimeType: 'image/jpeg',
        data: photo,
      },
      { kind: 'update', projectId: P, tableId: INDICATORS, id: { savedIndex: 0 }, properties: { '72': true } },
    ]);
    expect(saved).toHaveLength(3);
    const [indicator, attachment, update] = await readOutbox(db);
    expect(indicator).toMatchObject({ kind: 'insert', id: saved[0]!.id });
    expect(attachment).toMatchObject({ kind: 'attachment', id: saved[1]!.id, recordId: saved[0]!.id });
    expect(update).toMatchObject({ kind: 'update', id: saved[0]!.id, properties: { '71': 'salvia-pratensis', '72': true } });
    const file = await db.attachments.get(saved[1]!.id);
    expect(file).toMatchObject({ featureId: saved[0]!.id, size: 4 });
    expect(new Uint8Array(file!.data!)).toEqual(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]));
  });

  it('gives new rows ids no row, file, queued item or delivered row of the device has, distinct within one save', async () => {
    const db = openTestDb();
    const form = await saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: {} });
    const [item] = await readOutbox(db);
    await acknowledge(db, [{ item: item!, id: 10_000_900 }]);
    const queued = await saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: {} });
    // Each id is drawn as random() * LOCAL_ID_BOUND: the delivered one, the queued one, one drawn twice, then new ones.
    const draws = [form.id, queued.id, 777, 777, 778, 779].map((id) => (id - 1 + 0.5) / (LOCAL_ID_BOUND - 1));
    let next = 0;
    const ids = await db.transaction('rw', [db.features, db.attachments, db.outbox, db.meta], () => newLocalIds(db, 3, () => draws[next++]!));
    expect(ids).toEqual([777, 778, 779]);
  });

  it('refuses an edit that names a later edit of the same save, and stores nothing', async () => {
    const db = openTestDb();
    await expect(
      saveEdits(db, [
        { kind: 'update', projectId: P, tableId: INDICATORS, id: { savedIndex: 1 }, properties: { '72': true } },
        { kind: 'insert', projectId: P, tableId: INDICATORS, properties: { '71': 'solidago' } },
      ]),
    ).rejects.toThrow();
    expect(await readOutbox(db)).toEqual([]);
  });

  it('translates an offline id that was already delivered when a later edit still names it', async () => {
    // A screen that still holds the offline id of a form the outbox has delivered (the form got
    // its server id meanwhile) saves an indicator under it and edits the form: both must be sent
    // with the server id, or the server refuses them as unknown rows.
    const db = openTestDb();
    const form = await saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '62': 1 } });
    const [item] = await readOutbox(db);
    await acknowledge(db, [{ item: item!, id: 10_000_500 }]);
    expect(await readOutbox(db)).toEqual([]);

    await saveEdit(db, { kind: 'insert', projectId: P, tableId: INDICATORS, properties: { '70': form.id, '71': 'salvia-pratensis' }, refs: ['70'] });
    await saveEdit(db, { kind: 'update', projectId: P, tableId: FORMS, id: form.id, properties: { '65': 'opomba' } });
    await saveEdit(db, {
      kind: 'attachment',
      projectId: P,
      tableId: FORMS,
      recordId: form.id,
      tableAttachmentInfoId: 1,
      name: 'a.jpg',
      mimeType: 'image/jpeg',
      data: new ArrayBuffer(4),
    });
    const [indicator, update, attachment] = await readOutbox(db);
    expect(indicator).toMatchObject({ kind: 'insert', properties: { '70': 10_000_500 } });
    expect(indicator!.refIds).toBeUndefined();
    expect(update).toMatchObject({ kind: 'update', id: 10_000_500, properties: { '65': 'opomba' } });
    expect(attachment).toMatchObject({ kind: 'attachment', recordId: 10_000_500 });
    // The device copy follows too: the edit lands on the delivered row, not on a revived offline one.
    expect(await deviceRow(db, FORMS, form.id)).toBeUndefined();
    expect(await readRows(db, FORMS)).toEqual([expect.objectContaining({ id: 10_000_500, properties: { '62': 1, '65': 'opomba' } })]);
  });

  it('keeps the delivered ids of one acknowledgement in one device row, found again by a fresh tab, rows of the older one-per-id layout too', async () => {
    const name = uniqueDbName();
    const db = openTestDb(name);
    const forms = await Promise.all([1, 2, 3].map(() => saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '62': 1 } })));
    const queued = await readOutbox(db);
    await acknowledge(
      db,
      queued.map((item, index) => ({ item, id: 10_000_700 + index })),
    );
    const delivered = await db.meta.where('key').startsWith('delivered:').toArray();
    expect(delivered).toHaveLength(1);
    // Written by an earlier version of the app: one row per delivered id.
    await db.meta.put({ key: 'delivered:record:4242', value: 10_000_799 });
    db.close();
    const fresh = openTestDb(name);
    const ids = [...forms.map((form) => form.id), 4242];
    expect(await resolveIds(fresh, 'record', ids)).toEqual(
      new Map([
        [forms[0]!.id, 10_000_700],
        [forms[1]!.id, 10_000_701],
        [forms[2]!.id, 10_000_702],
        [4242, 10_000_799],
      ]),
    );
    expect((await deliveredAmong(fresh, [4242])).has(4242)).toBe(true);
    expect((await deliveredAmong(fresh, [4243])).has(4243)).toBe(false);
  });

  it('survives a reload: a new store over the same IndexedDB finds the queue and drains it', async () => {
    const name = uniqueDbName('reload');
    const server = new FakeBulkServer();
    const first = makeTestStore(openTestDb(name), server.fetch);
    for (let i = 0; i < 5; i++)
      await first.dispatch(editsSaved({ edits: [{ kind: 'insert', projectId: P, tableId: FORMS, properties: { '65': `n${i}` } }] })).unwrap();
    first.extra.db.close(); // the tab is gone

    const db = openTestDb(name);
    const second = makeTestStore(db, server.fetch);
    expect((await readOutbox(db)).map((i) => i.properties!['65'])).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
    second.dispatch(browserOnlineChanged(true));
    second.dispatch(reachabilityProbed({ reachable: true, at: 'now' }));
    second.dispatch(outboxChanged());
    await until(async () => (await db.outbox.count()) === 0, 'drained');
    await until(() => selectPendingCount(second.getState()) === 0, 'count mirrored');
    expect([...server.rows.values()].map((r) => r.properties['65'])).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
  });
});

describe('draining', () => {
  it('sends in order, in bulk calls of at most MODIFY_CHUNK_SIZE operations', async () => {
    const server = new FakeBulkServer();
    const store = makeTestStore(openTestDb(), server.fetch);
    const count = 2 * MODIFY_CHUNK_SIZE + 50;
    await queueInserts(store.extra.db, count);
    const outcome = await drain(store);
    expect(outcome).toMatchObject({ kind: 'done', sent: count, requests: 3 });
    expect(server.calls.map((c) => c.length)).toEqual([MODIFY_CHUNK_SIZE, MODIFY_CHUNK_SIZE, 50]);
    expect(server.calls.flat().map((op) => (op.kind === 'insert' ? op.properties['65'] : null))).toEqual([...Array(count).keys()]);
    expect(await store.extra.db.outbox.count()).toBe(0);
  });

  it('reads a long queue a page at a time: the first call goes before the whole queue is read, and every item goes once, in order', async () => {
    const db = openTestDb();
    let itemsRead = 0;
    db.use({
      stack: 'dbcore',
      name: 'count-outbox-reads',
      create: (down) => ({
        ...down,
        table: (name) => {
          const table = down.table(name);
          if (name !== 'outbox') return table;
          return {
            ...table,
            query: async (req) => {
              const answer = await table.query(req);
              if (req.values) itemsRead += answer.result.length;
              return answer;
            },
          };
        },
      }),
    });
    const server = new FakeBulkServer();
    const readBeforeCalls: number[] = [];
    const store = makeTestStore(db, async (input, init) => {
      if (String(input).endsWith('/bulk')) readBeforeCalls.push(itemsRead);
      return server.fetch(input, init);
    });
    await queueInserts(db, 450);
    itemsRead = 0;
    // Calls of 10: pages of 100 (the fewest read at a time).
    expect(await drain(store, 10)).toMatchObject({ kind: 'done', sent: 450, requests: 45 });
    expect(readBeforeCalls[0]).toBeLessThanOrEqual(200);
    expect(server.calls.flat().map((op) => (op.kind === 'insert' ? op.properties['65'] : null))).toEqual([...Array(450).keys()]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('sends a number that happens to equal an offline id unchanged when its column is not a reference', async () => {
    const server = new FakeBulkServer();
    const store = makeTestStore(openTestDb(), server.fetch);
    const first = await saveEdit(store.extra.db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '65': 0 } });
    await saveEdit(store.extra.db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '65': first.id } });
    expect(await drain(store)).toMatchObject({ kind: 'done', sent: 2 });
    expect([...server.rows.values()].map((row) => row.properties['65'])).toEqual([0, first.id]);
  });

  it('keeps Records and Features operations in separate consecutive calls', async () => {
    const server = new FakeBulkServer();
    const urls: string[] = [];
    const store = makeTestStore(openTestDb(), async (input, init) => {
      urls.push(String(input));
      return server.fetch(input, init);
    });
    await saveEdit(store.extra.db, { kind: 'insert', projectId: P, tableId: FORMS, properties: {} });
    await saveEdit(store.extra.db, {
      kind: 'insert',
      projectId: P,
      tableId: 3,
      properties: {},
      geometry: {
        type: 'LineString',
        coordinates: [
          [16.2, 46.8],
          [16.21, 46.81],
        ],
      },
      isRecord: false,
    });
    await saveEdit(store.extra.db, { kind: 'insert', projectId: P, tableId: FORMS, properties: {} });
    await drain(store);
    expect(urls).toEqual(['http://server.test/api/Records/1/bulk', 'http://server.test/api/Features/1/bulk', 'http://server.test/api/Records/1/bulk']);
  });

  it('replaces offline ids by server ids in Dexie and in every queued operation that refers to them', async () => {
    const server = new FakeBulkServer();
    const store = makeTestStore(openTestDb(), server.fetch);
    const db = store.extra.db;
    // An offline-made durationPath, a form under it, an indicator under the form, a photo of the indicator.
    const dp = await saveEdit(db, {
      kind: 'insert',
      projectId: P,
      tableId: DURATION_PATHS,
      properties: { '51': 10_000_500, '52': 10_000_600 },
      refs: ['51', '52'],
    });
    const form = await saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '61': dp.id, '62': 1 }, refs: ['61'] });
    const indicator = await saveEdit(db, { kind: 'insert', projectId: P, tableId: INDICATORS, properties: { '71': form.id, '72': 'briza' }, refs: ['71'] });
    await saveEdit(db, { kind: 'update', projectId: P, tableId: FORMS, id: form.id, properties: { '65': 'opomba' } });
    const photo = await saveEdit(db, {
      kind: 'attachment',
      projectId: P,
      tableId: INDICATORS,
      recordId: indicator.id,
      tableAttachmentInfoId: 700,
      name: 'a.jpg',
      mimeType: 'image/jpeg',
      data: new Uint8Array([0xff, 0xd8, 0xff]).buffer,
    });

    // First call: only the durationPath goes (then the drain stops as if the connection dropped).
    server.fail = (call) => (call === 2 ? response({ status: 503, body: { status: 503, message: 'Service Unavailable' } }) : undefined);
    const partial = await drainOnce({ db, transport: rtkQueryTransport(store.dispatch), maxBatch: 1 });
    expect(partial.kind).toBe('transient');
    const dpServerId = server.calls[0]![0]!.kind === 'insert' ? [...server.rows.keys()][0]! : -1;
    expect(dpServerId).toBeGreaterThanOrEqual(LOCAL_ID_BOUND);

    // Dexie follows: the durationPath row has its server id (under the key it had: a delivered
    // row is never moved), the queued form points at it.
    expect(await deviceRow(db, DURATION_PATHS, dp.id)).toBeUndefined();
    expect(await deviceRow(db, DURATION_PATHS, dpServerId)).toMatchObject({ featureId: dp.id, isInsert: 0, feature: { id: dpServerId } });
    expect(await db.features.get([DURATION_PATHS, dpServerId])).toBeUndefined();
    const queued = await readOutbox(db);
    expect(queued.find((i) => i.kind === 'insert' && i.tableId === FORMS)!.properties!['61']).toBe(dpServerId);
    expect((await deviceRow(db, FORMS, form.id))!.feature.properties['61']).toBe(dpServerId);

    // The rest drains; the photo goes to the indicator's server id with its opId as Idempotency-Key.
    server.fail = undefined;
    const uploads: Array<{ recordId: string | null; key: string | null }> = [];
    const store2 = makeTestStore(db, async (input, init) => {
      if (String(input).endsWith('/attachment')) {
        const form = init!.body as FormData;
        uploads.push({ recordId: form.get('recordId') as string, key: new Headers(init!.headers).get('Idempotency-Key') });
        return response({
          status: 201,
          body: {
            id: 10_900_000,
            tableId: INDICATORS,
            recordId: Number(form.get('recordId')),
            tableAttachmentInfoId: 700,
            name: 'a.jpg',
            mimeType: 'image/jpeg',
            size: 3,
            createdAt: '',
            hasThumb: false,
          },
        });
      }
      return server.fetch(input, init);
    });
    expect(await drain(store2)).toMatchObject({ kind: 'done' });
    const rows = [...server.rows.values()];
    const formRow = rows.find((r) => r.tableId === FORMS)!;
    const indicatorRow = rows.find((r) => r.tableId === INDICATORS)!;
    expect(formRow.properties).toMatchObject({ '61': dpServerId, '65': 'opomba' });
    expect(indicatorRow.properties['71']).toBe(formRow.id);
    expect(uploads).toEqual([{ recordId: String(indicatorRow.id), key: (await Promise.resolve(photo)).opId }]);
    expect(await db.attachments.get(10_900_000)).toMatchObject({ featureId: indicatorRow.id, isInsert: 0 });
    expect(await db.outbox.count()).toBe(0);
    expect(await db.features.filter((row) => row.isInsert === 1).count()).toBe(0);
  });

  it('does not duplicate rows when a response is lost after the server applied the batch', async () => {
    const server = new FakeBulkServer();
    const store = makeTestStore(openTestDb(), server.fetch);
    for (let i = 0; i < 30; i++) await saveEdit(store.extra.db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '65': i } });
    server.fail = (call) => (call === 1 ? 'drop-after-commit' : undefined);
    const lost = await drain(store);
    expect(lost.kind).toBe('transient');
    expect(await store.extra.db.outbox.count()).toBe(30); // nothing acknowledged, nothing removed
    expect((await readOutbox(store.extra.db)).every((i) => i.attempts === 1)).toBe(true);
    const retried = await drain(store);
    expect(retried).toMatchObject({ kind: 'done', sent: 30 });
    expect(server.rows.size).toBe(30);
    expect(await tableRows(store.extra.db, FORMS).count()).toBe(30);
  });

  it('shows a 409 as a conflict; keep mine resends on the current version, take theirs keeps the server row', async () => {
    const server = new FakeBulkServer();
    const store = makeTestStore(openTestDb(), server.fetch);
    const db = store.extra.db;
    const current = {
      id: 10_000_100,
      tableId: FORMS,
      properties: { '65': 'njihovo' },
      deleted: false,
      archived: false,
      createdAt: '',
      updatedAt: '',
      version: 7,
    };
    server.rows.set(current.id, { ...current });
    await db.features.put({
      tableId: FORMS,
      featureId: current.id,
      projectId: P,
      feature: { ...current, properties: { '65': 'staro' }, version: 6 },
      isInsert: 0,
      isEdit: 0,
      isDelete: 0,
      isRecord: 1,
    });
    await saveEdit(db, { kind: 'update', projectId: P, tableId: FORMS, id: current.id, properties: { '65': 'moje' } });
    await saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '65': 'neodvisno' } });
    server.fail = (_call, ops) =>
      ops[0]!.kind === 'update' && ops[0]!.version === 6
        ? response({ status: 409, body: { status: 409, message: 'Conflict', detail: 'version 6 is stale', current, opId: ops[0]!.opId } })
        : undefined;

    expect(await drain(store)).toMatchObject({ kind: 'done', sent: 1 }); // the unrelated insert still went
    await mirrored(store, (s) => selectConflicts(s).length === 1, 'conflict shown');
    const [conflict] = selectConflicts(store.getState());
    expect(conflict).toMatchObject({ kind: 'update', id: current.id, status: 'conflict', httpStatus: 409, current: { version: 7 } });

    await keepMine(db, conflict!.seq);
    expect(await drain(store)).toMatchObject({ kind: 'done', sent: 1 });
    expect(server.rows.get(current.id)!.properties['65']).toBe('moje');
    expect(server.calls.at(-1)![0]).toMatchObject({ kind: 'update', version: 7 });

    // Another conflict, resolved the other way.
    server.rows.get(current.id)!.version = 20;
    await saveEdit(db, { kind: 'update', projectId: P, tableId: FORMS, id: current.id, properties: { '65': 'spet moje' } });
    const theirs = { ...current, properties: { '65': 'njihovo 2' }, version: 20 };
    server.fail = (_call, ops) =>
      ops[0]!.kind === 'update' ? response({ status: 409, body: { status: 409, message: 'Conflict', current: theirs, opId: ops[0]!.opId } }) : undefined;
    await drain(store);
    await mirrored(store, (s) => (selectConflicts(s)[0]?.current as { version?: number } | undefined)?.version === 20, 'second conflict shown');
    await takeTheirs(db, selectConflicts(store.getState())[0]!.seq);
    expect(await db.outbox.count()).toBe(0);
    expect(await deviceRow(db, FORMS, current.id)).toMatchObject({ isEdit: 0, feature: { version: 20, properties: { '65': 'njihovo 2' } } });
    await mirrored(store, (s) => selectConflicts(s).length === 0, 'conflict gone');
  });

  it('shows another 4xx as a failed item with the server message; dependants wait, the rest goes, the user retries or discards', async () => {
    const server = new FakeBulkServer();
    const store = makeTestStore(openTestDb(), server.fetch);
    const db = store.extra.db;
    const bad = await saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '62': 'ni število' } });
    const child = await saveEdit(db, { kind: 'insert', projectId: P, tableId: INDICATORS, properties: { '71': bad.id }, refs: ['71'] });
    await saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '62': 2 } });
    server.fail = (_call, ops) => {
      const op = ops.find((o) => o.kind === 'insert' && o.properties['62'] === 'ni število');
      return op ? response({ status: 400, body: { status: 400, message: 'Bad Request', detail: 'properties.62 must be a number', opId: op.opId } }) : undefined;
    };
    expect(await drain(store)).toMatchObject({ kind: 'done', sent: 1 });
    await mirrored(store, (s) => selectFailedItems(s).length === 1, 'failed item shown');
    expect(selectFailedItems(store.getState())[0]).toMatchObject({
      message: 'Bad Request',
      detail: 'properties.62 must be a number',
      httpStatus: 400,
      id: bad.id,
    });
    // Nothing was dropped: the failed item and its dependant are still there.
    expect((await readOutbox(db)).map((i) => [i.id, i.status])).toEqual([
      [bad.id, 'failed'],
      [child.id, 'pending'],
    ]);
    // Draining again changes nothing until the user acts.
    expect(await drain(store)).toMatchObject({ kind: 'done', sent: 0 });

    server.fail = undefined;
    await retryItem(db, selectFailedItems(store.getState())[0]!.seq);
    expect(await drain(store)).toMatchObject({ kind: 'done', sent: 2 });

    // Discard: the item and its local row go away, by the user's hand only.
    server.fail = (_call, ops) => response({ status: 422, body: { status: 422, message: 'Generic Error', opId: ops[0]!.opId } });
    const doomed = await saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: {} });
    await drain(store);
    const [item] = await readOutbox(db);
    expect(item).toMatchObject({ status: 'failed', error: { message: 'Generic Error' } });
    await discardItem(db, item!.seq!);
    expect(await db.outbox.count()).toBe(0);
    expect(await deviceRow(db, FORMS, doomed.id)).toBeUndefined();
  });
});

describe('reads racing the drain', () => {
  /** A form as the server holds it. */
  const serverForm = (id: number, text: string): WireRecord => ({
    id,
    tableId: FORMS,
    properties: { '65': text },
    deleted: false,
    archived: false,
    createdAt: '',
    updatedAt: '',
    version: 1,
  });

  it('a server answer older than an acknowledgement neither drops a just-synced row nor revives a just-deleted one', async () => {
    const server = new FakeBulkServer();
    const store = makeTestStore(openTestDb(), server.fetch);
    const db = store.extra.db;
    const gone = serverForm(10_000_300, 'izbriši me');
    server.rows.set(gone.id, { ...gone });
    await refreshRows(db, [gone], { projectId: P, tableId: FORMS });
    const made = await saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '65': 'nova' } });
    await saveEdit(db, { kind: 'delete', projectId: P, tableId: FORMS, id: gone.id });

    const requestedAt = Date.now() - 1; // a season read is sent …
    const staleAnswer = [gone]; // … and answers before the server had the new row or the delete
    expect(await drain(store)).toMatchObject({ kind: 'done', sent: 2 });
    await refreshRows(db, staleAnswer, { projectId: P, tableId: FORMS, inScope: () => true, requestedAt });
    const serverId = [...server.rows.values()].find((r) => r.properties['65'] === 'nova')!.id;
    expect((await readRows(db, FORMS)).map((r) => r.id)).toEqual([serverId]);
    expect(made.id).not.toBe(serverId);

    // A read sent after the acknowledgements is the truth again; the deleted row's hidden
    // tombstone goes with a read sent once no read from before the delete can still be on its way.
    await refreshRows(db, [{ ...server.rows.get(serverId)! }], { projectId: P, tableId: FORMS, inScope: () => true, requestedAt: Date.now() + 1 });
    expect((await readRows(db, FORMS)).map((r) => r.id)).toEqual([serverId]);
    await refreshRows(db, [{ ...server.rows.get(serverId)! }], {
      projectId: P,
      tableId: FORMS,
      inScope: () => true,
      requestedAt: Date.now() + TOMBSTONE_KEEP_MS,
    });
    expect((await tableRows(db, FORMS).toArray()).map((r) => r.feature.id)).toEqual([serverId]);
  });

  it('an answer older than an acknowledgement still spares the row after a newer read stored it again', async () => {
    // The form screen reads a just-delivered form (sent after its acknowledgement) while the
    // season's read of the forms, sent before the server had it, is still under way.
    const server = new FakeBulkServer();
    const store = makeTestStore(openTestDb(), server.fetch);
    const db = store.extra.db;
    const made = await saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '65': 'nova' } });
    const seasonAskedAt = Date.now() - 1;
    expect(await drain(store)).toMatchObject({ kind: 'done', sent: 1 });
    const delivered = [...server.rows.values()].find((r) => r.properties['65'] === 'nova')!;
    await refreshRows(db, [{ ...delivered }], { projectId: P, tableId: FORMS, inScope: (r) => r.id === delivered.id, requestedAt: Date.now() + 1 });

    await refreshRows(db, [], { projectId: P, tableId: FORMS, inScope: () => true, requestedAt: seasonAskedAt });
    expect(await readRows(db, FORMS)).toEqual([expect.objectContaining({ id: delivered.id, properties: { '65': 'nova' } })]);
    expect((await tableRows(db, FORMS).toArray()).map((row) => row.featureId)).toEqual([made.id]);

    // An older answer with an older copy of the row does not replace the newer one either.
    await refreshRows(db, [{ ...delivered, properties: { '65': 'starejša' } }], { projectId: P, tableId: FORMS, requestedAt: seasonAskedAt });
    expect((await readRows(db, FORMS)).map((r) => r.properties['65'])).toEqual(['nova']);
  });

  it('an answer older than a delivered delete does not bring the row back after a newer read removed it', async () => {
    const server = new FakeBulkServer();
    const store = makeTestStore(openTestDb(), server.fetch);
    const db = store.extra.db;
    const form = serverForm(10_000_310, 'izbriši me');
    server.rows.set(form.id, { ...form });
    await refreshRows(db, [form], { projectId: P, tableId: FORMS, inScope: () => true, requestedAt: Date.now() - 10 });
    await saveEdit(db, { kind: 'delete', projectId: P, tableId: FORMS, id: form.id });
    const seasonAskedAt = Date.now() - 1; // still lists the form
    expect(await drain(store)).toMatchObject({ kind: 'done', sent: 1 });
    await refreshRows(db, [], { projectId: P, tableId: FORMS, inScope: () => true, requestedAt: Date.now() + 1 });

    await refreshRows(db, [form], { projectId: P, tableId: FORMS, inScope: () => true, requestedAt: seasonAskedAt });
    expect(await readRows(db, FORMS)).toEqual([]);
  });

  it('a server answer that already lists a row whose insert is acknowledged later leaves one copy of it on the device', async () => {
    const db = openTestDb();
    const made = await saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '65': 'nova' } });
    const [item] = await readOutbox(db);
    // The server applied the insert; a read answered with the new row before its acknowledgement was written.
    const serverRow = {
      id: 10_000_700,
      tableId: FORMS,
      properties: { '65': 'nova' },
      deleted: false,
      archived: false,
      createdAt: '',
      updatedAt: '',
      version: 1,
    };
    await refreshRows(db, [serverRow], { projectId: P, tableId: FORMS, requestedAt: Date.now() });
    expect((await db.features.toArray()).map((row) => row.feature.id).sort()).toEqual([made.id, serverRow.id].sort());

    await acknowledge(db, [{ item: item!, id: serverRow.id, record: serverRow }]);
    expect((await db.features.toArray()).map((row) => [row.featureId, row.feature.id])).toEqual([[made.id, serverRow.id]]);
    expect(await readRows(db, FORMS)).toEqual([expect.objectContaining({ id: serverRow.id, properties: { '65': 'nova' } })]);
  });
});

describe('two tabs draining one queue', () => {
  it('an answer whose items the other tab has acknowledged already changes nothing: the device row keeps the later answer', async () => {
    const db = openTestDb();
    const row = { id: 10_000_800, tableId: FORMS, properties: { '65': 'prej' }, deleted: false, archived: false, createdAt: '', updatedAt: '', version: 5 };
    await refreshRows(db, [row], { projectId: P, tableId: FORMS });
    await saveEdit(db, { kind: 'update', projectId: P, tableId: FORMS, id: row.id, properties: { '65': 'prva' } });
    await saveEdit(db, { kind: 'update', projectId: P, tableId: FORMS, id: row.id, properties: { '65': 'druga' } });
    const [first, second] = await readOutbox(db);
    // Tab B sent the first edit alone; tab A sent both (the first answered as a duplicate) and
    // acknowledged its answer first. Tab B's answer, the older one, is acknowledged last.
    const v6 = { ...row, properties: { '65': 'prva' }, version: 6 };
    const v7 = { ...row, properties: { '65': 'druga' }, version: 7 };
    await acknowledge(db, [
      { item: first!, id: row.id, record: v6 },
      { item: second!, id: row.id, record: v7 },
    ]);
    expect(await readOutbox(db)).toEqual([]);
    const late = await acknowledge(db, [{ item: first!, id: row.id, record: v6 }]);
    expect(late).toEqual({ mappings: [], updated: [] });
    expect((await deviceRow(db, FORMS, row.id))?.feature).toMatchObject({ version: 7, properties: { '65': 'druga' } });
    expect(await readOutbox(db)).toEqual([]);
  });
});

describe('back-off', () => {
  it('starts at 1 s and doubles to 60 s, with ±20 % jitter', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => backoffDelay(n, mid))).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
    expect(backoffDelay(1, () => 0)).toBe(SYNC_BACKOFF_START_MS * 0.8);
    expect(backoffDelay(1, () => 1)).toBe(SYNC_BACKOFF_START_MS * 1.2);
    expect(backoffDelay(30, () => 1)).toBe(SYNC_BACKOFF_MAX_MS);
  });

  it('keeps everything on network errors and 5xx and schedules the next attempt', async () => {
    let up = false;
    const server = new FakeBulkServer();
    const store = makeTestStore(openTestDb(), async (input, init) => {
      if (String(input).endsWith('/api/Test')) return response({ body: 'ok' });
      if (!up) throw new TypeError('Failed to fetch');
      return server.fetch(input, init);
    });
    await saveEdit(store.extra.db, { kind: 'insert', projectId: P, tableId: FORMS, properties: {} });
    store.dispatch(browserOnlineChanged(true));
    store.dispatch(reachabilityProbed({ reachable: true, at: 'now' }));
    store.dispatch(outboxChanged());
    await until(() => store.getState().sync.failures === 1, 'first failure');
    const { retryAt } = store.getState().sync;
    expect(retryAt).not.toBeNull();
    expect(await store.extra.db.outbox.count()).toBe(1);
    up = true;
    // The scheduled retry (jitter 0.5 → exactly SYNC_BACKOFF_START_MS) drains it.
    await until(async () => (await store.extra.db.outbox.count()) === 0, 'retried after back-off', 1000);
    await until(() => store.getState().sync.failures === 0, 'failures reset');
    expect(server.rows.size).toBe(1);
    expect(store.getState().sync.lastSyncAt).not.toBeNull();
  });

  it("waits as long as a 429 answer's Retry-After asks (not its own back-off), then sends every edit once", async () => {
    const server = new FakeBulkServer();
    // Refused before anything was applied, as a rate limit does: the next call carries the same edits.
    server.fail = (call) =>
      call === 1 ? response({ status: 429, body: { status: 429, message: 'Too Many Requests' }, headers: { 'Retry-After': '1' } }) : undefined;
    let clock = 1_000_000;
    // random 0 makes the own back-off 800 ms: the 1 s the server asked for is told apart.
    const store = makeTestStore(openTestDb(), server.fetch, { now: () => clock, random: () => 0 });
    for (let i = 0; i < 3; i++) await saveEdit(store.extra.db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '65': i } });
    store.dispatch(browserOnlineChanged(true));
    store.dispatch(reachabilityProbed({ reachable: true, at: 'now' }));
    store.dispatch(outboxChanged());
    await until(() => store.getState().sync.failures === 1, 'refused with 429');
    expect(store.getState().sync.retryAt).toBe(clock + 1000);
    expect((await readOutbox(store.extra.db)).map((item) => item.status)).toEqual(['pending', 'pending', 'pending']);
    clock += 1000;
    await until(async () => (await store.extra.db.outbox.count()) === 0, 'sent after Retry-After');
    expect(server.calls.map((call) => call.length)).toEqual([3, 3]);
    expect([...server.rows.values()].map((row) => row.properties['65'])).toEqual([0, 1, 2]);
    expect(server.applied.size).toBe(3);
  });

  it('holds everything for sign-in on a 401 the auth layer cannot fix, and resumes after it can', async () => {
    let signedIn = false;
    const server = new FakeBulkServer();
    const store = makeTestStore(
      openTestDb(),
      async (input, init) =>
        signedIn || String(input).endsWith('/api/Test') ? server.fetch(input, init) : response({ status: 401, body: { status: 401, message: 'Unauthorized' } }),
      { refreshAuth: async () => false },
    );
    await saveEdit(store.extra.db, { kind: 'insert', projectId: P, tableId: FORMS, properties: {} });
    store.dispatch(browserOnlineChanged(true));
    store.dispatch(reachabilityProbed({ reachable: true, at: 'now' }));
    store.dispatch(outboxChanged());
    await until(() => store.getState().sync.authRequired, 'held for sign-in');
    expect(await store.extra.db.outbox.count()).toBe(1);
    signedIn = true;
    const { sessionRenewed } = await import('../../../src/client/lib/api');
    store.dispatch(sessionRenewed());
    await until(async () => (await store.extra.db.outbox.count()) === 0, 'sent after sign-in');
    expect(store.getState().sync.authRequired).toBe(false);
  });
});

describe('acknowledging a whole bulk answer', () => {
  it('remaps every queued child of the acknowledged rows, rows with several queued edits and photos included, in one go', async () => {
    const db = openTestDb();
    const forms = await Promise.all(
      Array.from({ length: 3 }, () => saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '61': 10_000_500, '62': 1 }, refs: ['61'] })),
    );
    const children = [];
    for (const form of forms) {
      for (let k = 0; k < 2; k++)
        children.push(await saveEdit(db, { kind: 'insert', projectId: P, tableId: INDICATORS, properties: { '71': form.id, '72': `k${k}` }, refs: ['71'] }));
    }
    // A child edited again before it was sent (two queued items, one local row), and a photo of a child.
    await saveEdit(db, { kind: 'update', projectId: P, tableId: INDICATORS, id: children[0]!.id, properties: { '73': 5 } });
    await saveEdit(db, {
      kind: 'attachment',
      projectId: P,
      tableId: INDICATORS,
      recordId: children[1]!.id,
      tableAttachmentInfoId: 700,
      name: 'a.jpg',
      mimeType: 'image/jpeg',
      data: new ArrayBuffer(2),
    });
    // A later edit of an acknowledged form, and a child that must stay as it is.
    await saveEdit(db, { kind: 'update', projectId: P, tableId: FORMS, id: forms[2]!.id, properties: { '65': 'pozneje' } });

    const queued = await readOutbox(db);
    const serverIds = forms.map((_, n) => 10_000_100 + n);
    const acks = forms.map((form, n) => ({ item: queued.find((item) => item.kind === 'insert' && item.id === form.id)!, id: serverIds[n]! }));
    const result = await acknowledge(db, acks);

    expect(result.mappings).toEqual(forms.map((form, n) => ({ tableId: FORMS, localId: form.id, id: serverIds[n], of: 'record' })));
    const left = await readOutbox(db);
    expect(left).toHaveLength(queued.length - forms.length);
    const childItems = left.filter((item) => item.tableId === INDICATORS && item.kind !== 'attachment');
    expect(childItems).toHaveLength(children.length + 1);
    for (const item of childItems) {
      const n = Math.floor(children.findIndex((child) => child.id === item.id) / 2);
      expect(item.properties!['71']).toBe(serverIds[n]);
      expect(item.refIds).toBeUndefined();
    }
    for (const [index, child] of children.entries()) {
      const row = await deviceRow(db, INDICATORS, child.id);
      expect(row!.feature.properties['71']).toBe(serverIds[Math.floor(index / 2)]);
      expect(row!.isInsert).toBe(1);
    }
    expect((await deviceRow(db, INDICATORS, children[0]!.id))!.feature.properties).toMatchObject({ '71': serverIds[0], '73': 5 });
    // The form with a later edit keeps its isEdit flag; the others are clean under their server ids.
    expect(await deviceRow(db, FORMS, serverIds[2]!)).toMatchObject({ isInsert: 0, isEdit: 1 });
    expect(await deviceRow(db, FORMS, serverIds[0]!)).toMatchObject({ isInsert: 0, isEdit: 0, feature: { id: serverIds[0] } });
    expect(left.find((item) => item.tableId === FORMS)).toMatchObject({ kind: 'update', id: serverIds[2] });
    expect(result.updated.map((item) => item.seq).sort((a, b) => a! - b!)).toEqual(
      left
        .filter((item) => item.tableId === INDICATORS || item.tableId === FORMS)
        .filter((item) => item.kind !== 'attachment')
        .map((item) => item.seq),
    );
  });
});

describe('acknowledging parent and children in one answer', () => {
  it("leaves the children's device rows naming the parent's server id, so a read of the form's indicators by its server id finds them", async () => {
    const db = openTestDb();
    const form = await saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '61': 10_000_500 }, refs: ['61'] });
    const indicator = await saveEdit(db, {
      kind: 'insert',
      projectId: P,
      tableId: INDICATORS,
      properties: { '71': form.id, '72': 'salvia-pratensis', '73': false },
      refs: ['71'],
    });
    const edited = await saveEdit(db, { kind: 'insert', projectId: P, tableId: INDICATORS, properties: { '71': form.id, '72': 'briza' }, refs: ['71'] });
    await saveEdit(db, { kind: 'update', projectId: P, tableId: INDICATORS, id: edited.id, properties: { '73': true } });
    const queued = await readOutbox(db);
    const serverIds = new Map([
      [form.id, 10_000_100],
      [indicator.id, 10_000_101],
      [edited.id, 10_000_102],
    ]);
    await acknowledge(
      db,
      queued.map((item) => ({ item, id: serverIds.get(item.id) ?? item.id })),
    );

    const children = await readRows(db, INDICATORS, (row) => row.properties['71'] === 10_000_100);
    expect(children.map((row) => row.id)).toEqual([10_000_101, 10_000_102]);
    expect(children[1]!.properties).toMatchObject({ '72': 'briza', '73': true });
    expect(await db.features.filter((row) => row.isInsert === 1).count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });
});

/**
 * Counts store calls (DBCore: a get, a bulk read, a query, a bulk write each count once), and the
 * device rows read (the rows the features store's bulk reads and queries returned).
 */
function countingDb() {
  const db = openTestDb();
  const calls = { n: 0, byStore: new Map<string, number>(), featureRowsRead: 0 };
  db.use({
    stack: 'dbcore',
    name: 'count-calls',
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        const counted =
          <A extends unknown[], R>(call: (...args: A) => R) =>
          (...args: A): R => {
            calls.n++;
            calls.byStore.set(name, (calls.byStore.get(name) ?? 0) + 1);
            return call(...args);
          };
        const getMany: typeof table.getMany = async (req) => {
          const rows = await table.getMany(req);
          if (name === 'features') calls.featureRowsRead += rows.filter(Boolean).length;
          return rows;
        };
        const query: typeof table.query = async (req) => {
          const answer = await table.query(req);
          if (name === 'features' && req.values) calls.featureRowsRead += answer.result.length;
          return answer;
        };
        // A cursor's rows are counted as Dexie takes their values.
        const openCursor: typeof table.openCursor = async (req) => {
          const cursor = await table.openCursor(req);
          if (!cursor || name !== 'features' || !req.values) return cursor;
          return new Proxy(cursor, {
            get(target, property) {
              if (property === 'value') calls.featureRowsRead++;
              const value: unknown = Reflect.get(target, property);
              return typeof value === 'function' ? value.bind(target) : value;
            },
          });
        };
        return {
          ...table,
          get: counted(table.get.bind(table)),
          getMany: counted(getMany),
          query: counted(query),
          openCursor: counted(openCursor),
          count: counted(table.count.bind(table)),
          mutate: counted(table.mutate.bind(table)),
        };
      },
    }),
  });
  return { db, calls };
}

describe('the cost of an acknowledgement', () => {
  async function ackOfForms(forms: number) {
    const { db, calls } = countingDb();
    for (let n = 0; n < forms; n++) {
      const form = await saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '61': 10_000_500 }, refs: ['61'] });
      await saveEdit(db, { kind: 'insert', projectId: P, tableId: INDICATORS, properties: { '71': form.id, '72': 'k' }, refs: ['71'] });
      await saveEdit(db, { kind: 'update', projectId: P, tableId: FORMS, id: form.id, properties: { '65': `opomba ${n}` } });
    }
    const queued = await readOutbox(db);
    // The answer covers the forms and indicators; the updates stay queued (their ids are remapped).
    const sent = queued.filter((item) => item.kind === 'insert');
    calls.n = 0;
    calls.byStore.clear();
    await acknowledge(
      db,
      sent.map((item, index) => ({ item, id: 10_100_000 + index })),
    );
    expect(await db.outbox.count()).toBe(forms);
    expect((await readRows(db, INDICATORS)).every((row) => (row.properties['71'] as number) >= 10_100_000)).toBe(true);
    return { total: calls.n, byStore: Object.fromEntries(calls.byStore) };
  }

  it('takes the same number of store calls for 200 operations as for 2: one bulk request per store and phase, never one per row', async () => {
    const small = await ackOfForms(1);
    const large = await ackOfForms(100);
    expect(large).toEqual(small);
    // 13 today: features 3 (read, write, children), outbox 8 (the first: which items are still
    // queued), meta 1, attachments 1. A delivered row keeps its key, so nothing is deleted.
    expect(large.total).toBeLessThanOrEqual(13);
    expect(large.byStore.features).toBeLessThanOrEqual(3);
  });
});

/**
 * Counts IndexedDB's own requests (every call of the object stores' request methods, by store and
 * method) while `run` runs; `fail` may throw instead of a request (a store out of space).
 */
async function countingRequests<T>(run: () => Promise<T>, fail?: (store: string, method: string) => Error | undefined) {
  const proto = IDBObjectStore.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const methods = ['add', 'put', 'delete', 'get', 'getAll', 'getAllKeys', 'count', 'openCursor', 'openKeyCursor', 'clear'];
  const originals = new Map(methods.map((method) => [method, proto[method]!]));
  const requests = new Map<string, number>();
  for (const [method, original] of originals) {
    proto[method] = function (this: IDBObjectStore, ...args: unknown[]) {
      const key = `${this.name}.${method}`;
      requests.set(key, (requests.get(key) ?? 0) + 1);
      const error = fail?.(this.name, method);
      if (error) throw error;
      return original.apply(this, args);
    };
  }
  try {
    const result = await run().then(
      (value): { value?: T; error?: unknown } => ({ value }),
      (error: unknown) => ({ error }),
    );
    return { ...result, requests: Object.fromEntries(requests) };
  } finally {
    for (const [method, original] of originals) proto[method] = original;
  }
}

describe('the requests of an acknowledgement', () => {
  async function queueForms(db: ReturnType<typeof openTestDb>, forms: number) {
    for (let n = 0; n < forms; n++) {
      const form = await saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '61': 10_000_500 }, refs: ['61'] });
      await saveEdit(db, { kind: 'insert', projectId: P, tableId: INDICATORS, properties: { '71': form.id, '72': 'k' }, refs: ['71'] });
    }
    return readOutbox(db);
  }

  it('removes a run of acknowledged items with one delete request, without counting them first', async () => {
    const db = openTestDb();
    const queued = await queueForms(db, 20);
    const { error, requests } = await countingRequests(() =>
      acknowledge(
        db,
        queued.map((item, index) => ({ item, id: 10_100_000 + index })),
      ),
    );
    expect(error).toBeUndefined();
    expect(await db.outbox.count()).toBe(0);
    expect(requests['outbox.delete']).toBe(1);
    expect(requests['outbox.count']).toBeUndefined();
    // Each delivered row is written once, under its key.
    expect(requests['features.put']).toBe(queued.length);
  });

  it('keeps every item queued and every row as it was when a write of the acknowledgement fails', async () => {
    const db = openTestDb();
    const queued = await queueForms(db, 5);
    const rowsBefore = await db.features.toArray();
    let puts = 0;
    const quota = new DOMException('the device is full', 'QuotaExceededError');
    const { error } = await countingRequests(
      () =>
        acknowledge(
          db,
          queued.map((item, index) => ({ item, id: 10_100_000 + index })),
        ),
      // The fourth row's write fails, after the items' delete and three rows went out.
      (store, method) => (store === 'features' && method === 'put' && ++puts === 4 ? quota : undefined),
    );
    expect(error).toMatchObject({ kind: 'quota' });
    expect(await readOutbox(db)).toEqual(queued);
    expect(await db.features.toArray()).toEqual(rowsBefore);
    expect(await resolveIds(db, 'record', [queued[0]!.id])).toEqual(new Map());
  });
});

describe('acknowledged rows written from the answer', () => {
  const answer = (item: OutboxItem, id: number, version: number, properties: Record<string, unknown>): WireRecord => ({
    id,
    tableId: item.tableId,
    properties,
    geometry: null,
    deleted: false,
    archived: false,
    createdAt: '2026-06-01T08:00:00.000Z',
    updatedAt: '2026-06-01T08:00:00.000Z',
    version,
  });

  it("settles a row with nothing left in the queue as the server's copy, without reading it; a row with a later queued edit is read and keeps that edit", async () => {
    const { db, calls } = countingDb();
    const form = await saveEdit(db, { kind: 'insert', projectId: P, tableId: FORMS, properties: { '61': 10_000_500 }, refs: ['61'] });
    const done = await saveEdit(db, { kind: 'insert', projectId: P, tableId: INDICATORS, properties: { '71': form.id, '72': 'a' }, refs: ['71'] });
    const edited = await saveEdit(db, { kind: 'insert', projectId: P, tableId: INDICATORS, properties: { '71': form.id, '72': 'b' }, refs: ['71'] });
    const [formItem, doneItem, editedItem] = await readOutbox(db);
    // A later edit of the second indicator, made before the answer came: it stays queued.
    await saveEdit(db, { kind: 'update', projectId: P, tableId: INDICATORS, id: edited.id, properties: { '73': true } });
    calls.featureRowsRead = 0;
    await acknowledge(db, [
      { item: formItem!, id: 10_200_000, record: answer(formItem!, 10_200_000, 1, { '61': 10_000_500, '66': 42 }) },
      { item: doneItem!, id: 10_200_001, record: answer(doneItem!, 10_200_001, 1, { '71': 10_200_000, '72': 'a' }) },
      { item: editedItem!, id: 10_200_002, record: answer(editedItem!, 10_200_002, 1, { '71': 10_200_000, '72': 'b' }) },
    ]);
    // Only the row with a queued edit left was read.
    expect(calls.featureRowsRead).toBe(1);
    // The others are the server's copies (with what the server added), settled, known by the
    // server's ids (under the keys they had, their offline ids).
    expect(await deviceRow(db, FORMS, form.id)).toBeUndefined();
    expect(await deviceRow(db, INDICATORS, done.id)).toBeUndefined();
    expect(await deviceRow(db, FORMS, 10_200_000)).toMatchObject({
      featureId: form.id,
      isInsert: 0,
      isEdit: 0,
      isRecord: 1,
      feature: { id: 10_200_000, version: 1, properties: { '61': 10_000_500, '66': 42 } },
    });
    expect(await deviceRow(db, INDICATORS, 10_200_001)).toMatchObject({ isInsert: 0, isEdit: 0, feature: { properties: { '71': 10_200_000, '72': 'a' } } });
    // The edited row keeps the edit still queued, and stays pending.
    expect(await deviceRow(db, INDICATORS, 10_200_002)).toMatchObject({
      isEdit: 1,
      feature: { id: 10_200_002, properties: { '71': 10_200_000, '72': 'b', '73': true } },
    });
    expect((await readOutbox(db)).map((item) => [item.kind, item.id])).toEqual([['update', 10_200_002]]);
  });
});

describe('storage errors', () => {
  it('reports a quota error to the caller and the user, and stores nothing', async () => {
    const db = openTestDb();
    // The server is out of reach, so only the storage path runs.
    const store = makeTestStore(db, async () => {
      throw new TypeError('Failed to fetch');
    });
    store.dispatch(syncStarted());
    await db.open();
    // Chrome reports a full disk as an aborted transaction whose inner error is QuotaExceededError.
    db.outbox.hook('creating', () => {
      throw Object.assign(new Error('The transaction was aborted'), { name: 'AbortError', inner: { name: 'QuotaExceededError' } });
    });
    const result = await store.dispatch(
      editsSaved({
        edits: [
          { kind: 'insert', projectId: P, tableId: FORMS, properties: {} },
          { kind: 'insert', projectId: P, tableId: INDICATORS, properties: {} },
        ],
      }),
    );
    expect(result.payload).toBe(slSync.sync.quotaExceeded);
    expect(selectStorageError(store.getState())).toMatchObject({ kind: 'quota' });
    expect(store.getState().notifications.items).toEqual([expect.objectContaining({ kind: 'error', message: slSync.sync.quotaExceeded })]);
    expect(await db.features.count()).toBe(0); // the rows' writes rolled back with the queue's
    store.dispatch(syncStopped());
    await until(() => store.getState().connectivity.serverReachable === false, 'probe settled');
  });
});
