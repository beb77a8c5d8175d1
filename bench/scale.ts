/**
 * Scale figures on a 1,000,000-record project, for both databases: `sqlite.*` (the
 * embedded file) and `pg.*` (PostgreSQL on 127.0.0.1; PostGIS when installed). Per database:
 * - search_p50_ms / search_p95_ms  the 3-filter And search of bench/run.ts (key = 'k3' And
 *   value > 50 And note contains 'travnik', 50 per page, with totalCount) over HTTP, 50 clients
 *   in flight
 * - search_db_ms     the same search through the repository without HTTP (median): the floor
 * - bulk_rows_per_s  one 10,000-insert bulk call over HTTP
 * - extent_1km2_ms   extenttables for a 1 km² box (≈ 600 point features of the 1M) over HTTP, median
 *
 * The 1M rows (indicators with a point location, in the demo project) are generated once with
 * multi-row INSERTs straight into the records table and cached: the SQLite file in
 * data/bench/scale/, the PostgreSQL database mt_bench_1m (BENCH_PG_URL overrides; loopback only).
 * Reruns reuse them (the bulk figure's 10k rows are removed again afterwards). Generated rows skip
 * the text-search index (the figures here do not use it). Everything stops by itself: bounded
 * request counts, and the server closes at the end.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import type { Principal } from '../src/server/auth/principal';
import type { AppConfig } from '../src/common/schemas/config';
import type { BulkBody } from '../src/common/schemas/wire';
import type { FilterNode, SearchRequest } from '../src/common/filter';
import { runDbSearch } from './db-search';
import { seededRandom as random } from '../src/common/seeded-random';

interface Io {
  want(name: string): boolean;
  emit(name: string, value: number, unit?: string): void;
  log(message: string): void;
}

const EDITOR: Principal = { subject: 'bench-editor', email: 'urednik@example.si', name: 'Bench', via: 'token' };
const ROWS = Number(process.env.BENCH_SCALE_ROWS ?? 1_000_000);
const INSERT_ROWS = 1000;
const CLIENTS = 50;
const SEARCH_REQUESTS = 100;
const DB_RUNS = 7;
const EXTENT_RUNS = 30;
/** Points spread over ≈ 40 × 40 km of Goričko: ≈ 625 per km². */
const REGION = { minX: 15.95, minY: 46.6, maxX: 16.47, maxY: 46.96 };
const KEYS = 20;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function filters(config: AppConfig): FilterNode {
  const c = config.tables.indicators.columns;
  return {
    kind: 'expression',
    operator: 'And',
    nodes: [
      { kind: 'filter', columnId: c.key, comparison: 'Equals', value: 'k3' },
      { kind: 'filter', columnId: c.value, comparison: 'GreaterThan', value: 50 },
      { kind: 'filter', columnId: c.note, comparison: 'Contains', value: 'travnik' },
    ],
  };
}

