/**
 * Editors' archive edits as the outbox delivers them (one `archive` operation in a bulk call,
 * client features/sync/drain.ts): an archived indicator no longer counts in its
 * form's stored score; an archived area stays readable for its farmer with archived: true (the
 * client leaves it, and its paths, out of every view); farmers cannot archive.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FORM_KINDS } from '../../src/common/scheme/form-kinds';
import { buildTestApp, USERS, type TestApp } from './helpers/build-test-app';
import { farmerRows, type FarmerRows } from './helpers/demo-ids';

let t: TestApp;
let own: FarmerRows;
const F = USERS.farmer1;
const kind = FORM_KINDS.travnik;

beforeAll(async () => {
  t = await buildTestApp();
  own = await farmerRows(t.app, t.tables, F);
});
afterAll(async () => {
  await t.close();
});

let op = 0;
const opId = () => `a7c1e2d4-0000-4000-8000-${String(++op).padStart(12, '0')}`;

async function create(tableId: number, properties: Record<string, unknown>): Promise<{ id: number }> {
  const r = await t.as(F, { method: 'POST', url: '/api/Records/1', payload: { tableId, properties } });
  expect(r.statusCode).toBeLessThan(300);
  return r.json();
}

async function archiveInBulk(user: string, tableId: number, id: number) {
  return t.as(user, { method: 'POST', url: '/api/Records/1/bulk', payload: { operations: [{ opId: opId(), kind: 'archive', tableId, id }] } });
}

describe('archive through the outbox (bulk)', () => {
  it('an archived indicator leaves its form’s stored score; the row stays readable as archived', async () => {
    const fc = t.tables.forms.columns;
    const ic = t.tables.indicators.columns;
    const form = await create(t.tables.forms.id, { [fc.parent]: own.durationPaths[0], [fc.form_id]: kind.id });
    const score = async () => (await t.as(F, { method: 'GET', url: `/api/Records/1/${t.tables.forms.id}/${form.id}` })).json().properties[String(fc.score)];
    await create(t.tables.indicators.id, { [ic.parent]: form.id, [ic.key]: 'salvia-pratensis', [ic.value]: true });
    const rozga = await create(t.tables.indicators.id, { [ic.parent]: form.id, [ic.key]: 'solidago', [ic.value]: true });
    expect(await score()).toBe(Math.max(0, kind.scoring.base + 7 - 20));

    const archived = await archiveInBulk(USERS.editor, t.tables.indicators.id, rozga.id);
    expect(archived.statusCode).toBe(200);
    expect(archived.json().results[0]).toMatchObject({ status: 'applied', id: rozga.id });
    expect(await score()).toBe(kind.scoring.base + 7);

    const row = await t.as(F, { method: 'GET', url: `/api/Records/1/${t.tables.indicators.id}/${rozga.id}` });
    expect(row.statusCode).toBe(200);
    expect(row.json().archived).toBe(true);
  });

  it('farmers cannot archive; an editor’s archived area reads back archived for its farmer', async () => {
    const area = own.areas[0]!;
    const refused = await archiveInBulk(F, t.tables.areas.id, area);
    expect(refused.statusCode).toBe(403);
    const before = await t.as(F, { method: 'GET', url: `/api/Records/1/${t.tables.areas.id}/${area}` });
    expect(before.json().archived).toBe(false);

    const archived = await archiveInBulk(USERS.editor, t.tables.areas.id, area);
    expect(archived.statusCode).toBe(200);
    const after = await t.as(F, { method: 'GET', url: `/api/Records/1/${t.tables.areas.id}/${area}` });
    expect(after.statusCode).toBe(200);
    expect(after.json().archived).toBe(true);
  });
});
