/**
 * The editors' audit trail over real HTTP on the app's database (SQLite, or PostgreSQL with
 * DATABASE_URL): changes made through the API appear with who, when, table, record and old → new;
 * the farmer, table and time filters, paging with a total, the CSV; readers 403, farmers 404;
 * bad query parameters 400 with a Slovenian detail.
 */
import { FORM_KINDS } from '../../src/common/scheme/form-kinds';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { slAudit } from '../../src/common/i18n/sl';
import type { AuditEntry, AuditPage } from '../../src/common/schemas/audit';
import type { Access } from '../../src/server/access/access';
import { auditEntries } from '../../src/server/repositories/audit-repository';
import { buildTestApp, TEST_USER_HEADER, USERS, type TestApp } from './helpers/build-test-app';
import { demoFormsAsDrafts, farmerRows, type FarmerRows } from './helpers/demo-ids';

let t: TestApp;
let own: FarmerRows;
let other: FarmerRows;
/** Instants around the edits of beforeAll. */
let beforeEdits: string;
let afterEdits: string;
/** The demo notes the first edits replaced. */
let formNote: unknown;
let indicatorNote: unknown;

const audit = (user: string, query = '') => t.as(user, { method: 'GET', url: `/api/Audit/1${query}` });

/** Changes the record's note through the API; returns the note it had. */
async function editNote(user: string, tableId: number, id: number, note: string): Promise<unknown> {
  const current = await t.as(user, { method: 'GET', url: `/api/Records/1/${tableId}/${id}` });
  expect(current.statusCode).toBe(200);
  const noteColumn = tableId === t.tables.forms.id ? t.tables.forms.columns.note : t.tables.indicators.columns.note;
  const updated = await t.as(user, {
    method: 'PUT',
    url: `/api/Records/1/${tableId}/${id}`,
    payload: { properties: { [noteColumn]: note }, version: current.json().version },
  });
  expect(updated.statusCode).toBe(200);
  return current.json().properties[noteColumn] ?? null;
}

beforeAll(async () => {
  t = await buildTestApp();
  await demoFormsAsDrafts(t.app, t.tables);
  own = await farmerRows(t.app, t.tables, USERS.farmer1);
  other = await farmerRows(t.app, t.tables, USERS.farmer2);
  beforeEdits = new Date().toISOString();
  // The editor corrects farmer 1's form twice, farmer 2 writes a note on an indicator of their own.
  formNote = await editNote(USERS.editor, t.tables.forms.id, own.forms[0]!, 'Popravil svetovalec');
  await editNote(USERS.editor, t.tables.forms.id, own.forms[0]!, 'Popravil svetovalec; drugič');
  indicatorNote = await editNote(USERS.farmer2, t.tables.indicators.id, other.indicators[0]!, 'Ob robu travnika');
  afterEdits = new Date(Date.now() + 1).toISOString();
});

afterAll(async () => {
  await t.close();
});

const since = () => `from=${encodeURIComponent(beforeEdits)}`;

