/**
 * The review loop on the server (docs/architecture.md, The review loop), through the ordinary
 * record writes over real HTTP: every move of src/common/review.ts's rule by the role allowed to
 * make it, every refusal (400 with the Slovenian text, 403 for readers, 404 outside a farmer's
 * chain) changing nothing at all, the server's reviewed_by/reviewed_at, a reason becoming a
 * comment of the form's thread, the farmer's 409 on a locked form (single, bulk, indicators,
 * photos) with `reviewState`, the comments' policy and the audit trail of moves. Runs on SQLite
 * and, with DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fillText, slAudit, slReview } from '../../src/common/i18n/sl';
import { buildTestApp, snapshot, TEST_USER_HEADER, USERS, type TestApp, type TestResponse } from './helpers/build-test-app';
import { farmerRows, type FarmerRows } from './helpers/demo-ids';
import { jpegImage, multipart, type Part } from '../fixtures/uploads';

const r = slReview.refused;
let t: TestApp;
let own: FarmerRows;
let other: FarmerRows;
let dataDir: string;
/** Seasons made for these tests: submitting open, submitting closed, no appeal period. */
const seasons = { open: 0, closed: 0, noAppeal: 0 };

const f = () => t.tables.forms;
const i = () => t.tables.indicators;
const c = () => t.tables.comments;
let seq = 0;
const opId = () => `review-${++seq}`;

/** A form's properties by column name. */
function formProps(values: Record<string, unknown>): Record<string, unknown> {
  const columns = f().columns as Record<string, number>;
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [String(columns[name]), value]));
}

const put = (user: string, tableId: number, id: number, properties: Record<string, unknown>, version?: number) =>
  t.as(user, { method: 'PUT', url: `/api/Records/1/${tableId}/${id}`, payload: { properties, ...(version !== undefined ? { version } : {}) } });
const post = (user: string, tableId: number, properties: Record<string, unknown>) =>
  t.as(user, { method: 'POST', url: '/api/Records/1', payload: { tableId, properties } });
const remove = (user: string, tableId: number, id: number) => t.as(user, { method: 'POST', url: '/api/Records/1/delete', payload: { tableId, ids: [id] } });
const bulk = (user: string, operations: unknown[]) => t.as(user, { method: 'POST', url: '/api/Records/1/bulk', payload: { operations } });
const move = (user: string, id: number, values: Record<string, unknown>) => put(user, f().id, id, formProps(values));

async function stored(id: number): Promise<{ version: number; p: Record<string, unknown> }> {
  const row = await t.app.db.selectFrom('records').select(['version', 'properties']).where('id', '=', id).executeTakeFirstOrThrow();
  const p = (typeof row.properties === 'string' ? JSON.parse(row.properties) : row.properties) as Record<string, unknown>;
  const columns = t.tables[await tableKeyOf(id)]!.columns as Record<string, number>;
  return { version: row.version, p: Object.fromEntries(Object.entries(columns).map(([name, column]) => [name, p[String(column)] ?? null])) };
}

async function tableKeyOf(id: number): Promise<keyof typeof t.tables> {
  const row = await t.app.db.selectFrom('records').select('table_id').where('id', '=', id).executeTakeFirstOrThrow();
  return (Object.keys(t.tables) as Array<keyof typeof t.tables>).find((key) => t.tables[key]!.id === row.table_id)!;
}

/** The form's thread, oldest first, by column name. */
async function thread(formId: number): Promise<Array<Record<string, unknown> & { id: number }>> {
  const rows = await t.app.db
    .selectFrom('records')
    .select(['id', 'properties'])
    .where('table_id', '=', c().id)
    .where('deleted', '=', 0)
    .orderBy('id')
    .execute();
  const columns = c().columns as Record<string, number>;
  return rows
    .map((row) => ({ id: row.id, p: (typeof row.properties === 'string' ? JSON.parse(row.properties) : row.properties) as Record<string, unknown> }))
    .filter((row) => row.p[String(columns.parent)] === formId)
    .map((row) => ({ id: row.id, ...Object.fromEntries(Object.entries(columns).map(([name, column]) => [name, row.p[String(column)] ?? null])) }));
}

