/**
 * `npm run import` as a process against a SQLite DATA_DIR (the CLI opens the database the server
 * would; on PostgreSQL that is the configured database itself, so this file stays on SQLite): dry
 * run writes nothing, commit imports farmers and their meadows, the second run updates in place,
 * a refused row writes nothing and exits 1, bad arguments exit 2.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/server/db/database';
import { farmersCsv, geoPackageFile, squareMeadow } from '../fixtures/geo-files';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mt-import-cli-'));
  writeFileSync(
    path.join(dir, 'kmetje.csv'),
    farmersCsv([
      { name: 'Ana', email: 'ana.cli@example.si', kmgMid: '700000001' },
      { name: 'Bor', email: 'bor.cli@example.si', kmgMid: '700000002' },
    ]),
  );
  writeFileSync(
    path.join(dir, 'travniki.gpkg'),
    geoPackageFile(
      [
        squareMeadow(16.1, 46.8, { ime: 'A', GERK_PID: 8000001, KMG_MID: '700000001' }, { crs: 'd96' }),
        squareMeadow(16.2, 46.8, { ime: 'B', GERK_PID: 8000002, KMG_MID: '700000002' }, { crs: 'd96' }),
      ],
      3794,
    ),
  );
  writeFileSync(
    path.join(dir, 'sirote.geojson'),
    JSON.stringify({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: { gerk_pid: '8000003', kmg_mid: '799' }, geometry: squareMeadow(16.3, 46.8, {}).geometry }],
    }),
  );
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: path.join(dir, 'data'), NODE_OPTIONS: '' };
  delete env.DATABASE_URL;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(process.cwd(), 'src/server/cli/import.ts'), ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function counts(): Promise<{ farmers: number; areas: number }> {
  const { db, close } = await openDatabase({ dataDir: path.join(dir, 'data'), databaseUrl: undefined });
  try {
    const rows = await db
      .selectFrom('records')
      .innerJoin('project_tables', 'project_tables.id', 'records.table_id')
      .select(['project_tables.key', 'records.properties'])
      .where('records.deleted', '=', 0)
      .execute();
    const mine = rows.filter((r) => /700000|800000/.test(r.properties));
    return { farmers: mine.filter((r) => r.key === 'farmers').length, areas: mine.filter((r) => r.key === 'areas').length };
  } finally {
    await close();
  }
}

describe('npm run import', () => {
  it('dry run, commit, and the same files again', async () => {
    const files = ['--farmers', path.join(dir, 'kmetje.csv'), '--areas', path.join(dir, 'travniki.gpkg')];
    const dry = await run([...files, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ committed: false, farmers: { created: 2, refused: 0 }, areas: { created: 2, refused: 0 } });
    expect(dry.stderr).toMatch(/\[import\] \[█+\] 100% 4\/4/);
    expect(await counts()).toEqual({ farmers: 0, areas: 0 });

    const commit = await run(files);
    expect(commit.code).toBe(0);
    expect(JSON.parse(commit.stdout)).toMatchObject({ committed: true, farmers: { created: 2 }, areas: { created: 2 } });
    expect(await counts()).toEqual({ farmers: 2, areas: 2 });

    const again = await run(files);
    expect(JSON.parse(again.stdout)).toMatchObject({ committed: true, farmers: { created: 0, updated: 2 }, areas: { created: 0, updated: 2 } });
    expect(await counts()).toEqual({ farmers: 2, areas: 2 });
  }, 120_000);

  it('a refused row writes nothing and exits 1; bad arguments exit 2', async () => {
    const refused = await run(['--areas', path.join(dir, 'sirote.geojson')]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ committed: false, areas: { refused: 1, rows: [{ row: 1, action: 'refuse', key: '8000003' }] } });
    expect(refused.stderr).toContain('Kmet s KMG-MID 799 ne obstaja');
    expect(await counts()).toEqual({ farmers: 2, areas: 2 });
    const bad = await run(['--bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('usage: npm run import');
  }, 120_000);
});
