/**
 * The demo project (project id 1), loaded on first run in demo mode: five farmers in Goričko
 * (kmet1@example.si and kmet2@example.si sign in; the identity provider seeds their accounts), their meadows as
 * polygons, one or two transects per meadow, the seasons 2025 and 2026, and for 2025 a completed
 * meadow walk form ('travnik') on every transect plus the management form ('upravljanje') on each
 * meadow's first transect, with indicators whose answers span good, medium and bad scores. urednik@example.si is the editor and
 * bralec@example.si the reader. Deterministic: the same data on every machine.
 */
import area from '@turf/area';
import length from '@turf/length';
import type { LineString, Polygon, Position } from 'geojson';
import type { Db, DialectLayer } from '../db/dialect';
import { DEMO_FORM_KINDS, demoFormValues, scoreForm } from './demo-forms';
import { MONITORING_TABLES } from '../db/monitoring-schema';
import { createProject, loadProjectSchema } from '../repositories/project-repository';
import { insertSeedRecord, round6 } from './seed-util';
import { seededRandom as random } from '../../common/seeded-random';

export const DEMO_PROJECT_ID = 1;
export const DEMO_EDITOR = 'urednik@example.si';
export const DEMO_READER = 'bralec@example.si';

interface DemoFarmer {
  name: string;
  email: string;
  phone: string;
  kmgMid: string;
  meadows: Array<{ name: string; gerk: string; center: [number, number]; paths: number }>;
}

/** Meadows near Goričko villages (Kuzma, Grad, Gornji Petrovci, Šalovci, Čepinci, Hodoš, Križevci). */
export const DEMO_FARMERS: DemoFarmer[] = [
  {
    name: 'Janez Novak',
    email: 'kmet1@example.si',
    phone: '041 123 456',
    kmgMid: '100234567',
    meadows: [
      { name: 'Travnik pod Kuzmo', gerk: '2314501', center: [16.1552, 46.8361], paths: 2 },
      { name: 'Dolga senožet', gerk: '2314502', center: [16.1618, 46.8309], paths: 1 },
    ],
  },
  {
    name: 'Marija Horvat',
    email: 'kmet2@example.si',
    phone: '031 234 567',
    kmgMid: '100345678',
    meadows: [
      { name: 'Košenica pri Gradu', gerk: '2320711', center: [16.0958, 46.8012], paths: 1 },
      { name: 'Strma reber', gerk: '2320712', center: [16.1024, 46.7961], paths: 2 },
    ],
  },
  {
    name: 'Štefan Kuhar',
    email: 'stefan.kuhar@example.si',
    phone: '040 345 678',
    kmgMid: '100456789',
    meadows: [{ name: 'Travnik za Petrovci', gerk: '2331905', center: [16.2188, 46.8057], paths: 1 }],
  },
  {
    name: 'Ana Vogrinčič',
    email: 'ana.vogrincic@example.si',
    phone: '051 456 789',
    kmgMid: '100567890',
    meadows: [
      { name: 'Mokrotni travnik Čepinci', gerk: '2340118', center: [16.2441, 46.8703], paths: 1 },
      { name: 'Šalovski breg', gerk: '2340119', center: [16.2823, 46.8262], paths: 1 },
    ],
  },
  {
    name: 'Jožef Gomboc',
    email: 'jozef.gomboc@example.si',
    phone: '041 567 890',
    kmgMid: '100678901',
    meadows: [{ name: 'Senožet pri Hodošu', gerk: '2352230', center: [16.3304, 46.8259], paths: 1 }],
  },
];

/** An irregular meadow pentagon about 200 m × 150 m around the centre. */
function meadowPolygon([x, y]: [number, number], rnd: () => number): Polygon {
  const dx = 0.0013;
  const dy = 0.0007;
  const ring: Position[] = [
    [x - dx, y - dy * (0.8 + rnd() * 0.3)],
    [x + dx * (0.8 + rnd() * 0.3), y - dy],
    [x + dx, y + dy * (0.5 + rnd() * 0.3)],
    [x + dx * 0.1, y + dy * (1 + rnd() * 0.2)],
    [x - dx * (0.9 + rnd() * 0.2), y + dy * 0.6],
  ].map(([px, py]) => [round6(px!), round6(py!)]);
  ring.push(ring[0]!);
  return { type: 'Polygon', coordinates: [ring] };
}

/** A transect crossing the meadow, slightly bent, inside the polygon. */
function transect([x, y]: [number, number], index: number, rnd: () => number): LineString {
  const offset = (index - 0.5) * 0.0003;
  const points: Position[] = [];
  for (let i = 0; i <= 4; i++) {
    const t = i / 4;
    points.push([round6(x - 0.0009 + t * 0.0018), round6(y + offset - 0.0003 + t * 0.0006 + (rnd() - 0.5) * 0.00008)]);
  }
  return { type: 'LineString', coordinates: points };
}

