/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The outbox against the real server: ~50 offline edits across durationPaths, forms, indicators
 * (children of offline-made parents), updates, a delete and photos, drained with lost responses
 * after the server committed, a dropped request, and a reload (new store over the same
 * IndexedDB) in the middle. Afterwards the server holds every row exactly once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import sharp from 'sharp';
import { drainOnce, rtkQueryTransport } from '../../../src/client/features/sync';
import { deviceRow, readOutbox, refKeysFor, resolveIds, saveEdit, type OfflineDb } from '../../../src/client/lib/db';
import { USERS } from '../../server/helpers/build-test-app';
import { demoFormsAsDrafts, farmerRows, type FarmerRows } from '../../server/helpers/demo-ids';
import { openTestDb, settleStores, uniqueDbName } from './helpers';
import { startRealServer, type RealServer } from './real-server';

// A budget for a loaded shared machine (several suites, real IndexedDB emulation, a real server); nothing here asserts time.
jest.setTimeout(30_000);

let server: RealServer;
let own: FarmerRows;

beforeAll(async () => {
  server = await startRealServer();
  // The demo's 2025 forms are approved, so locked for their farmer; the edits here change them as the farmer.
  await demoFormsAsDrafts(server.t.app, server.t.tables);
  own = await farmerRows(server.t.app, server.t.tables, USERS.farmer1);
});

afterEach(settleStores);

afterAll(async () => {
  await server.t.close();
});

async function serverRows(tableId: number): Promise<Array<{ id: number; properties: Record<string, unknown>; deleted: number }>> {
  const rows = await server.t.app.db.selectFrom('records').select(['id', 'properties', 'deleted']).where('table_id', '=', tableId).execute();
  return rows.map((row) => ({ id: row.id, properties: JSON.parse(row.properties) as Record<string, unknown>, deleted: Number(row.deleted) }));
}

async function makeOfflineEdits(db: OfflineDb): Promise<{ markers: string[]; deletedIndicator: number; photos: number; links: number }> {
  const { config } = server;
  const tables = config.tables;
  const p = config.projectId;
  const col = (table: keyof typeof tables, name: string) => String((tables[table].columns as Record<string, number>)[name]);
  const season2026 = (await serverRows(tables.durations.id)).find((d) => d.properties[col('durations', 'name')] === 'Sezona 2026')!.id;
  const markers: string[] = [];
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 10, g: 120, b: 40 } } })
    .png()
    .toBuffer();
  let photos = 0;
  // For each of the farmer's paths: a link for 2026, two forms under it, two indicators per form.
  const paths = own.paths.slice(0, 4);
  const formsPerPath = Math.ceil(48 / (paths.length * 4));
  for (const [pathIndex, pathId] of paths.entries()) {
    const dp = await saveEdit(db, {
      kind: 'insert',
      projectId: p,
      tableId: tables.durationPaths.id,
      properties: { [col('durationPaths', 'duration_id')]: season2026, [col('durationPaths', 'path_id')]: pathId },
      refs: refKeysFor(config, 'durationPaths'),
    });
    for (let f = 0; f < formsPerPath; f++) {
      const marker = `form-${pathIndex}-${f}`;
      markers.push(marker);
      const form = await saveEdit(db, {
        kind: 'insert',
        projectId: p,
        tableId: tables.forms.id,
        properties: { [col('forms', 'parent')]: dp.id, [col('forms', 'form_id')]: 1, [col('forms', 'note')]: marker },
        refs: refKeysFor(config, 'forms'),
      });
      for (let i = 0; i < 2; i++) {
        const indicator = await saveEdit(db, {
          kind: 'insert',
          projectId: p,
          tableId: tables.indicators.id,
          properties: {
            [col('indicators', 'parent')]: form.id,
            [col('indicators', 'key')]: `k${i}`,
            [col('indicators', 'value')]: true,
            [col('indicators', 'note')]: `${marker}-ind-${i}`,
          },
          refs: refKeysFor(config, 'indicators'),
        });
        if (pathIndex < 2 && f === 0 && i === 0) {
          photos++;
          await saveEdit(db, {
            kind: 'attachment',
            projectId: p,
            tableId: tables.indicators.id,
            recordId: indicator.id,
            tableAttachmentInfoId: tables.indicators.attachments!.photos!,
            name: `${marker}.png`,
            mimeType: 'image/png',
            data: png.buffer.slice(png.byteOffset, png.byteOffset + png.byteLength) as ArrayBuffer,
          });
        }
      }
      // An edit of the offline-made form before it ever reached the server.
      await saveEdit(db, { kind: 'update', projectId: p, tableId: tables.forms.id, id: form.id, properties: { [col('forms', 'completed')]: f % 2 === 0 } });
    }
  }
  // A delete of one of the farmer's existing indicators.
  const deletedIndicator = own.indicators[0]!;
  await saveEdit(db, { kind: 'delete', projectId: p, tableId: tables.indicators.id, id: deletedIndicator });
  return { markers, deletedIndicator, photos, links: paths.length };
}

