/**
 * Attachment routes over real HTTP (upload, download, thumbnail, list, delete) with the upload
 * rules: size 413, magic bytes vs declared type 415, pixel flood 413, quota 413, another
 * farmer's record 404, readers 403. Every refused request is checked to have changed nothing: no
 * row (database snapshot), no stored file, no temporary file left.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { buildTestApp, snapshot, TEST_USER_HEADER, USERS, type TestApp } from './helpers/build-test-app';
import { demoFormsAsDrafts, farmerRows, type FarmerRows } from './helpers/demo-ids';
import { jpegImage, multipart, pixelFloodPng, pngImage, type Part } from '../fixtures/uploads';

/** Every file under `dir`, recursively (stored objects, thumbnails, temp uploads). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

interface Ctx {
  t: TestApp;
  dataDir: string;
  own: FarmerRows;
  other: FarmerRows;
  slot: number;
}

async function setUp(limits?: Record<string, number>): Promise<Ctx> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mt-attach-'));
  const t = await buildTestApp({ dataDir, ...(limits ? { limits } : {}) });
  await demoFormsAsDrafts(t.app, t.tables);
  return {
    t,
    dataDir,
    own: await farmerRows(t.app, t.tables, USERS.farmer1),
    other: await farmerRows(t.app, t.tables, USERS.farmer2),
    slot: t.tables.paths.attachments!.photos!,
  };
}

async function tearDown(c: Ctx): Promise<void> {
  await c.t.close();
  rmSync(c.dataDir, { recursive: true, force: true });
}

async function send(
  c: Ctx,
  user: string | null,
  method: string,
  url: string,
  body?: { body: Buffer; contentType: string },
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${c.t.origin}${url}`, {
    method,
    headers: { ...(user ? { [TEST_USER_HEADER]: user } : {}), ...(body ? { 'content-type': body.contentType } : {}), ...headers },
    body: body ? new Uint8Array(body.body) : undefined,
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, json: () => JSON.parse(bytes.toString('utf8')) };
}

function uploadParts(c: Ctx, recordId: number, file: Part['file'], extra: Part[] = []): Part[] {
  return [
    { name: 'tableId', value: String(c.t.tables.paths.id) },
    { name: 'recordId', value: String(recordId) },
    { name: 'tableAttachmentInfoId', value: String(c.slot) },
    ...extra,
    { name: 'file', file },
  ];
}

const upload = (c: Ctx, user: string | null, parts: Part[], headers?: Record<string, string>) =>
  send(c, user, 'POST', '/api/Records/1/attachment', multipart(parts), headers);

/** Runs a request that must be refused with `status` and checks that nothing at all changed. */
async function expectRefused(c: Ctx, status: number, action: () => Promise<{ status: number; json(): unknown }>): Promise<{ detail?: string }> {
  const before = await snapshot(c.t.app);
  const rowsBefore = await c.t.app.db.selectFrom('attachments').selectAll().execute();
  const filesBefore = filesUnder(c.dataDir);
  const response = await action();
  expect(response.status).toBe(status);
  const body = response.json() as { status: number; message: string; detail?: string };
  expect(body.status).toBe(status);
  expect(await snapshot(c.t.app)).toBe(before);
  expect(await c.t.app.db.selectFrom('attachments').selectAll().execute()).toEqual(rowsBefore);
  expect(filesUnder(c.dataDir)).toEqual(filesBefore);
  return body;
}