describe('what the trail shows', () => {
  it('lists the changes made through the API, newest first: who, when, table, record, old → new', async () => {
    const response = await audit(USERS.editor, `?${since()}`);
    expect(response.statusCode).toBe(200);
    const page = response.json<AuditPage>();
    expect(page.totalCount).toBe(3);
    const [indicator, second, first] = page.entries as [AuditEntry, AuditEntry, AuditEntry];
    expect(indicator).toMatchObject({
      changedBy: USERS.farmer2,
      action: 'update',
      table: 'indicators',
      tableId: t.tables.indicators.id,
      recordId: other.indicators[0],
    });
    expect(indicator.changes).toEqual([{ column: 'note', old: indicatorNote, new: 'Ob robu travnika' }]);
    expect(second).toMatchObject({ changedBy: USERS.editor, table: 'forms', recordId: own.forms[0] });
    expect(second.changes).toEqual([{ column: 'note', old: 'Popravil svetovalec', new: 'Popravil svetovalec; drugič' }]);
    expect(first.changes).toEqual([{ column: 'note', old: formNote, new: 'Popravil svetovalec' }]);
    for (const entry of page.entries) {
      expect(entry.changedAt >= beforeEdits && entry.changedAt < afterEdits).toBe(true);
    }
    expect(first.id).toBeLessThan(second.id);
  });

  it('filters by farmer (every row under them), by table and by time', async () => {
    const mine = (await audit(USERS.editor, `?${since()}&farmerId=${own.farmer}`)).json<AuditPage>();
    expect(mine.entries.map((e) => e.recordId)).toEqual([own.forms[0], own.forms[0]]);
    const theirs = (await audit(USERS.editor, `?${since()}&farmerId=${other.farmer}`)).json<AuditPage>();
    expect(theirs.entries.map((e) => e.recordId)).toEqual([other.indicators[0]]);
    const forms = (await audit(USERS.editor, `?${since()}&tableId=${t.tables.forms.id}`)).json<AuditPage>();
    expect(forms.totalCount).toBe(2);
    expect(forms.entries.every((e) => e.table === 'forms')).toBe(true);
    const both = (await audit(USERS.editor, `?${since()}&tableId=${t.tables.indicators.id}&farmerId=${own.farmer}`)).json<AuditPage>();
    expect(both).toEqual({ entries: [], totalCount: 0 });
    const later = (await audit(USERS.editor, `?from=${encodeURIComponent(afterEdits)}`)).json<AuditPage>();
    expect(later.totalCount).toBe(0);
    const earlier = (await audit(USERS.editor, `?to=${encodeURIComponent(beforeEdits)}&farmerId=${own.farmer}`)).json<AuditPage>();
    expect(earlier.entries.every((e) => e.changedAt < beforeEdits)).toBe(true);
  });

  it('filters by record: the record and every row under it (a form with its indicators), deleted ones too', async () => {
    const form = (await audit(USERS.editor, `?${since()}&recordId=${own.forms[0]}`)).json<AuditPage>();
    expect(form.entries.map((e) => e.recordId)).toEqual([own.forms[0], own.forms[0]]);
    const indicator = (await audit(USERS.editor, `?${since()}&recordId=${other.indicators[0]}`)).json<AuditPage>();
    expect(indicator.entries.map((e) => e.recordId)).toEqual([other.indicators[0]]);
    const csv = (await t.as(USERS.editor, { method: 'GET', url: `/api/Audit/1/csv?${since()}&recordId=${own.forms[0]}` })).body;
    expect(csv.split('\r\n').filter((line) => line.includes('Popravil svetovalec'))).toHaveLength(2);
  });

  it('keeps the changes of a deleted record under its farmer', async () => {
    const indicator = own.indicators[own.indicators.length - 1]!;
    const deleted = await t.as(USERS.editor, { method: 'POST', url: '/api/Records/1/delete', payload: { tableId: t.tables.indicators.id, ids: [indicator] } });
    expect(deleted.statusCode).toBe(200);
    const page = (await audit(USERS.editor, `?farmerId=${own.farmer}&tableId=${t.tables.indicators.id}`)).json<AuditPage>();
    expect(page.entries[0]).toMatchObject({ recordId: indicator, action: 'delete', changedBy: USERS.editor });
  });

  it("names records and referenced values as an adviser knows them, not by their ids: a new meadow's farmer by name, a form by its kind, path and season, in the page and the CSV", async () => {
    const farmer = (await t.as(USERS.editor, { method: 'GET', url: `/api/Records/1/${t.tables.farmers.id}/${own.farmer}` })).json<{
      properties: Record<string, unknown>;
    }>();
    const farmerName = farmer.properties[String(t.tables.farmers.columns.name)] as string;
    const a = t.tables.areas.columns;
    const square = {
      type: 'Polygon',
      coordinates: [
        [
          [16.15, 46.83],
          [16.151, 46.83],
          [16.151, 46.831],
          [16.15, 46.831],
          [16.15, 46.83],
        ],
      ],
    };
    const created = await t.as(USERS.editor, {
      method: 'POST',
      url: '/api/Features/1/' + t.tables.areas.id,
      payload: { type: 'Feature', properties: { [a.name]: 'Nova senožet', [a.user]: own.farmer }, geometry: square },
    });
    expect(created.statusCode).toBe(201);
    const [entry] = (await audit(USERS.editor, `?tableId=${t.tables.areas.id}&perPage=1`)).json<AuditPage>().entries;
    expect(entry!.record).toBe('Nova senožet');
    expect(entry!.changes.find((c) => c.column === 'user')).toEqual({ column: 'user', old: null, new: own.farmer, newText: farmerName });
    const [form] = (await audit(USERS.editor, `?tableId=${t.tables.forms.id}&farmerId=${own.farmer}&perPage=1`)).json<AuditPage>().entries;
    expect(form!.record).toMatch(new RegExp(`^${FORM_KINDS.travnik.title} · .+ – pot 1 · Sezona 2025$`));
    const csv = (await t.as(USERS.editor, { method: 'GET', url: `/api/Audit/1/csv?tableId=${t.tables.areas.id}` })).body;
    expect(csv).toMatch(new RegExp(`;ustvarjeno;Travniki;Nova senožet \\(\\d+\\);kmet;;${farmerName}\r$`, 'm'));
  });

  it('names a moved geometry as a change of its own', async () => {
    const path = own.paths[0]!;
    const current = (await t.as(USERS.editor, { method: 'GET', url: `/api/Records/1/${t.tables.paths.id}/${path}` })).json();
    const line = {
      type: 'LineString',
      coordinates: [
        [16.155, 46.836],
        [16.156, 46.837],
      ],
    };
    const moved = await t.as(USERS.editor, {
      method: 'PUT',
      url: `/api/Records/1/${t.tables.paths.id}/${path}`,
      payload: { properties: {}, geometry: line, version: current.version },
    });
    expect(moved.statusCode).toBe(200);
    const [entry] = (await audit(USERS.editor, `?tableId=${t.tables.paths.id}&perPage=1`)).json<AuditPage>().entries;
    expect(entry).toMatchObject({ recordId: path, action: 'update' });
    const geometry = entry!.changes.find((c) => c.column === 'geometry')!;
    expect(geometry.new).toEqual(line);
    expect(geometry.old).toEqual(current.geometry);
    const csv = (await t.as(USERS.editor, { method: 'GET', url: `/api/Audit/1/csv?tableId=${t.tables.paths.id}` })).body;
    // GeoJSON in a cell: quoted, its quotes doubled.
    expect(csv.split('\r\n')[1]).toMatch(
      new RegExp(
        `;Poti;[^;]+ – pot 1 \\(${path}\\);geometrija;"\\{""type"":""LineString"",.*;"\\{""type"":""LineString"",""coordinates"":\\[\\[16\\.155,46\\.836\\],\\[16\\.156,46\\.837\\]\\]\\}"$`,
      ),
    );
  });

  it('pages in the database with a total, without gaps or repeats', async () => {
    for (let i = 1; i <= 8; i++) await editNote(USERS.editor, t.tables.forms.id, own.forms[1]!, `Pregled ${i}`);
    const all = (await audit(USERS.editor, '?perPage=200')).json<AuditPage>();
    expect(all.totalCount).toBeGreaterThan(10);
    const seen: number[] = [];
    const pages = Math.ceil(Math.min(all.totalCount, 200) / 3);
    for (let page = 1; page <= Math.min(pages, 4); page++) {
      const part = (await audit(USERS.editor, `?perPage=3&page=${page}`)).json<AuditPage>();
      expect(part.totalCount).toBe(all.totalCount);
      seen.push(...part.entries.map((e) => e.id));
    }
    expect(seen).toEqual(all.entries.slice(0, seen.length).map((e) => e.id));
    const past = (await audit(USERS.editor, `?perPage=3&page=${Math.ceil(all.totalCount / 3) + 1}`)).json<AuditPage>();
    expect(past).toEqual({ entries: [], totalCount: all.totalCount });
  });
});