describe('draining ~50 offline edits into the real server', () => {
  it('applies each edit exactly once through lost responses, a dropped request and a reload', async () => {
    const name = uniqueDbName('real');
    let db = openTestDb(name);
    const { markers, deletedIndicator, photos, links: linkCount } = await makeOfflineEdits(db);
    const queued = await readOutbox(db);
    expect(queued.length).toBeGreaterThanOrEqual(50);

    let bulkCalls = 0;
    let uploads = 0;
    server.fault = (url) => {
      if (url.endsWith('/bulk')) {
        bulkCalls++;
        // 1st: lost after commit; 3rd: dropped before the server; 4th: lost after commit.
        if (bulkCalls === 1 || bulkCalls === 4) return 'drop-after';
        if (bulkCalls === 3) return 'drop-before';
      }
      if (url.endsWith('/attachment')) {
        uploads++;
        if (uploads === 1) return 'drop-after';
      }
      return undefined;
    };

    let store = server.storeFor(db, USERS.farmer1);
    const outcomes: string[] = [];
    for (let pass = 0; pass < 30; pass++) {
      // Small batches so the faults land in the middle of the queue.
      const outcome = await drainOnce({ db, transport: rtkQueryTransport(store.dispatch), maxBatch: 7 });
      outcomes.push(outcome.kind);
      if (outcome.kind === 'done') break;
      if (pass === 1) {
        // The page reloads mid-drain: a new store over the same IndexedDB carries on.
        db.close();
        db = openTestDb(name);
        store = server.storeFor(db, USERS.farmer1);
      }
    }
    server.fault = () => undefined;
    expect(outcomes.at(-1)).toBe('done');
    expect(outcomes.filter((o) => o === 'transient').length).toBeGreaterThanOrEqual(3);
    expect(await db.outbox.count()).toBe(0);

    const { tables } = server.config;
    const noteOf = (table: 'forms' | 'indicators') => String((tables[table].columns as Record<string, number>).note);
    const forms = (await serverRows(tables.forms.id)).filter((r) => markers.includes(String(r.properties[noteOf('forms')])));
    // Exactly once: every marker once, none twice.
    expect(forms.map((r) => r.properties[noteOf('forms')]).sort()).toEqual([...markers].sort());
    const completedKey = String(tables.forms.columns.completed);
    expect(forms.every((r) => r.properties[completedKey] === (Number(String(r.properties[noteOf('forms')]).split('-')[2]) % 2 === 0))).toBe(true);
    const indicators = (await serverRows(tables.indicators.id)).filter((r) => String(r.properties[noteOf('indicators')]).startsWith('form-'));
    expect(indicators).toHaveLength(markers.length * 2);
    const formIds = new Set(forms.map((f) => f.id));
    const parentKey = String(tables.indicators.columns.parent);
    expect(indicators.every((i) => formIds.has(i.properties[parentKey] as number))).toBe(true);
    const pathKey = String(tables.durationPaths.columns.path_id);
    const durationKey = String(tables.durationPaths.columns.duration_id);
    const season2026 = (await serverRows(tables.durations.id)).find((d) => d.properties[String(tables.durations.columns.name)] === 'Sezona 2026')!.id;
    const links = (await serverRows(tables.durationPaths.id)).filter(
      (r) => r.properties[durationKey] === season2026 && own.paths.includes(r.properties[pathKey] as number),
    );
    expect(links).toHaveLength(linkCount);
    expect((await serverRows(tables.indicators.id)).find((r) => r.id === deletedIndicator)!.deleted).toBe(1);
    const attachments = await server.t.app.db.selectFrom('attachments').select(['id', 'record_id']).where('name', 'like', 'form-%').execute();
    expect(attachments).toHaveLength(photos);
    const indicatorIds = new Set(indicators.map((i) => i.id));
    expect(attachments.every((a) => indicatorIds.has(a.record_id))).toBe(true);

    // The offline copy now uses server ids only and has nothing pending.
    expect(await db.features.filter((row) => row.isInsert === 1).count()).toBe(0);
    expect((await db.features.toArray()).every((row) => row.feature.id >= 10_000_000)).toBe(true);
    expect((await db.attachments.toArray()).every((row) => row.id >= 1 && row.featureId >= 10_000_000)).toBe(true);
  });
});

