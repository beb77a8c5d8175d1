/**
 * The large benchmark project (src/server/db/seed-large.ts, `npm run seed -- --farmers N`) next to
 * the demo project: config.json served for it (PROJECT_ID), its rows chained farmer → areas →
 * paths → durationPaths → forms → indicators so the farmer scope holds, and a second seed into the
 * same id refused.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AppConfig } from '../../src/common/schemas/config';
import { parseSeedArgs as parseArgs, seedLargeProject, type LargeSeedResult } from '../../src/server/seed/seed-large';
import { buildTestApp, USERS, type TestApp } from './helpers/build-test-app';

let t: TestApp;
let seeded: LargeSeedResult;

beforeAll(async () => {
  t = await buildTestApp({ projectId: 2 });
  seeded = await seedLargeProject(t.app.db, t.app.dialect, { farmers: 12, batch: 5 });
});

afterAll(async () => t.close());

describe('large project', () => {
  it('is created as the next project with every table filled', () => {
    expect(seeded.projectId).toBe(2);
    expect(seeded.counts.farmers).toBe(12);
    expect(seeded.counts.durations).toBe(2);
    for (const key of ['areas', 'paths', 'durationPaths', 'forms', 'indicators']) expect(seeded.counts[key]).toBeGreaterThanOrEqual(12);
    expect(seeded.counts.durationPaths).toBe(seeded.counts.paths! * 2);
  });

  it('is what config.json describes with PROJECT_ID=2, with its own table ids', async () => {
    const config = (await (await fetch(`${t.origin}/config.json`)).json()) as AppConfig;
    expect(config.projectId).toBe(2);
    expect(config.tables.farmers.id).not.toBe(t.tables.farmers.id);
    const farmers = await t.as(USERS.editor, { method: 'POST', url: '/api/Records/2/search', payload: { tableId: config.tables.farmers.id, perPage: 100 } });
    expect(farmers.statusCode).toBe(200);
    expect(farmers.json().totalCount).toBe(12);
  });

  it("keeps each farmer to their own chain: kmet3's indicators are exactly those under their forms", async () => {
    const config = (await (await fetch(`${t.origin}/config.json`)).json()) as AppConfig;
    const as = (tableId: number) => t.as('kmet3@velik.example.si', { method: 'POST', url: '/api/Records/2/search', payload: { tableId, perPage: 10000 } });
    const areas = (await as(config.tables.areas.id)).json().records as Array<{ id: number; properties: Record<string, unknown> }>;
    expect(areas.length).toBeGreaterThanOrEqual(1);
    const farmerIds = new Set(areas.map((a) => a.properties[String(config.tables.areas.columns.user)]));
    expect(farmerIds.size).toBe(1);
    const forms = (await as(config.tables.forms.id)).json().records as Array<{ id: number }>;
    const indicators = (await as(config.tables.indicators.id)).json().records as Array<{ properties: Record<string, unknown> }>;
    const formIds = new Set(forms.map((f) => f.id));
    expect(indicators.length).toBeGreaterThan(0);
    expect(indicators.every((i) => formIds.has(i.properties[String(config.tables.indicators.columns.parent)] as number))).toBe(true);
    const all = (
      await t.as(USERS.editor, { method: 'POST', url: '/api/Records/2/search', payload: { tableId: config.tables.indicators.id, perPage: 1 } })
    ).json().totalCount as number;
    expect(indicators.length).toBeLessThan(all);
  });

  it('refuses to seed into an existing project, changing nothing', async () => {
    const before = await t.app.db
      .selectFrom('records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await expect(seedLargeProject(t.app.db, t.app.dialect, { farmers: 3, projectId: 2 })).rejects.toThrow(/already exists/);
    await expect(seedLargeProject(t.app.db, t.app.dialect, { farmers: 0 })).rejects.toThrow(/positive integer/);
    const after = await t.app.db
      .selectFrom('records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('parses the seed command line', () => {
    expect(parseArgs(['--farmers', '1000'])).toEqual({ farmers: 1000 });
    expect(parseArgs(['--farmers=50', '--project', '7', '--seed', '3'])).toEqual({ farmers: 50, projectId: 7, seed: 3 });
    expect(() => parseArgs(['--farmers', 'many'])).toThrow(/positive integer/);
    expect(() => parseArgs([])).toThrow(/--farmers is required/);
    expect(() => parseArgs(['--farmers', '5', '--colour', 'red'])).toThrow(/unknown option --colour/);
  });
});
