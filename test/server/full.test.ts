/**
 * POST /api/Records/{projectId}/full and POST /api/Features/{projectId}/{tableId}/full: a record
 * or feature created/updated together with its files in one multipart request, all or nothing.
 * Every refused request — a bad file, a bad record, another farmer's row, a reader, a stale
 * version, and a database failure after the files were stored — is checked to leave no row and
 * no file behind.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildTestApp, snapshot, TEST_USER_HEADER, USERS, type TestApp } from './helpers/build-test-app';
import { demoFormsAsDrafts, farmerRows, type FarmerRows } from './helpers/demo-ids';
import { jpegImage, multipart, pngImage, type Part } from '../fixtures/uploads';

let t: TestApp;
let dataDir: string;
let own: FarmerRows;
let other: FarmerRows;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'mt-full-'));
  t = await buildTestApp({ dataDir });
  await demoFormsAsDrafts(t.app, t.tables);
  own = await farmerRows(t.app, t.tables, USERS.farmer1);
  other = await farmerRows(t.app, t.tables, USERS.farmer2);
});

afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

async function post(user: string | null, url: string, parts: Part[], headers: Record<string, string> = {}) {
  const { body, contentType } = multipart(parts);
  const response = await fetch(`${t.origin}${url}`, {
    method: 'POST',
    headers: { ...(user ? { [TEST_USER_HEADER]: user } : {}), 'content-type': contentType, ...headers },
    body: new Uint8Array(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: () => JSON.parse(text) };
}

const ind = () => t.tables.indicators.columns;
const photoSlot = () => t.tables.indicators.attachments!.photos!;

/** Indicators made so far: each gets a key of its own (a form holds one live indicator per key). */
let indicatorsMade = 0;

function indicator(form: number, extra: Record<string, unknown> = {}) {
  return {
    tableId: t.tables.indicators.id,
    properties: { [ind().parent]: form, [ind().key]: `invazivke-${++indicatorsMade}`, [ind().note]: 'ob robu travnika' },
    ...extra,
  };
}

async function photo(name: string, field = 'photos'): Promise<Part> {
  return { name: field, file: { fileName: name, contentType: 'image/jpeg', content: await jpegImage(120, 90) } };
}

async function expectRefused(status: number, action: () => Promise<{ status: number; json(): unknown }>): Promise<{ detail?: string }> {
  const before = await snapshot(t.app);
  const attachmentsBefore = await t.app.db.selectFrom('attachments').selectAll().execute();
  const files = filesUnder(dataDir);
  const response = await action();
  expect(response.status).toBe(status);
  expect(await snapshot(t.app)).toBe(before);
  expect(await t.app.db.selectFrom('attachments').selectAll().execute()).toEqual(attachmentsBefore);
  expect(filesUnder(dataDir)).toEqual(files);
  return response.json() as { detail?: string };
}