async function historyOf(id: number): Promise<number> {
  const row = await t.app.db
    .selectFrom('record_history')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('record_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A refusal with `status` whose detail matches `detail`, after which nothing at all changed. */
async function expectRefused(status: number, action: () => Promise<TestResponse>, detail?: string | RegExp): Promise<TestResponse> {
  const before = await snapshot(t.app);
  const response = await action();
  expect({ status: response.statusCode, body: response.json() }).toMatchObject({ status });
  if (detail !== undefined) expect(response.json<{ detail: string }>().detail).toMatch(detail);
  expect(await snapshot(t.app)).toBe(before);
  return response;
}

const escape = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

/**
 * A new form of farmer 1 under the season's link of their first path, with the indicators the
 * meadow form requires (valid values unless `values` says otherwise), made by the farmer in one
 * bulk call. `completed` marks it filled in.
 */
async function newForm(season: number, options: { completed?: boolean; values?: Record<string, unknown> } = {}): Promise<number> {
  const values = options.values ?? { 'rumex-obtusifolius': 'ni', taraxacum: 'posamicno', zarascanje: 5 };
  const link = t.tables.durationPaths;
  const operations: unknown[] = [
    { opId: opId(), kind: 'insert', tableId: link.id, localId: 1, properties: { [link.columns.duration_id]: season, [link.columns.path_id]: own.paths[0] } },
    { opId: opId(), kind: 'insert', tableId: f().id, localId: 2, properties: formProps({ parent: 1, form_id: 1, completed: options.completed ?? true }) },
    ...Object.entries(values).map(([key, value], n) => ({
      opId: opId(),
      kind: 'insert',
      tableId: i().id,
      localId: 10 + n,
      properties: { [i().columns.parent]: 2, [i().columns.key]: key, [i().columns.value]: value },
    })),
  ];
  const made = await bulk(USERS.farmer1, operations);
  expect(made.statusCode).toBe(200);
  return made.json<{ results: Array<{ id: number }> }>().results[1]!.id;
}

async function indicatorsOf(formId: number): Promise<number[]> {
  const rows = await t.app.db
    .selectFrom('records')
    .select(['id', 'properties'])
    .where('table_id', '=', i().id)
    .where('deleted', '=', 0)
    .orderBy('id')
    .execute();
  return rows
    .filter(
      (row) =>
        (JSON.parse(String(typeof row.properties === 'string' ? row.properties : JSON.stringify(row.properties))) as Record<string, unknown>)[
          String(i().columns.parent)
        ] === formId,
    )
    .map((row) => row.id);
}

/** Sets a stored column straight in the database (a decision made long ago). */
async function setStored(id: number, name: string, value: unknown): Promise<void> {
  const row = await t.app.db.selectFrom('records').select('properties').where('id', '=', id).executeTakeFirstOrThrow();
  const p = (typeof row.properties === 'string' ? JSON.parse(row.properties) : row.properties) as Record<string, unknown>;
  p[String((f().columns as Record<string, number>)[name])] = value;
  await t.app.db
    .updateTable('records')
    .set({ properties: JSON.stringify(p) })
    .where('id', '=', id)
    .execute();
}

async function createSeason(name: string, year: number, deadlines: Record<string, unknown>): Promise<number> {
  const d = t.tables.durations.columns as Record<string, number>;
  const values: Record<string, unknown> = { name, filter_start: `${year}-01-01`, filter_end: `${year}-12-31`, ...deadlines };
  const made = await post(USERS.editor, t.tables.durations.id, Object.fromEntries(Object.entries(values).map(([key, value]) => [String(d[key]), value])));
  expect(made.statusCode).toBe(201);
  return made.json<{ id: number }>().id;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'mt-review-'));
  t = await buildTestApp({ dataDir });
  own = await farmerRows(t.app, t.tables, USERS.farmer1);
  other = await farmerRows(t.app, t.tables, USERS.farmer2);
  seasons.open = await createSeason('Odprta 2040', 2040, { submit_until: '2999-12-31', review_until: '2999-12-31', appeal_days: 15 });
  seasons.closed = await createSeason('Zaprta 2041', 2041, { submit_until: '2000-01-31', appeal_days: 15 });
  seasons.noAppeal = await createSeason('Brez pritožb 2042', 2042, { submit_until: '2999-12-31' });
});

afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the moves of the rule', () => {
  it('a farmer submits a draft; the server sets reviewed_by and reviewed_at, whatever the client sent along', async () => {
    const form = await newForm(seasons.open);
    const before = await stored(form);
    const started = Date.now();
    const answer = await move(USERS.farmer1, form, { review_state: 'submitted', reviewed_by: USERS.farmer1 });
    expect(answer.statusCode).toBe(200);
    const after = await stored(form);
    expect(after.version).toBe(before.version + 1);
    expect(after.p).toMatchObject({ review_state: 'submitted', reviewed_by: USERS.farmer1, review_reason: null, review_indicator: null, return_until: null });
    expect(Date.parse(String(after.p.reviewed_at))).toBeGreaterThanOrEqual(started - 1000);
    expect(answer.json<{ properties: Record<string, unknown> }>().properties[String(f().columns.reviewed_by)]).toBe(USERS.farmer1);
    // No reason, no comment.
    expect(await thread(form)).toEqual([]);
  });

  it('an editor approves, returns (with reason, indicator and own deadline) and rejects; a reason becomes a comment', async () => {
    const approved = await newForm(seasons.open);
    expect((await move(USERS.farmer1, approved, { review_state: 'submitted' })).statusCode).toBe(200);
    expect((await move(USERS.editor, approved, { review_state: 'approved' })).statusCode).toBe(200);
    expect((await stored(approved)).p).toMatchObject({ review_state: 'approved', reviewed_by: USERS.editor });
    expect(await thread(approved)).toEqual([]);

    const returned = await newForm(seasons.open);
    expect((await move(USERS.farmer1, returned, { review_state: 'submitted' })).statusCode).toBe(200);
    const historyBefore = await historyOf(returned);
    const answer = await move(USERS.editor, returned, {
      review_state: 'returned',
      review_reason: '  Preverite regrat.  ',
      review_indicator: 'taraxacum',
      return_until: '2999-06-30',
    });
    expect(answer.statusCode).toBe(200);
    expect((await stored(returned)).p).toMatchObject({
      review_state: 'returned',
      review_reason: 'Preverite regrat.',
      review_indicator: 'taraxacum',
      return_until: '2999-06-30',
      reviewed_by: USERS.editor,
    });
    expect(await historyOf(returned)).toBe(historyBefore + 1);
    const [comment] = await thread(returned);
    expect(comment).toMatchObject({ text: 'Preverite regrat.', indicator: 'taraxacum', state: 'returned', author: USERS.editor });
    // The comment is an insert with its history entry, like any other.
    expect(await historyOf(comment!.id)).toBe(1);

    const rejected = await newForm(seasons.open);
    expect((await move(USERS.farmer1, rejected, { review_state: 'submitted' })).statusCode).toBe(200);
    expect((await move(USERS.editor, rejected, { review_state: 'rejected', review_reason: 'Pot ni bila prehojena.' })).statusCode).toBe(200);
    expect(await thread(rejected)).toEqual([
      expect.objectContaining({ text: 'Pot ni bila prehojena.', indicator: null, state: 'rejected', author: USERS.editor }),
    ]);
  });

  it('a farmer resubmits a returned form: the form columns forget the return, the thread keeps it', async () => {
    const form = await newForm(seasons.open);
    await move(USERS.farmer1, form, { review_state: 'submitted' });
    await move(USERS.editor, form, {
      review_state: 'returned',
      review_reason: 'Dodajte zaraščanje.',
      review_indicator: 'zarascanje',
      return_until: '2999-01-31',
    });
    // The farmer corrects the form (a returned form is theirs again), sending the row back whole.
    const fixed = await put(
      USERS.farmer1,
      f().id,
      form,
      formProps({
        note: 'popravljeno',
        review_state: 'returned',
        review_reason: 'Dodajte zaraščanje.',
        review_indicator: 'zarascanje',
        return_until: '2999-01-31',
      }),
    );
    expect(fixed.statusCode).toBe(200);
    const again = await move(USERS.farmer1, form, {
      review_state: 'submitted',
      review_reason: 'Dodajte zaraščanje.',
      review_indicator: 'zarascanje',
      return_until: '2999-01-31',
    });
    expect(again.statusCode).toBe(200);
    expect((await stored(form)).p).toMatchObject({
      review_state: 'submitted',
      review_reason: null,
      review_indicator: null,
      return_until: null,
      reviewed_by: USERS.farmer1,
      note: 'popravljeno',
    });
    // The stored reason sent back is not a new one: no second comment.
    expect((await thread(form)).map((comment) => comment.state)).toEqual(['returned']);
  });

  it('a farmer appeals a decision within the appeal period, an editor decides with a reason, and reopens one', async () => {
    const form = await newForm(seasons.open);
    await move(USERS.farmer1, form, { review_state: 'submitted' });
    await move(USERS.editor, form, { review_state: 'rejected', review_reason: 'Premalo kazalnih rastlin.' });
    const appeal = await move(USERS.farmer1, form, { review_state: 'appealed', review_reason: 'Kadulja je bila na poti.' });
    expect(appeal.statusCode).toBe(200);
    expect((await stored(form)).p).toMatchObject({ review_state: 'appealed', reviewed_by: USERS.farmer1, review_reason: 'Kadulja je bila na poti.' });
    expect((await move(USERS.editor, form, { review_state: 'approved', review_reason: 'Pritožba utemeljena.' })).statusCode).toBe(200);
    expect((await thread(form)).map((comment) => [comment.state, comment.author])).toEqual([
      ['rejected', USERS.editor],
      ['appealed', USERS.farmer1],
      ['approved', USERS.editor],
    ]);
    // approved → appealed → rejected
    expect((await move(USERS.farmer1, form, { review_state: 'appealed', review_reason: 'Še enkrat prosim.' })).statusCode).toBe(200);
    expect((await move(USERS.editor, form, { review_state: 'rejected', review_reason: 'Pritožba zavrnjena.' })).statusCode).toBe(200);
    // Reopening a decision.
    expect((await move(USERS.editor, form, { review_state: 'submitted', review_reason: 'Ponoven pregled.' })).statusCode).toBe(200);
    expect((await stored(form)).p).toMatchObject({ review_state: 'submitted', reviewed_by: USERS.editor, review_reason: 'Ponoven pregled.' });
    expect((await thread(form)).length).toBe(6);
  });

  it('a season without appeal_days sets no appeal limit', async () => {
    const form = await newForm(seasons.noAppeal);
    await move(USERS.farmer1, form, { review_state: 'submitted' });
    await move(USERS.editor, form, { review_state: 'approved' });
    await setStored(form, 'reviewed_at', '2001-01-01T10:00:00.000Z');
    expect((await move(USERS.farmer1, form, { review_state: 'appealed', review_reason: 'Prepozno, a brez roka.' })).statusCode).toBe(200);
  });

  it('editors are not bound by the submit deadline; a returned form with a later return_until may still be submitted', async () => {
    const form = await newForm(seasons.closed);
    expect((await move(USERS.editor, form, { review_state: 'submitted' })).statusCode).toBe(200);
    await move(USERS.editor, form, { review_state: 'returned', review_reason: 'Popravite do konca meseca.', return_until: '2999-12-31' });
    expect((await move(USERS.farmer1, form, { review_state: 'submitted' })).statusCode).toBe(200);
  });

  it('inserts a form as submitted in one call when it is complete (a form is a draft until then)', async () => {
    // A draft form (no state) inserted and filled: the ordinary case.
    const form = await newForm(seasons.open);
    expect((await stored(form)).p.review_state).toBeNull();
    // An editor's insert of a submitted form is checked like a move: no indicators yet → incomplete.
    const link = (await stored(form)).p.parent as number;
    await expectRefused(
      400,
      () => post(USERS.editor, f().id, formProps({ parent: link, form_id: 1, completed: true, review_state: 'submitted' })),
      escape(r.incomplete.split('{')[0]!),
    );
    // A form of a kind without required answers could be; a draft insert with state 'draft' is no move.
    expect((await post(USERS.farmer1, f().id, formProps({ parent: link, form_id: 1, review_state: 'draft' }))).statusCode).toBe(201);
  });
});

