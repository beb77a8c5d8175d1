/**
 * The server keeps a form's stored score and rule version in step with its indicators
 * (src/server/repositories/form-score.ts): whatever score a client sends, the stored one is
 * computeScore of the live indicators — after creating a form, adding, changing, deleting and
 * archiving indicators, single calls and bulk alike.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FORM_KINDS } from '../../src/common/scheme/form-kinds';
import { buildTestApp, USERS, type TestApp } from './helpers/build-test-app';
import { farmerRows, type FarmerRows } from './helpers/demo-ids';

let t: TestApp;
let own: FarmerRows;
const F = USERS.farmer1;

beforeAll(async () => {
  t = await buildTestApp();
  own = await farmerRows(t.app, t.tables, F);
});
afterAll(async () => {
  await t.close();
});

const kind = FORM_KINDS.travnik;

async function formProps(id: number): Promise<Record<string, unknown>> {
  const r = await t.as(F, { method: 'GET', url: `/api/Records/1/${t.tables.forms.id}/${id}` });
  expect(r.statusCode).toBe(200);
  return r.json().properties;
}

async function create(tableId: number, properties: Record<string, unknown>): Promise<{ id: number; properties: Record<string, unknown>; version: number }> {
  const r = await t.as(F, { method: 'POST', url: '/api/Records/1', payload: { tableId, properties } });
  expect(r.statusCode).toBeLessThan(300);
  return r.json();
}

describe('stored form score', () => {
  const fc = () => t.tables.forms.columns;
  const ic = () => t.tables.indicators.columns;

  it('is computed on create, ignoring the score the client sent', async () => {
    const form = await create(t.tables.forms.id, {
      [fc().parent]: own.durationPaths[0],
      [fc().form_id]: kind.id,
      [fc().score]: 99,
      [fc().rule_version]: 'bogus',
    });
    // No indicators: the rule's base, classified bad.
    expect(form.properties[String(fc().score)]).toBe(kind.scoring.base);
    expect(form.properties[String(fc().rule_version)]).toBe(kind.scoring.version);
    expect((await formProps(form.id))[String(fc().score)]).toBe(kind.scoring.base);
  });

  it('follows indicator inserts, updates, deletes and archives without bumping the form version', async () => {
    const form = await create(t.tables.forms.id, { [fc().parent]: own.durationPaths[0], [fc().form_id]: kind.id });
    const score = async () => (await formProps(form.id))[String(fc().score)];
    const base = kind.scoring.base;
    const kadulja = await create(t.tables.indicators.id, { [ic().parent]: form.id, [ic().key]: 'salvia-pratensis', [ic().value]: true });
    expect(await score()).toBe(base + 7);
    const rozga = await create(t.tables.indicators.id, { [ic().parent]: form.id, [ic().key]: 'solidago', [ic().value]: true });
    expect(await score()).toBe(Math.max(0, base + 7 - 20));

    const put = await t.as(F, { method: 'PUT', url: `/api/Records/1/${t.tables.indicators.id}/${rozga.id}`, payload: { properties: { [ic().value]: false } } });
    expect(put.statusCode).toBe(200);
    expect(await score()).toBe(base + 7);

    const del = await t.as(F, { method: 'POST', url: '/api/Records/1/delete', payload: { tableId: t.tables.indicators.id, ids: [kadulja.id] } });
    expect(del.statusCode).toBe(200);
    expect(await score()).toBe(base);

    // Bulk, as the outbox sends it.
    const bulk = await t.as(F, {
      method: 'POST',
      url: '/api/Records/1/bulk',
      payload: {
        operations: [
          {
            opId: 'b7d0c6f2-0000-4000-8000-000000000001',
            kind: 'insert',
            tableId: t.tables.indicators.id,
            properties: { [ic().parent]: form.id, [ic().key]: 'orchidaceae', [ic().value]: 2 },
          },
        ],
      },
    });
    expect(bulk.statusCode).toBe(200);
    expect(await score()).toBe(base + 10);

    const archived = await t.as(USERS.editor, {
      method: 'POST',
      url: '/api/Records/1/archive',
      payload: { tableId: t.tables.indicators.id, ids: [bulk.json().results[0].id] },
    });
    expect(archived.statusCode).toBe(200);
    expect(await score()).toBe(base);

    // The recomputation is not a user's change: the version stays where the client's edits left it.
    const current = await t.as(F, { method: 'GET', url: `/api/Records/1/${t.tables.forms.id}/${form.id}` });
    expect(current.json().version).toBe(form.version);
  });

  it('is computed once per touched form at the end of a bulk call, and the answer carries the final score', async () => {
    // A form made offline and its indicators, in one batch as the outbox sends them: the form's
    // result must show the score of all its indicators, not the one it had when it was inserted.
    const op = (n: number) => `c1f5e8a0-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const localForm = 4242;
    const keys = ['salvia-pratensis', 'lotus-corniculatus', 'centaurea-jacea'];
    const bulk = await t.as(F, {
      method: 'POST',
      url: '/api/Records/1/bulk',
      payload: {
        operations: [
          {
            opId: op(1),
            kind: 'insert',
            tableId: t.tables.forms.id,
            localId: localForm,
            properties: { [fc().parent]: own.durationPaths[0], [fc().form_id]: kind.id },
          },
          ...keys.map((key, i) => ({
            opId: op(i + 2),
            kind: 'insert',
            tableId: t.tables.indicators.id,
            properties: { [ic().parent]: localForm, [ic().key]: key, [ic().value]: true },
          })),
        ],
      },
    });
    expect(bulk.statusCode).toBe(200);
    const formResult = bulk.json().results[0];
    const expected = kind.scoring.base + 7 * keys.length;
    expect(formResult.record.properties[String(fc().score)]).toBe(expected);
    expect((await formProps(formResult.id))[String(fc().score)]).toBe(expected);
    expect(formResult.record.version).toBe(1);
  });

  it("counts a stored form's stored indicators and those a bulk call adds, an indicator changed in the same call by its last value", async () => {
    // The call scores before its new rows are written: the stored rows come from the database, the
    // call's own from what it holds, the updated one as updated.
    const form = await create(t.tables.forms.id, { [fc().parent]: own.durationPaths[0], [fc().form_id]: kind.id });
    await create(t.tables.indicators.id, { [ic().parent]: form.id, [ic().key]: 'salvia-pratensis', [ic().value]: true });
    const op = (n: number) => `d2a6f3b1-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const localOrchids = 5151;
    const bulk = await t.as(F, {
      method: 'POST',
      url: '/api/Records/1/bulk',
      payload: {
        operations: [
          {
            opId: op(1),
            kind: 'insert',
            tableId: t.tables.indicators.id,
            properties: { [ic().parent]: form.id, [ic().key]: 'lotus-corniculatus', [ic().value]: true },
          },
          {
            opId: op(2),
            kind: 'insert',
            tableId: t.tables.indicators.id,
            localId: localOrchids,
            properties: { [ic().parent]: form.id, [ic().key]: 'orchidaceae', [ic().value]: 1 },
          },
          { opId: op(3), kind: 'update', tableId: t.tables.indicators.id, id: localOrchids, properties: { [ic().value]: 3 } },
        ],
      },
    });
    expect(bulk.statusCode).toBe(200);
    // 7 + 7 for the two plants, 3 × 5 for the orchids (not 1 × 5).
    expect((await formProps(form.id))[String(fc().score)]).toBe(kind.scoring.base + 7 + 7 + 15);
    const form2 = await t.as(F, { method: 'GET', url: `/api/Records/1/${t.tables.forms.id}/${form.id}` });
    expect(form2.json().version).toBe(form.version);
  });

  it('overrides a score a client puts on the form', async () => {
    const form = await create(t.tables.forms.id, { [fc().parent]: own.durationPaths[0], [fc().form_id]: kind.id });
    const put = await t.as(F, {
      method: 'PUT',
      url: `/api/Records/1/${t.tables.forms.id}/${form.id}`,
      payload: { properties: { [fc().score]: 100, [fc().note]: 'x' } },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().properties[String(fc().score)]).toBe(kind.scoring.base);
    expect(put.json().properties[String(fc().note)]).toBe('x');
  });
});
