/**
 * The editors' audit trail on a large history (`npm run bench -- audit.`), over HTTP against the
 * real app on a temp SQLite DATA_DIR (demo project, a bench Authenticate naming the demo editor).
 * BENCH_AUDIT_ROWS history entries (default 1,000,000) are written straight into record_history
 * with multi-row INSERTs, spread over the demo project's records, users and a year of days. Medians
 * of AUDIT_RUNS requests of 50 entries with their total:
 *
 * - audit.page_ms         the newest page, no filter
 * - audit.page_deep_ms    page 1,000 (offset 49,950), no filter
 * - audit.page_table_ms   the newest page of one table (indicators)
 * - audit.page_farmer_ms  the newest page of one farmer (every row under them)
 * - audit.page_day_ms     the newest page of one day (a window without other filters)
 * - audit.csv_farmer_ms   the CSV of that farmer's whole history (once)
 * - audit.csv_all_ms      the CSV of the whole history (once), and audit.csv_all_mb its size
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/server/app';
import type { Principal } from '../src/server/auth/principal';
import type { AppConfig } from '../src/common/schemas/config';
import type { AuditPage } from '../src/common/schemas/audit';
import { seededRandom as random } from '../src/common/seeded-random';
import type { BenchIo } from './sync';

const NAMES = [
  'audit.page_ms',
  'audit.page_deep_ms',
  'audit.page_table_ms',
  'audit.page_farmer_ms',
  'audit.page_day_ms',
  'audit.csv_farmer_ms',
  'audit.csv_all_ms',
  'audit.csv_all_mb',
];
const EDITOR: Principal = { subject: 'bench-editor', email: 'urednik@example.si', name: 'Bench', via: 'token' };
const ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 1_000_000);
const AUDIT_RUNS = 7;
const INSERT_ROWS = 500;
const USERS = ['urednik@example.si', 'kmet1@example.si', 'kmet2@example.si', 'stefan.kuhar@example.si'];
const YEAR_MS = 365 * 86_400_000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function auditFigures({ want, emit, log }: BenchIo): Promise<void> {
  if (!NAMES.some(want)) return;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'moj-travnik-bench-audit-'));
  const app = await buildApp({
    dataDir,
    database: path.join(dataDir, 'bench.sqlite'),
    databaseUrl: null,
    demo: true,
    logger: false,
    clientDir: path.join(dataDir, 'no-client'),
    authenticate: async () => EDITOR,
  });
  try {
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    const config = (await (await fetch(`${origin}/config.json`)).json()) as AppConfig;
    const records = await app.db.selectFrom('records').select(['id', 'table_id']).where('project_id', '=', config.projectId).execute();
    const rnd = random(20261124);
    const start = Date.now() - YEAR_MS;
    const started = performance.now();
    await app.db.transaction().execute(async (trx) => {
      for (let done = 0; done < ROWS; done += INSERT_ROWS) {
        const rows = Array.from({ length: Math.min(INSERT_ROWS, ROWS - done) }, (_, i) => {
          const record = records[Math.floor(rnd() * records.length)]!;
          const at = new Date(start + ((done + i) / ROWS) * YEAR_MS).toISOString();
          const value = Math.floor(rnd() * 100);
          return {
            record_id: record.id,
            table_id: record.table_id,
            action: 'update' as const,
            changed_by: USERS[Math.floor(rnd() * USERS.length)]!,
            changed_at: at,
            old_value: JSON.stringify({ properties: { '1': value, '2': 'travnik' }, geometry: null }),
            new_value: JSON.stringify({ properties: { '1': value + 1, '2': 'travnik' }, geometry: null }),
          };
        });
        await trx.insertInto('record_history').values(rows).execute();
      }
    });
    log(`audit: ${ROWS} history entries over ${records.length} records written in ${Math.round(performance.now() - started)} ms`);

    const farmerId = (await app.db.selectFrom('records').select('id').where('table_id', '=', config.tables.farmers.id).orderBy('id').executeTakeFirstOrThrow())
      .id;
    const day = new Date(start + YEAR_MS / 2);
    const from = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate())).toISOString();
    const to = new Date(Date.parse(from) + 86_400_000).toISOString();
    const timed = async (url: string): Promise<{ ms: number; bytes: number; total?: number }> => {
      const t0 = performance.now();
      const response = await fetch(`${origin}${url}`);
      const body = await response.arrayBuffer();
      const ms = performance.now() - t0;
      if (!response.ok) throw new Error(`${url} → ${response.status}`);
      const total = url.includes('/csv') ? undefined : (JSON.parse(Buffer.from(body).toString('utf8')) as AuditPage).totalCount;
      return { ms, bytes: body.byteLength, total };
    };
    const pages: Array<[string, string]> = [
      ['audit.page_ms', ''],
      ['audit.page_deep_ms', '?page=1000'],
      ['audit.page_table_ms', `?tableId=${config.tables.indicators.id}`],
      ['audit.page_farmer_ms', `?farmerId=${farmerId}`],
      ['audit.page_day_ms', `?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`],
    ];
    for (const [name, query] of pages) {
      if (!want(name)) continue;
      const runs: number[] = [];
      let total = 0;
      for (let i = 0; i < AUDIT_RUNS; i++) {
        const run = await timed(`/api/Audit/${config.projectId}${query}`);
        runs.push(run.ms);
        total = run.total ?? 0;
      }
      log(`${name}: total ${total}`);
      emit(name, Math.round(median(runs) * 10) / 10);
    }
    if (want('audit.csv_farmer_ms')) {
      const run = await timed(`/api/Audit/${config.projectId}/csv?farmerId=${farmerId}`);
      log(`audit.csv_farmer: ${Math.round(run.bytes / 1024)} KB`);
      emit('audit.csv_farmer_ms', Math.round(run.ms));
    }
    if (want('audit.csv_all_ms') || want('audit.csv_all_mb')) {
      const run = await timed(`/api/Audit/${config.projectId}/csv`);
      emit('audit.csv_all_ms', Math.round(run.ms));
      emit('audit.csv_all_mb', Math.round((run.bytes / 1024 / 1024) * 10) / 10, 'MB');
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