describe('the CSV', () => {
  it('is UTF-8 with a BOM, semicolons, one line per changed column, filtered like the page', async () => {
    // Raw bytes: fetch's text() would drop the BOM.
    const response = await fetch(
      `${t.origin}/api/Audit/1/csv?${since()}&to=${encodeURIComponent(afterEdits)}&farmerId=${own.farmer}&tableId=${t.tables.forms.id}`,
      { headers: { [TEST_USER_HEADER]: USERS.editor } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="zgodovina-sprememb-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('Čas;Uporabnik;Dejanje;Tabela;Zapis;Stolpec;Prej;Potem');
    // The record by its kind, path and season, its id beside it.
    expect(lines[1]).toMatch(
      new RegExp(
        `^[^;]+;${USERS.editor};spremenjeno;Obrazci;${FORM_KINDS.travnik.title} · [^;]+ – pot 1 · Sezona 2025 \\(${own.forms[0]}\\);opomba;Popravil svetovalec;"Popravil svetovalec; drugič"$`,
      ),
    );
    expect(lines[2]).toMatch(new RegExp(`;spremenjeno;Obrazci;[^;]+\\(${own.forms[0]}\\);opomba;${String(formNote ?? '')};Popravil svetovalec$`));
    expect(lines.slice(3)).toEqual(['']);
  });

  it('holds every entry of the selection, read in keyset batches', async () => {
    const all = (await audit(USERS.editor, '?perPage=200')).json<AuditPage>();
    const schema = (await t.app.projects.get(1))!;
    const ctx = { db: t.app.db, dialect: t.app.dialect, schema, access: { role: 'editor' } as Access, now: new Date().toISOString() };
    const batches: number[][] = [];
    for await (const batch of await auditEntries(ctx, {}, 3)) batches.push(batch.map((e) => e.id));
    expect(batches.every((b) => b.length <= 3)).toBe(true);
    expect(batches.flat()).toEqual(all.entries.map((e) => e.id));
    const csv = (await t.as(USERS.editor, { method: 'GET', url: '/api/Audit/1/csv' })).body;
    // At least one line per entry (more for entries that changed several columns), header and end.
    expect(csv.split('\r\n').length - 2).toBeGreaterThanOrEqual(all.totalCount);
  });
});

describe('who may read it', () => {
  it.each([
    ['/api/Audit/1', 'page'],
    ['/api/Audit/1/csv', 'csv'],
  ])('readers get 403, farmers 404, no credentials 401 (%s)', async (url) => {
    const reader = await t.as(USERS.reader, { method: 'GET', url });
    expect(reader.statusCode).toBe(403);
    expect(reader.json()).toEqual({ status: 403, message: 'Forbidden', detail: slAudit.editorsOnly });
    expect((await t.as(USERS.farmer1, { method: 'GET', url })).statusCode).toBe(404);
    expect((await t.as(USERS.farmer1, { method: 'GET', url: `${url}?farmerId=${own.farmer}` })).statusCode).toBe(404);
    expect((await t.as(null, { method: 'GET', url })).statusCode).toBe(401);
  });

  it('answers 404 for a project that does not exist', async () => {
    expect((await t.as(USERS.editor, { method: 'GET', url: '/api/Audit/999' })).statusCode).toBe(404);
  });
});

describe('bad query parameters', () => {
  it.each([
    ['page=0', slAudit.invalid.parameter('page')],
    ['perPage=201', slAudit.invalid.parameter('perPage')],
    ['farmerId=abc', slAudit.invalid.parameter('farmerId')],
    ['tableId=-1', slAudit.invalid.parameter('tableId')],
    ['from=yesterday', slAudit.invalid.parameter('from')],
    ['to=2026-06-01', slAudit.invalid.parameter('to')],
    ['sort=id', slAudit.invalid.unknownParameter('sort')],
    ['tableId=999999', slAudit.invalid.table(999999)],
    ['from=2026-06-02T00:00:00Z&to=2026-06-01T00:00:00Z', slAudit.invalid.range],
  ])('%s → 400', async (query, detail) => {
    for (const url of [`/api/Audit/1?${query}`, `/api/Audit/1/csv?${query.replace(/^(page|perPage)=.*/, 'sort=x')}`]) {
      const response = await audit(USERS.editor, url.slice('/api/Audit/1'.length));
      expect(response.statusCode).toBe(400);
      if (url.includes(query)) expect(response.json()).toEqual({ status: 400, message: 'Bad Request', detail });
    }
  });

  it('a farmer id that is not a farmer of the project → 400', async () => {
    const response = await audit(USERS.editor, `?farmerId=${own.forms[0]}`);
    expect(response.json()).toEqual({ status: 400, message: 'Bad Request', detail: slAudit.invalid.farmer(own.forms[0]!) });
  });

  it('a record id that is not in the project → 400', async () => {
    const response = await audit(USERS.editor, '?recordId=999999999');
    expect(response.json()).toEqual({ status: 400, message: 'Bad Request', detail: slAudit.invalid.record(999999999) });
  });
});
