/**
 * A large project for benchmarks and load tests (`npm run seed -- --farmers 1000`): N farmers with
 * 1–3 meadows each, 1–2 transects per meadow, the seasons 2025 and 2026, a durationPath for 2025
 * and 2026 per transect, the meadow form for 2025 on every transect (the management form too on
 * each meadow's first one) with valid answers of the scheme, and their indicators. Meadows are
 * spread over north-east Slovenia (Goričko, Prlekija, Haloze) on a jittered grid, so spatial and
 * extent queries see realistic densities.
 *
 * Same storage rules as the demo seed (insertSeedRecord: properties by column id, bbox columns,
 * text index); deterministic for a given seed; committed in batches so memory stays flat and a
 * crash leaves whole farmers, never half of one.
 */
import area from '@turf/area';
import length from '@turf/length';
import type { LineString, Polygon, Position } from 'geojson';
import type { ScoreClass } from '../../common/score';
import { createProject, loadProjectSchema } from '../repositories/project-repository';
import type { ProjectSchema } from '../project-schema';
import type { Db, DialectLayer } from '../db/dialect';
import { DEMO_FORM_KINDS, demoFormValues, scoreForm } from './demo-forms';
import { MONITORING_TABLES } from '../db/monitoring-schema';
import { DEMO_EDITOR, DEMO_READER } from './seed-demo';
import { insertSeedRecord, round6 } from './seed-util';
import { seededRandom as random } from '../../common/seeded-random';