describe('POST /api/Records/{projectId}/full', () => {
  it('creates a record with its photos in one request', async () => {
    const response = await post(USERS.farmer1, '/api/Records/1/full', [
      { name: 'record', value: JSON.stringify(indicator(own.forms[0]!)) },
      await photo('prva.jpg'),
      await photo('druga.jpg', String(photoSlot())),
    ]);
    expect(response.status).toBe(201);
    const result = response.json();
    expect(result.record).toMatchObject({ tableId: t.tables.indicators.id, version: 1, deleted: false });
    expect(result.record.id).toBeGreaterThanOrEqual(10_000_000);
    expect(result.attachments.map((a: { name: string }) => a.name)).toEqual(['prva.jpg', 'druga.jpg']);
    expect(
      result.attachments.every(
        (a: { recordId: number; tableAttachmentInfoId: number; hasThumb: boolean }) =>
          a.recordId === result.record.id && a.tableAttachmentInfoId === photoSlot() && a.hasThumb,
      ),
    ).toBe(true);
    expect(result.localId).toBeUndefined();
    // The record is readable through the JSON API and its attachments through the slot listing.
    const read = await fetch(`${t.origin}/api/Records/1/${t.tables.indicators.id}/${result.record.id}`, { headers: { [TEST_USER_HEADER]: USERS.farmer1 } });
    expect(read.status).toBe(200);
    const list = await fetch(`${t.origin}/api/Records/1/record/${result.record.id}/attachmentinfo/${photoSlot()}`, {
      headers: { [TEST_USER_HEADER]: USERS.farmer1 },
    });
    expect(((await list.json()) as { attachments: unknown[] }).attachments).toHaveLength(2);
    expect(filesUnder(path.join(dataDir, 'tmp'))).toEqual([]);
  });

  it('creates a record made offline and answers its local id for remapping', async () => {
    const response = await post(USERS.farmer1, '/api/Records/1/full', [
      { name: 'record', value: JSON.stringify(indicator(own.forms[0]!, { id: 4242 })) },
      { name: 'tableAttachmentInfoId', value: String(photoSlot()) },
      await photo('offline.jpg', 'file'),
    ]);
    expect(response.status).toBe(201);
    expect(response.json().localId).toBe(4242);
    expect(response.json().record.id).toBeGreaterThanOrEqual(10_000_000);
  });

  it('updates an own record and adds photos; a stale version is a 409 that changes nothing', async () => {
    const target = own.indicators[0]!;
    const current = (await (
      await fetch(`${t.origin}/api/Records/1/${t.tables.indicators.id}/${target}`, { headers: { [TEST_USER_HEADER]: USERS.farmer1 } })
    ).json()) as { version: number };
    const response = await post(USERS.farmer1, '/api/Records/1/full', [
      {
        name: 'record',
        value: JSON.stringify({ tableId: t.tables.indicators.id, id: target, version: current.version, properties: { [ind().note]: 'popravljeno' } }),
      },
      await photo('popravek.jpg'),
    ]);
    expect(response.status).toBe(200);
    expect(response.json().record).toMatchObject({ id: target, version: current.version + 1 });
    expect(response.json().record.properties[String(ind().note)]).toBe('popravljeno');
    expect(response.json().attachments).toHaveLength(1);

    const stale = await expectRefused(409, async () =>
      post(USERS.farmer1, '/api/Records/1/full', [
        {
          name: 'record',
          value: JSON.stringify({ tableId: t.tables.indicators.id, id: target, version: current.version, properties: { [ind().note]: 'staro' } }),
        },
        await photo('stale.jpg'),
      ]),
    );
    expect(stale.detail).toMatch(/version/);
  });

  it('is all or nothing: one bad file refuses the record too (415)', async () => {
    const body = await expectRefused(415, async () =>
      post(USERS.farmer1, '/api/Records/1/full', [
        { name: 'record', value: JSON.stringify(indicator(own.forms[0]!)) },
        await photo('dobra.jpg'),
        { name: 'photos', file: { fileName: 'slaba.jpg', contentType: 'image/jpeg', content: await pngImage() } },
      ]),
    );
    expect(body.detail).toMatch(/slaba\.jpg/);
  });

  it('is all or nothing: a bad record refuses the files (400)', async () => {
    const body = await expectRefused(400, async () =>
      post(USERS.farmer1, '/api/Records/1/full', [
        { name: 'record', value: JSON.stringify({ tableId: t.tables.indicators.id, properties: { 999999: 'x', [ind().parent]: own.forms[0] } }) },
        await photo('a.jpg'),
      ]),
    );
    expect(body.detail).toMatch(/unknown column/);
  });

  it('removes stored files when the transaction fails after they were stored', async () => {
    // A database failure at the last step (the attachment row), after the bytes were moved into
    // storage: a trigger that refuses one file name (SQLite by default, PostgreSQL with DATABASE_URL).
    const postgres = t.app.dialect.name === 'postgres';
    if (postgres) {
      await sql`create function mt_fail_attachment() returns trigger language plpgsql as $$ begin if new.name = 'boom.jpg' then raise exception 'simulated failure'; end if; return new; end $$`.execute(
        t.app.db,
      );
      await sql`create trigger fail_attachment before insert on attachments for each row execute function mt_fail_attachment()`.execute(t.app.db);
    } else {
      await sql`create trigger fail_attachment before insert on attachments when new.name = 'boom.jpg' begin select raise(abort, 'simulated failure'); end`.execute(
        t.app.db,
      );
    }
    try {
      await expectRefused(500, async () =>
        post(USERS.farmer1, '/api/Records/1/full', [{ name: 'record', value: JSON.stringify(indicator(own.forms[0]!)) }, await photo('boom.jpg')]),
      );
    } finally {
      if (postgres) {
        await sql`drop trigger fail_attachment on attachments`.execute(t.app.db);
        await sql`drop function mt_fail_attachment()`.execute(t.app.db);
      } else {
        await sql`drop trigger fail_attachment`.execute(t.app.db);
      }
    }
  });

  it("answers 404 for another farmer's record and 403 for readers, changing nothing", async () => {
    await expectRefused(404, async () =>
      post(USERS.farmer1, '/api/Records/1/full', [
        { name: 'record', value: JSON.stringify({ tableId: t.tables.indicators.id, id: other.indicators[0], properties: { [ind().note]: 'tuje' } }) },
        await photo('tuje.jpg'),
      ]),
    );
    // Creating under another farmer's form: the reference is not visible to them.
    await expectRefused(400, async () =>
      post(USERS.farmer1, '/api/Records/1/full', [{ name: 'record', value: JSON.stringify(indicator(other.forms[0]!)) }, await photo('tuje.jpg')]),
    );
    await expectRefused(403, async () =>
      post(USERS.reader, '/api/Records/1/full', [{ name: 'record', value: JSON.stringify(indicator(own.forms[0]!)) }, await photo('r.jpg')]),
    );
    await expectRefused(401, async () => post(null, '/api/Records/1/full', [{ name: 'record', value: JSON.stringify(indicator(own.forms[0]!)) }]));
  });

  it('answers 400 for a missing or malformed record part, server-owned fields and unknown slots', async () => {
    let body = await expectRefused(400, async () => post(USERS.farmer1, '/api/Records/1/full', [await photo('a.jpg')]));
    expect(body.detail).toBe('field record (JSON) is required');
    body = await expectRefused(400, () => post(USERS.farmer1, '/api/Records/1/full', [{ name: 'record', value: '{"tableId":' }]));
    expect(body.detail).toBe('field record is not valid JSON');
    body = await expectRefused(400, () =>
      post(USERS.farmer1, '/api/Records/1/full', [{ name: 'record', value: JSON.stringify(indicator(own.forms[0]!, { createdAt: '2020-01-01T00:00:00Z' })) }]),
    );
    expect(body.detail).toBe('record.createdAt is not allowed');
    body = await expectRefused(400, async () =>
      post(USERS.farmer1, '/api/Records/1/full', [{ name: 'record', value: JSON.stringify(indicator(own.forms[0]!)) }, await photo('a.jpg', 'videos')]),
    );
    expect(body.detail).toMatch(/names no attachment slot/);
    body = await expectRefused(400, () => post(USERS.farmer1, '/api/Records/1/full', [{ name: 'record', value: JSON.stringify({ properties: {} }) }]));
    expect(body.detail).toBe('record.tableId is required');
  });

  it('applies once per Idempotency-Key and replays the first answer', async () => {
    const parts = [{ name: 'record', value: JSON.stringify(indicator(own.forms[0]!, { id: 777 })) }, await photo('enkrat.jpg')];
    const headers = { 'idempotency-key': 'full-once-1' };
    const first = await post(USERS.farmer1, '/api/Records/1/full', parts, headers);
    expect(first.status).toBe(201);
    const files = filesUnder(dataDir);
    const again = await post(USERS.farmer1, '/api/Records/1/full', parts, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(filesUnder(dataDir)).toEqual(files);
    expect(await t.app.db.selectFrom('attachments').selectAll().where('name', '=', 'enkrat.jpg').execute()).toHaveLength(1);
  });
});

describe('POST /api/Features/{projectId}/{tableId}/full', () => {
  it("updates the farmer's own path with the walked line and a photo", async () => {
    const target = own.paths[0]!;
    const line = {
      type: 'LineString',
      coordinates: [
        [16.2001, 46.8001],
        [16.2012, 46.8009],
        [16.2025, 46.8013],
      ],
    };
    const response = await post(USERS.farmer1, `/api/Features/1/${t.tables.paths.id}/full`, [
      { name: 'feature', value: JSON.stringify({ type: 'Feature', id: target, geometry: line, properties: { [t.tables.paths.columns.length_m]: 250 } }) },
      { name: 'photos', file: { fileName: 'pot.jpg', contentType: 'image/jpeg', content: await jpegImage() } },
    ]);
    expect(response.status).toBe(200);
    expect(response.json().record).toMatchObject({ id: target, geometry: line });
    expect(response.json().attachments).toEqual([expect.objectContaining({ name: 'pot.jpg', tableAttachmentInfoId: t.tables.paths.attachments!.photos })]);
  });

  it('creates a located indicator as a feature', async () => {
    const point = { type: 'Point', coordinates: [16.21, 46.81] };
    const response = await post(USERS.farmer1, `/api/Features/1/${t.tables.indicators.id}/full`, [
      { name: 'feature', value: JSON.stringify({ type: 'Feature', geometry: point, properties: indicator(own.forms[0]!).properties }) },
      await photo('tocka.jpg'),
    ]);
    expect(response.status).toBe(201);
    expect(response.json().record.geometry).toEqual(point);
  });

  it('refuses invalid GeoJSON, a wrong type member, an unknown table and renaming a path (farmers), changing nothing', async () => {
    let body = await expectRefused(400, async () =>
      post(USERS.farmer1, `/api/Features/1/${t.tables.indicators.id}/full`, [
        {
          name: 'feature',
          value: JSON.stringify({ type: 'Feature', geometry: { type: 'Point', coordinates: ['x'] }, properties: indicator(own.forms[0]!).properties }),
        },
        await photo('a.jpg'),
      ]),
    );
    expect(body.detail).toMatch(/geometry/);
    body = await expectRefused(400, () =>
      post(USERS.farmer1, `/api/Features/1/${t.tables.indicators.id}/full`, [
        { name: 'feature', value: JSON.stringify({ type: 'Point', geometry: null, properties: {} }) },
      ]),
    );
    expect(body.detail).toBe("feature.type must be 'Feature'");
    await expectRefused(404, () =>
      post(USERS.farmer1, '/api/Features/1/999999/full', [{ name: 'feature', value: JSON.stringify({ type: 'Feature', geometry: null, properties: {} }) }]),
    );
    await expectRefused(403, async () =>
      post(USERS.farmer1, `/api/Features/1/${t.tables.paths.id}/full`, [
        {
          name: 'feature',
          value: JSON.stringify({ type: 'Feature', id: own.paths[0], geometry: null, properties: { [t.tables.paths.columns.name]: 'preimenovana' } }),
        },
        await photo('a.jpg'),
      ]),
    );
    await expectRefused(404, async () =>
      post(USERS.farmer1, `/api/Features/1/${t.tables.paths.id}/full`, [
        { name: 'feature', value: JSON.stringify({ type: 'Feature', id: other.paths[0], geometry: null, properties: {} }) },
        await photo('a.jpg'),
      ]),
    );
  });
});