async function fill(app: FastifyInstance, config: AppConfig, formId: number, io: Io, label: string): Promise<number> {
  const tableId = config.tables.indicators.id;
  const c = config.tables.indicators.columns;
  const count = async () =>
    Number(
      (
        await app.db
          .selectFrom('records')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('table_id', '=', tableId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  let have = await count();
  if (have >= ROWS) {
    io.log(`${label}: ${have} cached rows`);
    return have;
  }
  const started = performance.now();
  const rnd = random(20261122 + have);
  const now = new Date().toISOString();
  while (have < ROWS) {
    const n0 = have;
    const rows = Array.from({ length: Math.min(INSERT_ROWS, ROWS - have) }, (_, i) => {
      const n = n0 + i;
      const x = Math.round((REGION.minX + rnd() * (REGION.maxX - REGION.minX)) * 1e6) / 1e6;
      const y = Math.round((REGION.minY + rnd() * (REGION.maxY - REGION.minY)) * 1e6) / 1e6;
      return {
        project_id: config.projectId,
        table_id: tableId,
        properties: JSON.stringify({
          [c.parent]: formId,
          [c.key]: `k${n % KEYS}`,
          [c.value]: n % 100,
          [c.note]: n % 7 === 0 ? `opomba travnik ${n}` : `zapis ${n}`,
        }),
        geometry: JSON.stringify({ type: 'Point', coordinates: [x, y] }),
        min_x: x,
        min_y: y,
        max_x: x,
        max_y: y,
        created_at: now,
        updated_at: now,
        deleted: 0,
        archived: 0,
        version: 1,
        created_by: 'bench-scale',
        updated_by: 'bench-scale',
      };
    });
    await app.db.insertInto('records').values(rows).execute();
    have += rows.length;
    if (have % 100_000 === 0) io.log(`${label}: ${have} rows (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  await app.dialect.optimize(app.db, { full: true });
  io.log(`${label}: generated ${ROWS} rows in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return have;
}

function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) throw new Error(`bench: refusing non-loopback database host ${host}`);
}

/** The bench database on the local PostgreSQL, created when missing; null when none answers. */
async function benchPgUrl(io: Io): Promise<string | null> {
  const url = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/mt_bench_1m';
  assertLoopback(url);
  const admin = new URL(url);
  const dbName = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.href, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const exists = await client.query('select 1 from pg_database where datname = $1', [dbName]);
    if (exists.rowCount === 0) await client.query(`create database "${dbName.replace(/"/g, '')}"`);
    return url;
  } catch (error) {
    io.log(`no PostgreSQL on ${admin.host} (${error instanceof Error ? error.message : String(error)}): pg.* figures skipped`);
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function measure(io: Io, label: 'sqlite' | 'pg', databaseUrl: string | null): Promise<void> {
  const dataDir = path.resolve('data/bench/scale');
  mkdirSync(dataDir, { recursive: true });
  const app = await buildApp({
    dataDir,
    database: 'scale-1m.sqlite',
    databaseUrl,
    postgres: { poolSize: 10, statementTimeoutMs: 120_000 },
    demo: true,
    logger: false,
    clientDir: path.join(dataDir, 'no-client'),
    authenticate: async () => EDITOR,
  });
  try {
    // 50 clients queue behind second-long scans: no server-side timeout may cut a queued request.
    app.server.requestTimeout = 0;
    app.server.headersTimeout = 0;
    app.server.keepAliveTimeout = 600_000;
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const call = async (method: string, url: string, body?: unknown): Promise<unknown> => {
      const response = await fetch(`${address}${url}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${url} → ${response.status}: ${text.slice(0, 300)}`);
      return text ? JSON.parse(text) : null;
    };
    const config = (await call('GET', '/config.json')) as AppConfig;
    const projectId = config.projectId;
    const tableId = config.tables.indicators.id;
    const forms = (await call('POST', `/api/Records/${projectId}/search`, { tableId: config.tables.forms.id, page: 1, perPage: 1 })) as {
      records: Array<{ id: number }>;
    };
    const formId = forms.records[0]!.id;
    const rows = await fill(app, config, formId, io, label);
    io.log(
      `${label}: ${app.dialect.name}, ${rows} indicator rows${label === 'pg' ? ` (PostGIS ${(app.dialect as { spatial?: boolean }).spatial ? 'on' : 'off'})` : ''}`,
    );

    // --- search under 50 concurrent clients ---
    const search: SearchRequest = { tableId, page: 1, perPage: 50, filters: filters(config), sorts: [{ columnId: 'id', direction: 'asc' }] };
    if (io.want(`${label}.search`)) {
      const first = (await call('POST', `/api/Records/${projectId}/search`, search)) as { totalCount: number };
      io.log(`${label}: search matches ${first.totalCount}`);
      const latencies: number[] = [];
      let next = 0;
      const client = async () => {
        while (next < SEARCH_REQUESTS) {
          next += 1;
          const start = performance.now();
          await call('POST', `/api/Records/${projectId}/search`, search);
          latencies.push(performance.now() - start);
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, client));
      latencies.sort((a, b) => a - b);
      io.emit(`${label}.search_p50_ms`, percentile(latencies, 50));
      io.emit(`${label}.search_p95_ms`, percentile(latencies, 95));
      const dbTimes: number[] = [];
      for (let i = 0; i < DB_RUNS; i += 1) {
        const start = performance.now();
        await runDbSearch(app, projectId, EDITOR, search);
        dbTimes.push(performance.now() - start);
      }
      dbTimes.sort((a, b) => a - b);
      io.emit(`${label}.search_db_ms`, percentile(dbTimes, 50));
    }

    // --- extent of 1 km² ---
    if (io.want(`${label}.extent`)) {
      // 1 km ≈ 0.01315° of longitude and 0.009° of latitude at 46.8° N.
      const times: number[] = [];
      let found = 0;
      for (let i = 0; i < EXTENT_RUNS; i += 1) {
        const minX = 16.0 + (i % 10) * 0.04;
        const minY = 46.65 + Math.floor(i / 10) * 0.08;
        const query = `tableIds=${tableId}&extent[minX]=${minX}&extent[minY]=${minY}&extent[maxX]=${(minX + 0.01315).toFixed(5)}&extent[maxY]=${(minY + 0.009).toFixed(5)}`;
        const start = performance.now();
        const result = (await call('GET', `/api/Records/${projectId}/extenttables?${query}`)) as { totalCount: number };
        times.push(performance.now() - start);
        found += result.totalCount;
      }
      times.sort((a, b) => a - b);
      io.log(`${label}: extent 1 km² finds ${Math.round(found / EXTENT_RUNS)} records on average`);
      io.emit(`${label}.extent_1km2_ms`, percentile(times, 50));
    }

    // --- bulk: 10,000 inserts in one call, removed again so the cache stays at 1M ---
    if (io.want(`${label}.bulk`)) {
      const c = config.tables.indicators.columns;
      // Fresh forms, 100 indicators each as in real monitoring: every indicator write recomputes
      // its form's score from the form's indicators, and the generated million hang on one form.
      const f = config.tables.forms.columns;
      const links = (await call('POST', `/api/Records/${projectId}/search`, { tableId: config.tables.durationPaths.id, page: 1, perPage: 1 })) as {
        records: Array<{ id: number }>;
      };
      const stamp = Date.now();
      const formResults = (await call('POST', `/api/Records/${projectId}/bulk`, {
        operations: Array.from({ length: 100 }, (_, i) => ({
          opId: `scale-form-${stamp}-${i}`,
          kind: 'insert' as const,
          tableId: config.tables.forms.id,
          properties: { [f.parent]: links.records[0]!.id, [f.form_id]: Object.values(config.forms)[0]!.id, [f.completed]: false },
        })),
      })) as { results: Array<{ id: number }> };
      const formIds = formResults.results.map((r) => r.id);
      const body: BulkBody = {
        operations: Array.from({ length: 10_000 }, (_, i) => ({
          opId: `scale-${stamp}-${i}`,
          kind: 'insert' as const,
          tableId,
          properties: { [c.parent]: formIds[i % formIds.length]!, [c.key]: `k${i % KEYS}`, [c.value]: i % 100, [c.note]: `bulk ${i}` },
        })),
      };
      const start = performance.now();
      const result = (await call('POST', `/api/Records/${projectId}/bulk`, body)) as { results: Array<{ id: number }> };
      const seconds = (performance.now() - start) / 1000;
      io.emit(`${label}.bulk_rows_per_s`, 10_000 / seconds, 'rows/s');
      const ids = [...result.results.map((r) => r.id), ...formIds];
      for (let i = 0; i < ids.length; i += 1000) {
        const chunk = ids.slice(i, i + 1000);
        await app.db.deleteFrom('record_history').where('record_id', 'in', chunk).execute();
        await app.db
          .deleteFrom('records_fts' as never)
          .where((app.dialect.name === 'postgres' ? 'record_id' : 'rowid') as never, 'in', chunk as never)
          .execute();
        await app.db.deleteFrom('records').where('id', 'in', chunk).execute();
      }
    }
  } finally {
    await app.close();
  }
}

export async function scaleFigures(io: Io): Promise<void> {
  for (const label of ['sqlite', 'pg'] as const) {
    if (!['search', 'extent', 'bulk'].some((f) => io.want(`${label}.${f}`))) continue;
    const url = label === 'pg' ? await benchPgUrl(io) : null;
    if (label === 'pg' && !url) continue;
    await measure(io, label, url);
  }
}