describe('moves in bulk calls', () => {
  it('adds each reason to its form’s thread among other inserts, once: a resent call is answered duplicate', async () => {
    const [a, b] = [await newForm(seasons.open), await newForm(seasons.open)];
    expect(
      (
        await bulk(
          USERS.farmer1,
          [a, b].map((id) => ({ opId: opId(), kind: 'update', tableId: f().id, id, properties: formProps({ review_state: 'submitted' }) })),
        )
      ).statusCode,
    ).toBe(200);
    const columns = c().columns;
    const operations = [
      {
        opId: opId(),
        kind: 'update',
        tableId: f().id,
        id: a,
        properties: formProps({ review_state: 'returned', review_reason: 'Manjka fotografija.', review_indicator: 'rumex-obtusifolius' }),
      },
      { opId: opId(), kind: 'insert', tableId: c().id, localId: 5, properties: { [columns.parent]: a, [columns.text]: 'Pokličite me.' } },
      { opId: opId(), kind: 'update', tableId: f().id, id: b, properties: formProps({ review_state: 'rejected', review_reason: 'Napačen travnik.' }) },
      { opId: opId(), kind: 'insert', tableId: c().id, localId: 6, properties: { [columns.parent]: b, [columns.text]: 'Se vidimo na terenu.' } },
    ];
    const answer = await bulk(USERS.editor, operations);
    expect(answer.statusCode).toBe(200);
    // The results are the call's own operations; the moves' comments are read with the thread.
    expect(answer.json<{ results: Array<{ status: string }> }>().results.map((result) => result.status)).toEqual(['applied', 'applied', 'applied', 'applied']);
    expect((await thread(a)).map((comment) => [comment.text, comment.state, comment.indicator, comment.author])).toEqual([
      ['Manjka fotografija.', 'returned', 'rumex-obtusifolius', USERS.editor],
      ['Pokličite me.', null, null, USERS.editor],
    ]);
    expect((await thread(b)).map((comment) => [comment.text, comment.state])).toEqual([
      ['Napačen travnik.', 'rejected'],
      ['Se vidimo na terenu.', null],
    ]);
    for (const comment of [...(await thread(a)), ...(await thread(b))]) expect(await historyOf(comment.id)).toBe(1);
    const before = await snapshot(t.app);
    const again = await bulk(USERS.editor, operations);
    expect(again.json<{ results: Array<{ status: string }> }>().results.map((result) => result.status)).toEqual([
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect(await snapshot(t.app)).toBe(before);
  });

  it('a form made, filled and submitted offline goes in one call, and is scored', async () => {
    const link = t.tables.durationPaths;
    const answer = await bulk(USERS.farmer1, [
      {
        opId: opId(),
        kind: 'insert',
        tableId: link.id,
        localId: 1,
        properties: { [link.columns.duration_id]: seasons.open, [link.columns.path_id]: own.paths[0] },
      },
      { opId: opId(), kind: 'insert', tableId: f().id, localId: 2, properties: formProps({ parent: 1, form_id: 1 }) },
      ...Object.entries({ 'rumex-obtusifolius': 'ni', taraxacum: 'ni', zarascanje: 0, 'salvia-pratensis': true }).map(([key, value], n) => ({
        opId: opId(),
        kind: 'insert',
        tableId: i().id,
        localId: 10 + n,
        properties: { [i().columns.parent]: 2, [i().columns.key]: key, [i().columns.value]: value },
      })),
      { opId: opId(), kind: 'update', tableId: f().id, id: 2, properties: formProps({ completed: true, review_state: 'submitted' }) },
    ]);
    expect(answer.statusCode).toBe(200);
    const results = answer.json<{ results: Array<{ id: number; record: { properties: Record<string, unknown> } }> }>().results;
    const form = results[1]!.id;
    expect((await stored(form)).p).toMatchObject({ review_state: 'submitted', reviewed_by: USERS.farmer1, completed: true });
    expect(typeof (await stored(form)).p.score).toBe('number');
    expect(results[results.length - 1]!.record.properties[String(f().columns.score)]).toBe((await stored(form)).p.score);
  });

  it('a farmer reads the thread of their own forms; another farmer does not see it', async () => {
    const form = await newForm(seasons.open);
    await move(USERS.farmer1, form, { review_state: 'submitted' });
    await move(USERS.editor, form, { review_state: 'returned', review_reason: 'Za kmeta 1.' });
    const search = (user: string) =>
      t.as(user, {
        method: 'POST',
        url: '/api/Records/1/search',
        payload: { tableId: c().id, filters: { kind: 'filter', columnId: c().columns.parent, comparison: 'Equals', value: form } },
      });
    expect(
      (await search(USERS.farmer1))
        .json<{ records: Array<{ properties: Record<string, unknown> }> }>()
        .records.map((record) => record.properties[String(c().columns.text)]),
    ).toEqual(['Za kmeta 1.']);
    expect((await search(USERS.farmer2)).json()).toMatchObject({ records: [], totalCount: 0 });
  });
});

describe('refused moves change nothing', () => {
  let submitted: number;
  let draft: number;

  beforeAll(async () => {
    draft = await newForm(seasons.open);
    submitted = await newForm(seasons.open);
    expect((await move(USERS.farmer1, submitted, { review_state: 'submitted' })).statusCode).toBe(200);
  });

  it('wrong role: a farmer approving, an editor appealing', async () => {
    await expectRefused(400, () => move(USERS.farmer1, submitted, { review_state: 'approved' }), fillText(r.editorsOnly, { to: slReview.state.approved }));
    const decided = await newForm(seasons.open);
    await move(USERS.farmer1, decided, { review_state: 'submitted' });
    await move(USERS.editor, decided, { review_state: 'approved' });
    await expectRefused(400, () => move(USERS.editor, decided, { review_state: 'appealed', review_reason: 'Za kmeta.' }), r.farmersOnly);
  });

  it('wrong state: approving a draft, going back to draft', async () => {
    await expectRefused(
      400,
      () => move(USERS.editor, draft, { review_state: 'approved' }),
      fillText(r.transition, { from: slReview.state.draft, to: slReview.state.approved }),
    );
    await expectRefused(
      400,
      () => move(USERS.editor, submitted, { review_state: '' }),
      fillText(r.transition, { from: slReview.state.submitted, to: slReview.state.draft }),
    );
  });

  it('after the submit deadline, and a returned form without a later deadline of its own', async () => {
    const late = await newForm(seasons.closed);
    await expectRefused(400, () => move(USERS.farmer1, late, { review_state: 'submitted' }), fillText(r.submitDeadline, { date: '31. 1. 2000' }));
    await move(USERS.editor, late, { review_state: 'submitted' });
    await move(USERS.editor, late, { review_state: 'returned', review_reason: 'Popravite.' });
    await expectRefused(400, () => move(USERS.farmer1, late, { review_state: 'submitted' }), fillText(r.submitDeadline, { date: '31. 1. 2000' }));
  });

  it('an appeal after the appeal period (last season: decided 14. 11. 2025, 15 days)', async () => {
    await expectRefused(
      400,
      () => move(USERS.farmer1, own.forms[0]!, { review_state: 'appealed', review_reason: 'Prepozno.' }),
      fillText(r.appealDeadline, { date: '29. 11. 2025' }),
    );
  });

  it('a missing reason', async () => {
    await expectRefused(400, () => move(USERS.editor, submitted, { review_state: 'returned' }), fillText(r.reasonMissing, { to: slReview.state.returned }));
    await expectRefused(
      400,
      () => move(USERS.editor, submitted, { review_state: 'rejected', review_reason: '   ' }),
      fillText(r.reasonMissing, { to: slReview.state.rejected }),
    );
  });

  it('readers 403, another farmer’s form 404', async () => {
    await expectRefused(403, () => move(USERS.reader, submitted, { review_state: 'approved' }));
    await expectRefused(404, () => move(USERS.farmer2, draft, { review_state: 'submitted' }));
  });

  it('an incomplete or invalid form, or one not marked completed', async () => {
    const missing = await newForm(seasons.open, { values: { 'rumex-obtusifolius': 'ni' } });
    await expectRefused(400, () => move(USERS.farmer1, missing, { review_state: 'submitted' }), /Obrazca ni mogoče oddati, dokler ni izpolnjen: .*regrat/);
    const invalidValue = await newForm(seasons.open, { values: { 'rumex-obtusifolius': 'ni', taraxacum: 'ni', zarascanje: 150 } });
    await expectRefused(400, () => move(USERS.farmer1, invalidValue, { review_state: 'submitted' }), /Obrazca ni mogoče oddati, dokler ni izpolnjen: /);
    const unfinished = await newForm(seasons.open, { completed: false });
    await expectRefused(400, () => move(USERS.farmer1, unfinished, { review_state: 'submitted' }), r.notCompleted);
    // Marking it completed in the same write is enough.
    expect((await move(USERS.farmer1, unfinished, { review_state: 'submitted', completed: true })).statusCode).toBe(200);
  });

  it('the missing answer given earlier in the same bulk call counts', async () => {
    const form = await newForm(seasons.open, { values: { 'rumex-obtusifolius': 'ni', taraxacum: 'ni' } });
    const answer = await bulk(USERS.farmer1, [
      {
        opId: opId(),
        kind: 'insert',
        tableId: i().id,
        localId: 50,
        properties: { [i().columns.parent]: form, [i().columns.key]: 'zarascanje', [i().columns.value]: 0 },
      },
      { opId: opId(), kind: 'update', tableId: f().id, id: form, properties: formProps({ review_state: 'submitted' }) },
    ]);
    expect(answer.statusCode).toBe(200);
    expect((await stored(form)).p.review_state).toBe('submitted');
  });

  it('an unknown state', async () => {
    await expectRefused(
      400,
      () => move(USERS.editor, submitted, { review_state: 'done' }),
      fillText(r.unknownState, { state: 'done', states: 'draft, submitted, returned, approved, rejected, appealed' }),
    );
  });

  it('reviewed_by and reviewed_at are the server’s: a client value is refused, the stored one may be sent back', async () => {
    const current = (await stored(submitted)).p;
    await expectRefused(400, () => move(USERS.editor, submitted, { reviewed_by: USERS.editor }), fillText(r.serverColumn, { column: 'reviewed_by' }));
    await expectRefused(
      400,
      () => move(USERS.editor, submitted, { review_state: 'approved', reviewed_at: '2030-01-01T00:00:00.000Z' }),
      fillText(r.serverColumn, { column: 'reviewed_at' }),
    );
    await expectRefused(
      400,
      () => move(USERS.editor, submitted, { review_state: 'approved', reviewed_by: 'nekdo@example.si' }),
      fillText(r.serverColumn, { column: 'reviewed_by' }),
    );
    const echo = await move(USERS.editor, submitted, { reviewed_by: current.reviewed_by, reviewed_at: current.reviewed_at, note: 'urednik' });
    expect(echo.statusCode).toBe(200);
  });

  it('return_until only with an editor’s return; reason and indicator only with a move; indicators of the kind', async () => {
    await expectRefused(400, () => move(USERS.editor, submitted, { review_state: 'approved', return_until: '2999-01-01' }), r.returnUntil);
    await expectRefused(400, () => move(USERS.editor, submitted, { review_reason: 'Brez prehoda.' }), fillText(r.withoutMove, { column: 'review_reason' }));
    await expectRefused(400, () => move(USERS.editor, submitted, { return_until: '2999-01-01' }), fillText(r.withoutMove, { column: 'return_until' }));
    await expectRefused(
      400,
      () => move(USERS.editor, submitted, { review_state: 'returned', review_reason: 'Kateri?', review_indicator: 'ni-takega' }),
      fillText(r.unknownIndicator, { key: 'ni-takega' }),
    );
  });

  it('a refused move in a bulk call refuses the call whole', async () => {
    const form = await newForm(seasons.open);
    await expectRefused(
      400,
      () =>
        bulk(USERS.farmer1, [
          { opId: opId(), kind: 'update', tableId: f().id, id: form, properties: formProps({ note: 'ne sme ostati' }) },
          { opId: opId(), kind: 'update', tableId: f().id, id: submitted, properties: formProps({ review_state: 'approved' }) },
        ]),
      /operations\[1\].*prestavi le svetovalec/,
    );
    expect(await thread(form)).toEqual([]);
  });
});

describe('a locked form (submitted, approved, rejected, appealed) for its farmer', () => {
  let form: number;
  let indicators: number[];
  let photo: number;
  let version: number;

  const photoParts = (recordId: number, file: Part['file']): Part[] => [
    { name: 'tableId', value: String(i().id) },
    { name: 'recordId', value: String(recordId) },
    { name: 'tableAttachmentInfoId', value: String(i().attachments!.photos) },
    { name: 'file', file },
  ];
  const send = async (user: string, url: string, body: { body: Buffer; contentType: string }, method = 'POST'): Promise<TestResponse> => {
    const response = await fetch(`${t.origin}${url}`, {
      method,
      headers: { [TEST_USER_HEADER]: user, 'content-type': body.contentType },
      body: new Uint8Array(body.body),
    });
    const text = await response.text();
    return { statusCode: response.status, headers: response.headers, body: text, json: () => JSON.parse(text) };
  };

  beforeAll(async () => {
    form = await newForm(seasons.open);
    indicators = await indicatorsOf(form);
    const file = { fileName: 'kislica.jpg', contentType: 'image/jpeg', content: await jpegImage() };
    const uploaded = await send(USERS.farmer1, '/api/Records/1/attachment', multipart(photoParts(indicators[0]!, file)));
    expect(uploaded.statusCode).toBe(201);
    photo = uploaded.json<{ id: number }>().id;
    expect((await move(USERS.farmer1, form, { review_state: 'submitted' })).statusCode).toBe(200);
    version = (await stored(form)).version;
  });

  const locked = fillText(r.locked, { state: slReview.state.submitted });

  it('an update of the form: 409 with the stored form and reviewState', async () => {
    const answer = await expectRefused(409, () => put(USERS.farmer1, f().id, form, formProps({ note: 'še nekaj' }), version), locked);
    expect(answer.json()).toMatchObject({
      status: 409,
      message: 'Generic Error',
      detail: locked,
      reviewState: 'submitted',
      current: { id: form, tableId: f().id, version },
    });
    // A move mixed with another change is not a move.
    await expectRefused(409, () => move(USERS.farmer1, form, { review_state: 'submitted', note: 'x', completed: false }), locked);
  });

  it('an edit made before the form was submitted (stale too) is refused as locked, not as a plain conflict ("keep mine" would only meet the lock)', async () => {
    const answer = await expectRefused(409, () => put(USERS.farmer1, f().id, form, formProps({ note: 'na terenu' }), version - 1), locked);
    expect(answer.json()).toMatchObject({ reviewState: 'submitted', current: { id: form, version } });
    // A stale move is an ordinary conflict: the farmer sees the adviser's change first.
    const staleMove = await put(USERS.farmer1, f().id, form, formProps({ review_state: 'submitted' }), version - 1);
    expect(staleMove.statusCode).toBe(409);
    expect(staleMove.json()).not.toHaveProperty('reviewState');
  });

  it('sending the row back unchanged is no change (200, same version)', async () => {
    const answer = await put(USERS.farmer1, f().id, form, formProps({ review_state: 'submitted', note: null }));
    expect(answer.statusCode).toBe(200);
    expect(answer.json<{ version: number }>().version).toBe(version);
  });

  it('a delete of the form, an insert, update or delete of its indicators', async () => {
    await expectRefused(409, () => remove(USERS.farmer1, f().id, form), locked);
    const insert = await expectRefused(
      409,
      () => post(USERS.farmer1, i().id, { [i().columns.parent]: form, [i().columns.key]: 'salvia-pratensis', [i().columns.value]: true }),
      locked,
    );
    // A new indicator changes the form: `current` is the form.
    expect(insert.json()).toMatchObject({ reviewState: 'submitted', current: { id: form, tableId: f().id } });
    const update = await expectRefused(409, () => put(USERS.farmer1, i().id, indicators[0]!, { [i().columns.value]: 'pogosto' }), locked);
    expect(update.json()).toMatchObject({ reviewState: 'submitted', current: { id: indicators[0], tableId: i().id } });
    const deleted = await expectRefused(409, () => remove(USERS.farmer1, i().id, indicators[1]!), locked);
    expect(deleted.json()).toMatchObject({ reviewState: 'submitted', current: { id: indicators[1] } });
    // Moving one of the farmer's draft indicators under the locked form.
    const draft = await newForm(seasons.open);
    const [loose] = await indicatorsOf(draft);
    await expectRefused(409, () => put(USERS.farmer1, i().id, loose!, { [i().columns.parent]: form }), locked);
  });

  it('in a bulk call: the call is refused whole, naming the operation, like a version conflict', async () => {
    const draft = await newForm(seasons.open);
    const lockedOp = opId();
    const answer = await expectRefused(409, () =>
      bulk(USERS.farmer1, [
        { opId: opId(), kind: 'update', tableId: f().id, id: draft, properties: formProps({ note: 'ne sme ostati' }) },
        {
          opId: lockedOp,
          kind: 'insert',
          tableId: i().id,
          localId: 77,
          properties: { [i().columns.parent]: form, [i().columns.key]: 'briza-media', [i().columns.value]: true },
        },
      ]),
    );
    expect(answer.json()).toMatchObject({
      status: 409,
      opId: lockedOp,
      reviewState: 'submitted',
      current: { id: form },
      detail: `operations[1] (opId ${lockedOp}): ${locked}`,
    });
    for (const op of [
      { kind: 'update', tableId: i().id, id: indicators[0], properties: { [i().columns.note]: 'opomba' } },
      { kind: 'delete', tableId: i().id, id: indicators[0] },
      { kind: 'delete', tableId: f().id, id: form },
      { kind: 'update', tableId: f().id, id: form, properties: formProps({ completed: false }) },
    ]) {
      const id = opId();
      expect((await expectRefused(409, () => bulk(USERS.farmer1, [{ opId: id, ...op }]))).json()).toMatchObject({ opId: id, reviewState: 'submitted' });
    }
  });

  it('photos: an upload, a delete, a `full` write with a photo', async () => {
    const file = { fileName: 'regrat.jpg', contentType: 'image/jpeg', content: await jpegImage() };
    const upload = await expectRefused(409, () => send(USERS.farmer1, '/api/Records/1/attachment', multipart(photoParts(indicators[0]!, file))), locked);
    expect(upload.json()).toMatchObject({ reviewState: 'submitted', current: { id: indicators[0] } });
    const formPhoto = [
      { name: 'tableId', value: String(f().id) },
      { name: 'recordId', value: String(form) },
      { name: 'tableAttachmentInfoId', value: String(f().attachments!.photos) },
      { name: 'file', file },
    ];
    await expectRefused(409, () => send(USERS.farmer1, '/api/Records/1/attachment', multipart(formPhoto)), locked);
    await expectRefused(409, () => t.as(USERS.farmer1, { method: 'DELETE', url: `/api/Records/1/attachment/${photo}` }), locked);
    const full = multipart([
      { name: 'record', value: JSON.stringify({ tableId: i().id, id: indicators[0], properties: {} }) },
      { name: 'photos', file },
    ]);
    await expectRefused(409, () => send(USERS.farmer1, '/api/Records/1/full', full), locked);
    // A new indicator with a photo under the locked form.
    const fullInsert = multipart([
      {
        name: 'record',
        value: JSON.stringify({ tableId: i().id, properties: { [i().columns.parent]: form, [i().columns.key]: 'briza-media', [i().columns.value]: true } }),
      },
      { name: 'photos', file },
    ]);
    await expectRefused(409, () => send(USERS.farmer1, '/api/Records/1/full', fullInsert), locked);
  });

  it('editors are never locked; a returned form is the farmer’s again', async () => {
    expect((await put(USERS.editor, i().id, indicators[2]!, { [i().columns.note]: 'svetovalec' })).statusCode).toBe(200);
    expect((await move(USERS.editor, form, { review_state: 'returned', review_reason: 'Dopolnite.' })).statusCode).toBe(200);
    expect((await put(USERS.farmer1, i().id, indicators[0]!, { [i().columns.value]: 'pogosto' })).statusCode).toBe(200);
    expect((await t.as(USERS.farmer1, { method: 'DELETE', url: `/api/Records/1/attachment/${photo}` })).statusCode).toBe(200);
  });

  it('every locking state locks, with its name', async () => {
    const decided = await newForm(seasons.open);
    await move(USERS.farmer1, decided, { review_state: 'submitted' });
    await move(USERS.editor, decided, { review_state: 'approved' });
    const approved = await expectRefused(
      409,
      () => move(USERS.farmer1, decided, { note: 'po odločbi' }),
      fillText(r.locked, { state: slReview.state.approved }),
    );
    expect(approved.json()).toMatchObject({ reviewState: 'approved' });
    await move(USERS.farmer1, decided, { review_state: 'appealed', review_reason: 'Prosim za ponovni pregled.' });
    expect((await expectRefused(409, () => remove(USERS.farmer1, f().id, decided))).json()).toMatchObject({ reviewState: 'appealed' });
    await move(USERS.editor, decided, { review_state: 'rejected', review_reason: 'Ostaja.' });
    expect((await expectRefused(409, () => remove(USERS.farmer1, f().id, decided))).json()).toMatchObject({ reviewState: 'rejected' });
  });
});

describe('comments', () => {
  let form: number;
  beforeAll(async () => {
    form = await newForm(seasons.open);
  });
  const comment = (values: Record<string, unknown>) => {
    const columns = c().columns as Record<string, number>;
    return Object.fromEntries(Object.entries(values).map(([name, value]) => [String(columns[name]), value]));
  };

  it('a farmer comments on their own form; the server sets the author and leaves a reply without state', async () => {
    const answer = await post(
      USERS.farmer1,
      c().id,
      comment({ parent: form, text: 'Kje naj preverim?', indicator: 'taraxacum', author: 'nekdo@example.si', state: 'approved' }),
    );
    expect(answer.statusCode).toBe(201);
    const made = await stored(answer.json<{ id: number }>().id);
    expect(made.p).toMatchObject({ parent: form, text: 'Kje naj preverim?', indicator: 'taraxacum', author: USERS.farmer1, state: null });
    // Even on a locked form: the thread is how farmer and adviser talk.
    await move(USERS.farmer1, form, { review_state: 'submitted' });
    expect((await post(USERS.farmer1, c().id, comment({ parent: form, text: 'Oddal sem.' }))).statusCode).toBe(201);
  });

  it('farmers neither update nor delete comments; editors do, and the author stays', async () => {
    const id = (await post(USERS.editor, c().id, comment({ parent: form, text: 'Pogledal bom.' }))).json<{ id: number }>().id;
    expect((await stored(id)).p.author).toBe(USERS.editor);
    await expectRefused(403, () => put(USERS.farmer1, c().id, id, comment({ text: 'spremenjeno' })));
    await expectRefused(403, () => remove(USERS.farmer1, c().id, id));
    expect((await put(USERS.editor, c().id, id, comment({ text: 'Pogledal sem.', author: 'drug@example.si' }))).statusCode).toBe(200);
    expect((await stored(id)).p).toMatchObject({ text: 'Pogledal sem.', author: USERS.editor });
    expect((await remove(USERS.editor, c().id, id)).statusCode).toBe(200);
  });

  it('refuses an empty text, an indicator of another kind, readers, another farmer’s form', async () => {
    await expectRefused(400, () => post(USERS.farmer1, c().id, comment({ parent: form, text: '   ' })), r.commentEmpty);
    await expectRefused(400, () => post(USERS.farmer1, c().id, comment({ parent: form })), r.commentEmpty);
    await expectRefused(
      400,
      () => post(USERS.farmer1, c().id, comment({ parent: form, text: 'Kosnja?', indicator: 'datum-prve-kosnje' })),
      fillText(r.unknownIndicator, { key: 'datum-prve-kosnje' }),
    );
    await expectRefused(403, () => post(USERS.reader, c().id, comment({ parent: form, text: 'Bralec.' })));
    // Another farmer's form is not theirs to see: refused as a reference to a record not found.
    await expectRefused(400, () => post(USERS.farmer2, c().id, comment({ parent: form, text: 'Tuje.' })), /not found in table forms/);
    expect(other.forms.length).toBeGreaterThan(0);
  });
});

describe('the audit trail shows the moves', () => {
  it('as changes of review_state, reviewed_by and reviewed_at of the form, in the CSV by their Slovenian names', async () => {
    const form = await newForm(seasons.open);
    await move(USERS.farmer1, form, { review_state: 'submitted' });
    const page = (await t.as(USERS.editor, { method: 'GET', url: `/api/Audit/1?tableId=${f().id}&perPage=5` })).json<{
      entries: Array<{ recordId: number; changedBy: string; changes: Array<{ column: string; old: unknown; new: unknown }> }>;
    }>();
    const entry = page.entries.find((e) => e.recordId === form)!;
    expect(entry.changedBy).toBe(USERS.farmer1);
    expect(entry.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ column: 'review_state', old: null, new: 'submitted' }),
        expect.objectContaining({ column: 'reviewed_by', new: USERS.farmer1 }),
      ]),
    );
    const csv = (await t.as(USERS.editor, { method: 'GET', url: `/api/Audit/1/csv?tableId=${f().id}` })).body;
    // The form by its kind (its id beside it), the state by its word.
    const line = csv.split('\r\n').find((row) => row.includes(`(${form});${slAudit.columns.review_state};`));
    expect(line).toMatch(new RegExp(`;${slAudit.tables.forms};[^;]+ \\(${form}\\);${slAudit.columns.review_state};;${slReview.state.submitted}$`));
  });
});