describe('attachments with default limits', () => {
  let c: Ctx;
  beforeAll(async () => {
    c = await setUp();
  });
  afterAll(async () => tearDown(c));

  it('uploads a photo to the own path, serves it, its thumbnail and the slot listing', async () => {
    const photo = await jpegImage(800, 600);
    const path0 = c.own.paths[0]!;
    const created = await upload(
      c,
      USERS.farmer1,
      uploadParts(c, path0, { fileName: 'C:\\fakepath\\Kukavičja lučca.jpg', contentType: 'image/jpeg', content: photo }),
    );
    expect(created.status).toBe(201);
    const info = created.json();
    expect(info).toEqual({
      id: expect.any(Number),
      tableId: c.t.tables.paths.id,
      recordId: path0,
      tableAttachmentInfoId: c.slot,
      name: 'Kukavičja lučca.jpg',
      mimeType: 'image/jpeg',
      size: photo.length,
      createdAt: expect.any(String),
      hasThumb: true,
    });
    expect(info.id).toBeGreaterThanOrEqual(10_000_000);
    // Original and thumbnail stored, no temporary upload left.
    const stored = filesUnder(path.join(c.dataDir, 'attachments'));
    expect(stored).toHaveLength(2);
    expect(filesUnder(path.join(c.dataDir, 'tmp'))).toEqual([]);

    const download = await send(c, USERS.farmer1, 'GET', `/api/Records/1/attachment/${info.id}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/jpeg');
    expect(download.headers.get('content-disposition')).toContain("filename*=UTF-8''Kukavi%C4%8Dja%20lu%C4%8Dca.jpg");
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.bytes.equals(photo)).toBe(true);

    const thumb = await send(c, USERS.farmer1, 'GET', `/api/Records/1/attachment/${info.id}?thumb=true`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(thumb.bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width!, meta.height!)).toBe(320);

    const list = await send(c, USERS.farmer1, 'GET', `/api/Records/1/record/${path0}/attachmentinfo/${c.slot}`);
    expect(list.status).toBe(200);
    expect(list.json()).toEqual({ attachments: [info] });
    const withThumbs = await send(c, USERS.farmer1, 'GET', `/api/Records/1/record/${path0}/attachmentinfo/${c.slot}?thumb=true`);
    expect(withThumbs.json().attachments[0].thumbnail).toBe(`data:image/jpeg;base64,${thumb.bytes.toString('base64')}`);

    // Editors and readers see every farmer's attachments.
    expect((await send(c, USERS.reader, 'GET', `/api/Records/1/attachment/${info.id}`)).status).toBe(200);
    expect((await send(c, USERS.editor, 'GET', `/api/Records/1/record/${path0}/attachmentinfo/${c.slot}`)).json().attachments).toHaveLength(1);
  });

  it("hides another farmer's attachments (404) and refuses uploads to their records (404)", async () => {
    const created = await upload(c, USERS.farmer1, uploadParts(c, c.own.paths[0]!, { fileName: 'a.png', contentType: 'image/png', content: await pngImage() }));
    expect(created.status).toBe(201);
    const id = created.json().id as number;
    expect((await send(c, USERS.farmer2, 'GET', `/api/Records/1/attachment/${id}`)).status).toBe(404);
    expect((await send(c, USERS.farmer2, 'GET', `/api/Records/1/attachment/${id}?thumb=true`)).status).toBe(404);
    expect((await send(c, USERS.farmer2, 'GET', `/api/Records/1/record/${c.own.paths[0]}/attachmentinfo/${c.slot}`)).status).toBe(404);
    await expectRefused(c, 404, () => send(c, USERS.farmer2, 'DELETE', `/api/Records/1/attachment/${id}`));
    await expectRefused(c, 404, async () =>
      upload(c, USERS.farmer2, uploadParts(c, c.own.paths[0]!, { fileName: 'b.jpg', contentType: 'image/jpeg', content: await jpegImage() })),
    );
  });

  it('refuses readers (403) and callers without credentials (401)', async () => {
    const photo = await jpegImage();
    const body = await expectRefused(c, 403, () =>
      upload(c, USERS.reader, uploadParts(c, c.own.paths[0]!, { fileName: 'r.jpg', contentType: 'image/jpeg', content: photo })),
    );
    expect(body.detail).toMatch(/readers/);
    await expectRefused(c, 401, () => upload(c, null, uploadParts(c, c.own.paths[0]!, { fileName: 'r.jpg', contentType: 'image/jpeg', content: photo })));
    expect((await send(c, null, 'GET', '/api/Records/1/attachment/10000000')).status).toBe(401);
  });

  it('refuses content that does not match its declared type, or types the slot does not take (415)', async () => {
    const target = c.own.paths[0]!;
    let body = await expectRefused(c, 415, async () =>
      upload(c, USERS.farmer1, uploadParts(c, target, { fileName: 'x.jpg', contentType: 'image/jpeg', content: await pngImage() })),
    );
    expect(body.detail).toMatch(/content is image\/png, declared image\/jpeg/);
    body = await expectRefused(c, 415, () =>
      upload(c, USERS.farmer1, uploadParts(c, target, { fileName: 'x.jpg', contentType: 'image/jpeg', content: '<script>alert(1)</script>' })),
    );
    expect(body.detail).toMatch(/not image\/jpeg/);
    body = await expectRefused(c, 415, () =>
      upload(c, USERS.farmer1, uploadParts(c, target, { fileName: 'opomba.txt', contentType: 'text/plain', content: 'zapis' })),
    );
    expect(body.detail).toMatch(/not accepted here/);
    body = await expectRefused(c, 415, () =>
      upload(c, USERS.farmer1, uploadParts(c, target, { fileName: 'x.exe', contentType: 'application/x-msdownload', content: 'MZ' })),
    );
    expect(body.detail).toMatch(/not accepted/);
  });

  it('refuses a pixel flood (413) before decoding it', async () => {
    const body = await expectRefused(c, 413, async () =>
      upload(c, USERS.farmer1, uploadParts(c, c.own.paths[0]!, { fileName: 'flood.png', contentType: 'image/png', content: await pixelFloodPng() })),
    );
    expect(body.detail).toMatch(/100000×100000 pixels/);
  });

  it('answers 400 for missing or bad fields, an unknown slot or a file under another name; 415 for a JSON body', async () => {
    const photo = await jpegImage();
    const file = { fileName: 'a.jpg', contentType: 'image/jpeg', content: photo };
    let body = await expectRefused(c, 400, () =>
      upload(c, USERS.farmer1, [
        { name: 'tableId', value: String(c.t.tables.paths.id) },
        { name: 'file', file },
      ]),
    );
    expect(body.detail).toBe('field recordId is required');
    body = await expectRefused(c, 400, () =>
      upload(c, USERS.farmer1, [
        { name: 'tableId', value: 'abc' },
        { name: 'recordId', value: String(c.own.paths[0]) },
        { name: 'tableAttachmentInfoId', value: String(c.slot) },
        { name: 'file', file },
      ]),
    );
    expect(body.detail).toBe('field tableId must be a positive integer');
    body = await expectRefused(c, 400, () =>
      upload(c, USERS.farmer1, [
        { name: 'tableId', value: String(c.t.tables.paths.id) },
        { name: 'recordId', value: String(c.own.paths[0]) },
        { name: 'tableAttachmentInfoId', value: '999999' },
        { name: 'file', file },
      ]),
    );
    expect(body.detail).toMatch(/999999 is not an attachment slot of table paths/);
    body = await expectRefused(c, 400, () => upload(c, USERS.farmer1, uploadParts(c, c.own.paths[0]!, file, [{ name: 'owner', value: 'me' }])));
    expect(body.detail).toBe('field owner is not allowed');
    await expectRefused(c, 400, () =>
      send(c, USERS.farmer1, 'POST', '/api/Records/1/attachment', multipart([...uploadParts(c, c.own.paths[0]!, file).slice(0, 3), { name: 'photo', file }])),
    );
    await expectRefused(c, 415, () =>
      send(c, USERS.farmer1, 'POST', '/api/Records/1/attachment', { body: Buffer.from('{"tableId":1}'), contentType: 'application/json' }),
    );
    // A record of another table than the one named.
    await expectRefused(c, 404, () =>
      upload(c, USERS.farmer1, [
        { name: 'tableId', value: String(c.t.tables.paths.id) },
        { name: 'recordId', value: String(c.own.areas[0]) },
        { name: 'tableAttachmentInfoId', value: String(c.slot) },
        { name: 'file', file },
      ]),
    );
  });

  it('accepts documents and GPS tracks in a slot without a type list; they have no thumbnail', async () => {
    // A slot that takes anything on the server's allow list (the demo slots take photos only).
    const inserted = await c.t.app.db
      .insertInto('table_attachment_infos')
      .values({ table_id: c.t.tables.indicators.id, name: 'files', mime_types: null, max_files: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    c.t.app.projects.invalidate(1);
    const indicator = c.own.indicators[0]!;
    const parts = (file: Part['file']): Part[] => [
      { name: 'tableId', value: String(c.t.tables.indicators.id) },
      { name: 'recordId', value: String(indicator) },
      { name: 'tableAttachmentInfoId', value: String(inserted.id) },
      { name: 'file', file },
    ];
    const gpx = '<?xml version="1.0"?>\n<gpx version="1.1" creator="test"><trk><trkseg/></trk></gpx>';
    const track = await upload(c, USERS.farmer1, parts({ fileName: 'pot.gpx', contentType: 'application/octet-stream', content: gpx }));
    expect(track.status).toBe(201);
    expect(track.json()).toMatchObject({ name: 'pot.gpx', mimeType: 'application/gpx+xml', hasThumb: false });
    const pdf = await upload(c, USERS.farmer1, parts({ fileName: 'navodila', contentType: 'application/pdf', content: '%PDF-1.4\n%âãÏÓ\n' }));
    expect(pdf.status).toBe(201);
    expect(pdf.json()).toMatchObject({ name: 'navodila.pdf', mimeType: 'application/pdf', hasThumb: false });
    const download = await send(c, USERS.farmer1, 'GET', `/api/Records/1/attachment/${track.json().id}`);
    expect(download.headers.get('content-type')).toBe('application/gpx+xml');
    expect(download.headers.get('content-security-policy')).toContain('sandbox');
    expect(download.bytes.toString('utf8')).toBe(gpx);
    expect((await send(c, USERS.farmer1, 'GET', `/api/Records/1/attachment/${pdf.json().id}?thumb=true`)).status).toBe(404);
    await expectRefused(c, 415, () => upload(c, USERS.farmer1, parts({ fileName: 'pot.gpx', contentType: 'application/gpx+xml', content: '<kml/>' })));
  });

  it('answers 404 for unknown attachments and slots of another table', async () => {
    expect((await send(c, USERS.editor, 'GET', '/api/Records/1/attachment/99999999')).status).toBe(404);
    expect((await send(c, USERS.editor, 'GET', '/api/Records/2/attachment/10000000')).status).toBe(404);
    expect((await send(c, USERS.editor, 'GET', `/api/Records/1/record/${c.own.paths[0]}/attachmentinfo/${c.t.tables.forms.attachments!.photos}`)).status).toBe(
      404,
    );
    expect((await send(c, USERS.editor, 'GET', `/api/Records/1/record/99999999/attachmentinfo/${c.slot}`)).status).toBe(404);
    await expectRefused(c, 404, () => send(c, USERS.editor, 'DELETE', '/api/Records/1/attachment/99999999'));
  });

  it('deletes an attachment with its bytes; the delete is idempotent with a key', async () => {
    const created = await upload(
      c,
      USERS.farmer1,
      uploadParts(c, c.own.paths[1] ?? c.own.paths[0]!, { fileName: 'del.jpg', contentType: 'image/jpeg', content: await jpegImage() }),
    );
    const info = created.json();
    const row = await c.t.app.db.selectFrom('attachments').selectAll().where('id', '=', info.id).executeTakeFirstOrThrow();
    const original = path.join(c.dataDir, 'attachments', row.storage_key);
    expect(existsSync(original)).toBe(true);
    await expectRefused(c, 403, () => send(c, USERS.reader, 'DELETE', `/api/Records/1/attachment/${info.id}`));

    const headers = { 'idempotency-key': 'del-attachment-1' };
    const first = await send(c, USERS.farmer1, 'DELETE', `/api/Records/1/attachment/${info.id}`, undefined, headers);
    expect(first.status).toBe(200);
    expect(first.json()).toEqual({ id: info.id });
    expect(existsSync(original)).toBe(false);
    expect(existsSync(`${original}.thumb`)).toBe(false);
    const again = await send(c, USERS.farmer1, 'DELETE', `/api/Records/1/attachment/${info.id}`, undefined, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await send(c, USERS.farmer1, 'GET', `/api/Records/1/attachment/${info.id}`)).status).toBe(404);
    // Without a key a second delete finds nothing.
    expect((await send(c, USERS.farmer1, 'DELETE', `/api/Records/1/attachment/${info.id}`)).status).toBe(404);
  });

  it('applies an upload once per Idempotency-Key and replays the first answer', async () => {
    const photo = await jpegImage(30, 30);
    const parts = uploadParts(c, c.own.paths[0]!, { fileName: 'once.jpg', contentType: 'image/jpeg', content: photo });
    const headers = { 'idempotency-key': 'upload-once-1' };
    const first = await upload(c, USERS.farmer1, parts, headers);
    expect(first.status).toBe(201);
    const files = filesUnder(c.dataDir);
    const again = await upload(c, USERS.farmer1, parts, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(filesUnder(c.dataDir)).toEqual(files);
    const rows = await c.t.app.db.selectFrom('attachments').selectAll().where('name', '=', 'once.jpg').execute();
    expect(rows).toHaveLength(1);
    // The same key for different bytes is refused.
    await expectRefused(c, 422, async () =>
      upload(c, USERS.farmer1, uploadParts(c, c.own.paths[0]!, { fileName: 'once.jpg', contentType: 'image/jpeg', content: await jpegImage(31, 30) }), headers),
    );
  });
});

describe('attachments with small limits', () => {
  let c: Ctx;
  const photoSize = async () => (await jpegImage(64, 48)).length;
  beforeAll(async () => {
    const size = await photoSize();
    // Room for two photos in the quota, files up to 32 KB, images up to 10,000 pixels.
    c = await setUp({ fileSize: 32 * 1024, userQuota: size * 2 + 10, maxImagePixels: 10_000 });
  });
  afterAll(async () => tearDown(c));

  it('refuses a file over the size limit (413) without keeping any of it', async () => {
    const big = Buffer.concat([await jpegImage(), Buffer.alloc(40 * 1024, 1)]);
    const body = await expectRefused(c, 413, () =>
      upload(c, USERS.farmer1, uploadParts(c, c.own.paths[0]!, { fileName: 'big.jpg', contentType: 'image/jpeg', content: big })),
    );
    expect(body.detail).toMatch(/larger than the limit of 32 KB/);
    expect(filesUnder(path.join(c.dataDir, 'tmp'))).toEqual([]);
  });

  it('refuses an image with more pixels than allowed (413)', async () => {
    const body = await expectRefused(c, 413, async () =>
      upload(c, USERS.farmer1, uploadParts(c, c.own.paths[0]!, { fileName: 'wide.jpg', contentType: 'image/jpeg', content: await jpegImage(200, 100) })),
    );
    expect(body.detail).toMatch(/more than the limit of 10000/);
  });

  it('enforces the per-user quota with a clear 413; other users keep their own quota', async () => {
    const photo = await jpegImage(64, 48);
    const file = { fileName: 'q.jpg', contentType: 'image/jpeg', content: photo };
    expect((await upload(c, USERS.farmer1, uploadParts(c, c.own.paths[0]!, file))).status).toBe(201);
    expect((await upload(c, USERS.farmer1, uploadParts(c, c.own.paths[0]!, file))).status).toBe(201);
    const body = await expectRefused(c, 413, () => upload(c, USERS.farmer1, uploadParts(c, c.own.paths[0]!, file)));
    expect(body.detail).toMatch(/^upload quota exceeded: .* used, .* more does not fit/);
    expect((await upload(c, USERS.farmer2, uploadParts(c, c.other.paths[0]!, file))).status).toBe(201);
    // Deleting frees quota.
    const list = await send(c, USERS.farmer1, 'GET', `/api/Records/1/record/${c.own.paths[0]}/attachmentinfo/${c.slot}`);
    const first = list.json().attachments[0].id as number;
    expect((await send(c, USERS.farmer1, 'DELETE', `/api/Records/1/attachment/${first}`)).status).toBe(200);
    expect((await upload(c, USERS.farmer1, uploadParts(c, c.own.paths[0]!, file))).status).toBe(201);
  });
});