/** Loads the demo project unless project 1 already exists. Returns whether it loaded. */
export async function loadDemoData(db: Db, dialect: DialectLayer): Promise<boolean> {
  const existing = await db.selectFrom('projects').select('id').where('id', '=', DEMO_PROJECT_ID).executeTakeFirst();
  if (existing) return false;
  await db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    const by = 'demo-seed';
    const opts = { now, by };
    await createProject(trx, dialect, { id: DEMO_PROJECT_ID, name: 'Moj travnik – Goričko', tables: MONITORING_TABLES, now });
    const schema = (await loadProjectSchema(trx, DEMO_PROJECT_ID))!;
    const t = (key: string) => schema.tablesByKey.get(key)!;
    await trx
      .insertInto('project_roles')
      .values([
        { project_id: DEMO_PROJECT_ID, email: DEMO_EDITOR, role: 'editor' },
        { project_id: DEMO_PROJECT_ID, email: DEMO_READER, role: 'reader' },
      ])
      .execute();

    const season2025 = await insertSeedRecord(
      trx,
      dialect,
      t('durations'),
      {
        values: {
          name: 'Sezona 2025',
          filter_start: '2025-01-01',
          filter_end: '2025-12-31',
          submit_until: '2025-10-31',
          review_until: '2025-11-30',
          appeal_days: 15,
        },
      },
      opts,
    );
    await insertSeedRecord(
      trx,
      dialect,
      t('durations'),
      {
        values: {
          name: 'Sezona 2026',
          filter_start: '2026-01-01',
          filter_end: '2026-12-31',
          submit_until: '2026-12-31',
          review_until: '2027-01-31',
          appeal_days: 15,
        },
      },
      opts,
    );

    const qualities = ['good', 'medium', 'bad', 'good', 'medium'] as const;
    let formSeed = 0;
    const rnd = random(20250614);
    for (const farmer of DEMO_FARMERS) {
      const farmerId = await insertSeedRecord(
        trx,
        dialect,
        t('farmers'),
        { values: { name: farmer.name, email: farmer.email, phone: farmer.phone, kmg_mid: farmer.kmgMid } },
        opts,
      );
      for (const meadow of farmer.meadows) {
        const polygon = meadowPolygon(meadow.center, rnd);
        const areaHa = Math.round((area(polygon) / 10_000) * 100) / 100;
        const areaId = await insertSeedRecord(
          trx,
          dialect,
          t('areas'),
          { values: { name: meadow.name, user: farmerId, gerk_pid: meadow.gerk, area_ha: areaHa }, geometry: polygon },
          opts,
        );
        for (let p = 0; p < meadow.paths; p++) {
          const line = transect(meadow.center, p, rnd);
          const lengthM = Math.round(length({ type: 'Feature', properties: {}, geometry: line }, { units: 'kilometers' }) * 1000);
          const pathId = await insertSeedRecord(
            trx,
            dialect,
            t('paths'),
            { values: { name: `${meadow.name} – pot ${p + 1}`, parent: areaId, length_m: lengthM, walk: null }, geometry: line },
            opts,
          );
          const durationPathId = await insertSeedRecord(trx, dialect, t('durationPaths'), { values: { duration_id: season2025, path_id: pathId } }, opts);
          // Last season's assessments: valid answers of the scheme, spread over the score classes.
          const kinds = p === 0 ? ['travnik', 'upravljanje'] : ['travnik'];
          for (const kindName of kinds) {
            const kind = DEMO_FORM_KINDS[kindName]!;
            formSeed += 1;
            const values = demoFormValues(kindName, qualities[formSeed % qualities.length]!, formSeed);
            const score = scoreForm(kind.scoring, values);
            const formId = await insertSeedRecord(
              trx,
              dialect,
              t('forms'),
              {
                values: {
                  parent: durationPathId,
                  form_id: kind.id,
                  score,
                  rule_version: kind.scoring.version,
                  note: 'Ocena junij 2025',
                  completed: true,
                  // Last season was reviewed: its results are decisions.
                  review_state: 'approved',
                  reviewed_by: DEMO_EDITOR,
                  reviewed_at: '2025-11-14T09:00:00.000Z',
                },
              },
              opts,
            );
            for (const [key, value] of Object.entries(values)) {
              // Unobserved indicators are not stored: an indicator row records an observation.
              if (value === false || value === null || value === undefined || value === '') continue;
              await insertSeedRecord(trx, dialect, t('indicators'), { values: { parent: formId, key, value, note: null } }, opts);
            }
          }
        }
      }
    }
  });
  await dialect.optimize(db);
  return true;
}
