/**
 * The demo project's forms and indicators (src/server/db/seed-demo.ts) are the first thing a
 * reviewer sees: every stored form must be a scheme form kind with valid answers, and its stored
 * score and rule version must be what the shared rule computes. Runs the real seed on a real
 * in-memory SQLite database.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import { DEMO_PROJECT_ID, loadDemoData } from '../../src/server/seed/seed-demo';
import { loadProjectSchema } from '../../src/server/repositories/project-repository';
import type { TableInfo } from '../../src/server/project-schema';
import { formKinds } from '../../src/common/scheme/form-kinds';
import { formKindById } from '../../src/common/scheme/kind-lookup';
import { computeScore, validateForm, valuesFromIndicators } from '../../src/common/scheme/scoring';

interface Row {
  id: number;
  values: Record<string, unknown>;
}

let handle: DatabaseHandle;
let dataDir: string;
let forms: Row[];
let indicators: Row[];

async function rowsOf(table: TableInfo): Promise<Row[]> {
  const records = await handle.db
    .selectFrom('records')
    .select(['id', 'properties'])
    .where('table_id', '=', table.id)
    .where('deleted', '=', 0)
    .orderBy('id')
    .execute();
  return records.map((record) => {
    const byId = JSON.parse(record.properties) as Record<string, unknown>;
    const values: Record<string, unknown> = {};
    for (const [columnId, value] of Object.entries(byId)) values[table.columnsById.get(Number(columnId))!.name] = value;
    return { id: record.id, values };
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'scheme-demo-'));
  handle = await openDatabase({ database: ':memory:', dataDir });
  expect(await loadDemoData(handle.db, handle.dialect)).toBe(true);
  const schema = (await loadProjectSchema(handle.db, DEMO_PROJECT_ID))!;
  forms = await rowsOf(schema.tablesByKey.get('forms')!);
  indicators = await rowsOf(schema.tablesByKey.get('indicators')!);
});

afterAll(async () => {
  await handle?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('demo forms and indicators against the scheme', () => {
  it('stores forms of both scheme kinds with indicators', () => {
    const kinds = new Set(forms.map((f) => f.values.form_id));
    expect([...kinds].sort()).toEqual([1, 2]);
    expect(indicators.length).toBeGreaterThan(forms.length);
  });

  it('gives every form valid answers, its stored score and its rule version', () => {
    for (const form of forms) {
      const kind = formKindById(Number(form.values.form_id), formKinds);
      expect(kind).toBeDefined();
      const values = valuesFromIndicators(kind!, rowsFor(form.id));
      expect({ form: form.id, ...validateForm(kind!, values) }).toEqual({ form: form.id, valid: true, errors: [] });
      const result = computeScore(kind!, values);
      expect({ form: form.id, score: form.values.score, version: form.values.rule_version }).toEqual({
        form: form.id,
        score: result.score,
        version: result.ruleVersion,
      });
    }
  });

  it('spreads the demo meadow scores over good, medium and bad', () => {
    const classes = new Set(
      forms
        .filter((f) => f.values.form_id === 1)
        .map((f) => computeScore(formKindById(1, formKinds)!, valuesFromIndicators(formKindById(1, formKinds)!, rowsFor(f.id))).class),
    );
    expect([...classes].sort()).toEqual(['bad', 'good', 'medium']);
  });
});

/** The indicator rows of a form, oldest first, as valuesFromIndicators takes them. */
function rowsFor(formId: number) {
  return indicators.filter((i) => i.values.parent === formId).map((i) => ({ key: String(i.values.key), value: i.values.value }));
}