export interface LargeSeedOptions {
  farmers: number;
  /** Project id to create; default: the next free id. An existing id is refused. */
  projectId?: number;
  /** PRNG seed: the same seed gives the same project. */
  seed?: number;
  /** Farmers per transaction. */
  batch?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface LargeSeedResult {
  projectId: number;
  counts: Record<string, number>;
}

/** Bounds of the region meadows are placed in (WGS84): Haloze to Goričko. */
const REGION = { minX: 15.75, minY: 46.3, maxX: 16.4, maxY: 46.87 };
const FIRST_NAMES = ['Janez', 'Marija', 'Franc', 'Ana', 'Jožef', 'Irena', 'Štefan', 'Mojca', 'Anton', 'Nataša', 'Marko', 'Barbara', 'Milan', 'Petra'];
const LAST_NAMES = ['Novak', 'Horvat', 'Kuhar', 'Vogrinčič', 'Gomboc', 'Kovačič', 'Zver', 'Kerec', 'Šadl', 'Hari', 'Lovrenčič', 'Bračko', 'Žižek', 'Kolarič'];
const MEADOW_NAMES = ['Travnik', 'Senožet', 'Košenica', 'Reber', 'Log', 'Breg', 'Gmajna', 'Mokrotni travnik'];
const QUALITIES: ScoreClass[] = ['good', 'medium', 'bad'];

function meadow([x, y]: [number, number], rnd: () => number): Polygon {
  const dx = 0.0008 + rnd() * 0.001;
  const dy = 0.0005 + rnd() * 0.0006;
  const ring: Position[] = [
    [x - dx, y - dy],
    [x + dx * (0.8 + rnd() * 0.3), y - dy * (0.9 + rnd() * 0.2)],
    [x + dx, y + dy * (0.6 + rnd() * 0.3)],
    [x - dx * (0.9 + rnd() * 0.2), y + dy],
  ].map(([px, py]) => [round6(px!), round6(py!)]);
  ring.push(ring[0]!);
  return { type: 'Polygon', coordinates: [ring] };
}

function transect([x, y]: [number, number], index: number, rnd: () => number): LineString {
  const offset = (index - 0.5) * 0.0002;
  const points: Position[] = [];
  for (let i = 0; i <= 5; i += 1) {
    const t = i / 5;
    points.push([round6(x - 0.0006 + t * 0.0012), round6(y + offset + (rnd() - 0.5) * 0.00006)]);
  }
  return { type: 'LineString', coordinates: points };
}

async function nextProjectId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('projects')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

export async function seedLargeProject(db: Db, dialect: DialectLayer, options: LargeSeedOptions): Promise<LargeSeedResult> {
  if (!Number.isInteger(options.farmers) || options.farmers < 1) throw new Error('farmers must be a positive integer');
  const projectId = options.projectId ?? (await nextProjectId(db));
  if (await db.selectFrom('projects').select('id').where('id', '=', projectId).executeTakeFirst()) {
    throw new Error(`project ${projectId} already exists; choose another id (--project) or a fresh DATA_DIR`);
  }
  const seed = options.seed ?? 20260601;
  const batch = options.batch ?? 50;
  const now = new Date().toISOString();
  const opts = { now, by: 'large-seed' };
  const counts: Record<string, number> = { farmers: 0, areas: 0, paths: 0, durations: 0, durationPaths: 0, forms: 0, indicators: 0 };

  let schema: ProjectSchema | null = null;
  const seasons: number[] = [];
  await db.transaction().execute(async (trx) => {
    await createProject(trx, dialect, { id: projectId, name: `Velik projekt (${options.farmers} kmetov)`, tables: MONITORING_TABLES, now });
    schema = await loadProjectSchema(trx, projectId);
    const durations = schema!.tablesByKey.get('durations')!;
    for (const year of [2025, 2026]) {
      seasons.push(
        await insertSeedRecord(
          trx,
          dialect,
          durations,
          { values: { name: `Sezona ${year}`, filter_start: `${year}-01-01`, filter_end: `${year}-12-31` } },
          opts,
        ),
      );
      counts.durations! += 1;
    }
    await trx
      .insertInto('project_roles')
      .values([
        { project_id: projectId, email: DEMO_EDITOR, role: 'editor' },
        { project_id: projectId, email: DEMO_READER, role: 'reader' },
      ])
      .execute();
  });
  const t = (key: string) => schema!.tablesByKey.get(key)!;

  // Grid cells over the region, one farm per cell, jittered.
  const columns = Math.ceil(Math.sqrt(options.farmers * ((REGION.maxX - REGION.minX) / (REGION.maxY - REGION.minY))));
  const rows = Math.ceil(options.farmers / columns);
  const cellX = (REGION.maxX - REGION.minX) / columns;
  const cellY = (REGION.maxY - REGION.minY) / rows;
  const rnd = random(seed);
  let formSeed = 0;

  for (let start = 0; start < options.farmers; start += batch) {
    await db.transaction().execute(async (trx) => {
      for (let i = start; i < Math.min(options.farmers, start + batch); i += 1) {
        const first = FIRST_NAMES[i % FIRST_NAMES.length]!;
        const last = LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length]!;
        const farmerId = await insertSeedRecord(
          trx,
          dialect,
          t('farmers'),
          {
            values: {
              name: `${first} ${last}`,
              email: `kmet${i + 1}@velik.example.si`,
              phone: `041 ${String(100000 + i).slice(-6)}`,
              kmg_mid: String(200000000 + i),
            },
          },
          opts,
        );
        counts.farmers! += 1;
        const cx = REGION.minX + ((i % columns) + 0.2) * cellX;
        const cy = REGION.minY + (Math.floor(i / columns) + 0.2) * cellY;
        const meadows = 1 + Math.floor(rnd() * 3);
        for (let m = 0; m < meadows; m += 1) {
          const center: [number, number] = [round6(cx + rnd() * cellX * 0.6), round6(cy + rnd() * cellY * 0.6)];
          const polygon = meadow(center, rnd);
          const areaId = await insertSeedRecord(
            trx,
            dialect,
            t('areas'),
            {
              values: {
                name: `${MEADOW_NAMES[(i + m) % MEADOW_NAMES.length]} ${last} ${m + 1}`,
                user: farmerId,
                gerk_pid: String(3000000 + i * 4 + m),
                area_ha: Math.round((area(polygon) / 10_000) * 100) / 100,
              },
              geometry: polygon,
            },
            opts,
          );
          counts.areas! += 1;
          const paths = 1 + Math.floor(rnd() * 2);
          for (let p = 0; p < paths; p += 1) {
            const line = transect(center, p, rnd);
            const lengthM = Math.round(length({ type: 'Feature', properties: {}, geometry: line }, { units: 'kilometers' }) * 1000);
            const pathId = await insertSeedRecord(
              trx,
              dialect,
              t('paths'),
              { values: { name: `Pot ${p + 1}`, parent: areaId, length_m: lengthM, walk: null }, geometry: line },
              opts,
            );
            counts.paths! += 1;
            const [season2025, season2026] = seasons as [number, number];
            const link2025 = await insertSeedRecord(trx, dialect, t('durationPaths'), { values: { duration_id: season2025, path_id: pathId } }, opts);
            await insertSeedRecord(trx, dialect, t('durationPaths'), { values: { duration_id: season2026, path_id: pathId } }, opts);
            counts.durationPaths! += 2;
            for (const kindName of p === 0 ? ['travnik', 'upravljanje'] : ['travnik']) {
              const kind = DEMO_FORM_KINDS[kindName]!;
              formSeed += 1;
              const values = demoFormValues(kindName, QUALITIES[formSeed % QUALITIES.length]!, seed + formSeed);
              const formId = await insertSeedRecord(
                trx,
                dialect,
                t('forms'),
                {
                  values: {
                    parent: link2025,
                    form_id: kind.id,
                    score: scoreForm(kind.scoring, values),
                    rule_version: kind.scoring.version,
                    note: null,
                    completed: true,
                  },
                },
                opts,
              );
              counts.forms! += 1;
              for (const [key, value] of Object.entries(values)) {
                if (value === false || value === null || value === undefined || value === '') continue;
                await insertSeedRecord(trx, dialect, t('indicators'), { values: { parent: formId, key, value, note: null } }, opts);
                counts.indicators! += 1;
              }
            }
          }
        }
      }
    });
    options.onProgress?.(Math.min(options.farmers, start + batch), options.farmers);
  }
  return { projectId, counts };
}

/** `--farmers N [--project ID] [--seed N]` (also `--farmers=N`); throws an Error naming the problem. */
export function parseSeedArgs(argv: string[]): { farmers: number; projectId?: number; seed?: number } {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`unexpected argument ${arg}`);
    const value = match[2] ?? argv[++i];
    if (value === undefined) throw new Error(`--${match[1]} needs a value`);
    values.set(match[1]!, value);
  }
  for (const name of values.keys()) if (!['farmers', 'project', 'seed'].includes(name)) throw new Error(`unknown option --${name}`);
  const int = (name: string): number | undefined => {
    const raw = values.get(name);
    if (raw === undefined) return undefined;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`--${name} must be a positive integer`);
    return Number(raw);
  };
  const farmers = int('farmers');
  if (farmers === undefined) throw new Error('--farmers is required');
  const result: { farmers: number; projectId?: number; seed?: number } = { farmers };
  const projectId = int('project');
  const seed = int('seed');
  if (projectId !== undefined) result.projectId = projectId;
  if (seed !== undefined) result.seed = seed;
  return result;
}
