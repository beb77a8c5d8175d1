/**
 * Import figures (`npm run bench -- import.`), over HTTP against the real app on a temp SQLite
 * DATA_DIR, with a bench Authenticate naming the demo editor:
 *
 * - import.areas_10k_dry_run_ms  POST /api/Import/dry-run of a GeoPackage with 10,000 meadows in
 *                                D96/TM (read, reproject, validate, plan; nothing written)
 * - import.areas_10k_ms          POST /api/Import/commit of the same file (all rows created in
 *                                one transaction through the bulk writer)
 * - import.areas_10k_again_ms    the same commit again: every row matched by GERK-PID, nothing changes
 * - import.areas_1k_single_ms    the naive way: 1,000 of those meadows as single POST
 *                                /api/Records calls, one after another (measured on 1,000: ×10
 *                                is the naive 10,000)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/server/app';
import type { Principal } from '../src/server/auth/principal';
import type { AppConfig } from '../src/common/schemas/config';
import { geoPackageFile, squareMeadow } from '../test/fixtures/geo-files';
import type { BenchIo } from './sync';

const NAMES = ['import.areas_10k_dry_run_ms', 'import.areas_10k_ms', 'import.areas_10k_again_ms', 'import.areas_1k_single_ms'];
const EDITOR: Principal = { subject: 'bench-editor', email: 'urednik@example.si', name: 'Bench', via: 'token' };
const MEADOWS = 10_000;
const NAIVE = 1_000;
/** The demo farmers' KMG-MIDs (seed-demo.ts): the meadows are spread over them. */
const OWNERS = ['100234567', '100345678', '100456789'];

export async function importFigures({ want, emit, log }: BenchIo): Promise<void> {
  if (!NAMES.some(want)) return;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'moj-travnik-bench-import-'));
  const app = await buildApp({
    dataDir,
    database: path.join(dataDir, 'bench.sqlite'),
    demo: true,
    logger: false,
    clientDir: path.join(dataDir, 'no-client'),
    authenticate: async () => EDITOR,
  });
  try {
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    // A 100 × 100 grid of 60 m squares in Goričko, as a GERK export would give them.
    const meadows = Array.from({ length: MEADOWS }, (_, i) =>
      squareMeadow(
        16.0 + (i % 100) * 0.001,
        46.7 + Math.floor(i / 100) * 0.001,
        { ime: `Travnik ${i + 1}`, gerk_pid: 9_000_000 + i, kmg_mid: OWNERS[i % OWNERS.length]! },
        { side: 0.0008, crs: 'd96' },
      ),
    );
    const file = geoPackageFile(meadows, 3794);
    log(`import: GeoPackage of ${MEADOWS} meadows, ${Math.round(file.length / 1024)} KB`);

    const post = async (step: string) => {
      const form = new FormData();
      form.set('kind', 'areas');
      form.set('file', new Blob([new Uint8Array(file)]), 'travniki.gpkg');
      const started = performance.now();
      const response = await fetch(`${origin}/api/Import/${step}`, { method: 'POST', body: form });
      const report = (await response.json()) as { created: number; updated: number; refused: number };
      const ms = Math.round(performance.now() - started);
      if (!response.ok || report.refused > 0) throw new Error(`import ${step} → ${response.status}: ${JSON.stringify(report).slice(0, 300)}`);
      log(`import ${step}: ${report.created} created, ${report.updated} updated in ${ms} ms`);
      return ms;
    };
    emit('import.areas_10k_dry_run_ms', await post('dry-run'));
    emit('import.areas_10k_ms', await post('commit'));
    emit('import.areas_10k_again_ms', await post('commit'));

    if (want('import.areas_1k_single_ms')) {
      const config = (await (await fetch(`${origin}/config.json`)).json()) as AppConfig;
      const areas = config.tables.areas;
      const farmerIds = await app.db.selectFrom('records').select('id').where('table_id', '=', config.tables.farmers.id).orderBy('id').limit(3).execute();
      const started = performance.now();
      for (let i = 0; i < NAIVE; i++) {
        const m = squareMeadow(17.0 + (i % 100) * 0.001, 46.7 + Math.floor(i / 100) * 0.001, {}, { side: 0.0008 });
        const response = await fetch(`${origin}/api/Records/${config.projectId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            tableId: areas.id,
            properties: {
              [areas.columns.name!]: `Ročni ${i}`,
              [areas.columns.gerk_pid!]: String(9_500_000 + i),
              [areas.columns.user!]: farmerIds[i % farmerIds.length]!.id,
            },
            geometry: m.geometry,
          }),
        });
        if (response.status !== 201) throw new Error(`single insert → ${response.status}: ${(await response.text()).slice(0, 300)}`);
      }
      emit('import.areas_1k_single_ms', Math.round(performance.now() - started));
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