describe('an insert of a row the server already holds', () => {
  it('becomes an update of that row: the new value wins, one row per indicator key, the offline id follows it', async () => {
    const { config } = server;
    const { forms, indicators } = config.tables;
    const ic = (name: string) => String((indicators.columns as Record<string, number>)[name]);
    // The form and its answer "Ne" are on the server already (sent by another tab, or an answer that was lost).
    const made = await server.t.as(USERS.farmer1, {
      method: 'POST',
      url: '/api/Records/1/bulk',
      payload: {
        operations: [
          {
            opId: 'held-form',
            kind: 'insert',
            tableId: forms.id,
            localId: 801,
            properties: { [forms.columns.parent]: own.durationPaths[0], [forms.columns.form_id]: 1 },
          },
          {
            opId: 'held-answer',
            kind: 'insert',
            tableId: indicators.id,
            localId: 802,
            properties: { [ic('parent')]: 801, [ic('key')]: 'salvia-pratensis', [ic('value')]: false },
          },
        ],
      },
    });
    const [form, held] = made.json().results as Array<{ id: number }>;
    // This device answers "Da" as a new row, edits its note, and answers another key.
    const db = openTestDb();
    const answer = await saveEdit(db, {
      kind: 'insert',
      projectId: config.projectId,
      tableId: indicators.id,
      properties: { [ic('parent')]: form!.id, [ic('key')]: 'salvia-pratensis', [ic('value')]: true },
      refs: refKeysFor(config, 'indicators'),
    });
    await saveEdit(db, { kind: 'update', projectId: config.projectId, tableId: indicators.id, id: answer.id, properties: { [ic('note')]: 'ob robu' } });
    await saveEdit(db, {
      kind: 'insert',
      projectId: config.projectId,
      tableId: indicators.id,
      properties: { [ic('parent')]: form!.id, [ic('key')]: 'briza-media', [ic('value')]: true },
      refs: refKeysFor(config, 'indicators'),
    });

    const store = server.storeFor(db, USERS.farmer1);
    expect(await drainOnce({ db, transport: rtkQueryTransport(store.dispatch) })).toMatchObject({ kind: 'done' });

    const live = (await serverRows(indicators.id)).filter((row) => !row.deleted && row.properties[ic('parent')] === form!.id);
    expect(live.map((row) => row.properties[ic('key')]).sort()).toEqual(['briza-media', 'salvia-pratensis']);
    expect(live.find((row) => row.properties[ic('key')] === 'salvia-pratensis')).toMatchObject({
      id: held!.id,
      properties: { [ic('value')]: true, [ic('note')]: 'ob robu' },
    });
    expect(await readOutbox(db)).toEqual([]);
    expect(await deviceRow(db, indicators.id, answer.id)).toBeUndefined();
    expect(await deviceRow(db, indicators.id, held!.id)).toMatchObject({
      isInsert: 0,
      isEdit: 0,
      feature: { properties: { [ic('value')]: true, [ic('note')]: 'ob robu' } },
    });
    expect((await resolveIds(db, 'record', [answer.id])).get(answer.id)).toBe(held!.id);
  });
});
