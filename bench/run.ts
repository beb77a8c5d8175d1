/**
 * `npm run bench [-- PREFIX]`: server performance figures, one JSON line each on stdout
 * ({"name":…,"value":…,"unit":"ms"}); progress goes to stderr. PREFIX keeps only figures whose
 * name starts with it (the set-up they need still runs).
 *
 * The server is the real one (buildApp over a fresh SQLite file in a temp DATA_DIR), listening on
 * an ephemeral loopback port; requests go over real HTTP with keep-alive. Authentication is a
 * bench Authenticate that names the demo editor: the bench measures data paths, not sign-in.
 *
 * Figures:
 * - server.bulk_10k_ms    10,000 inserts in one POST …/bulk (the median of BULK_CALLS such calls,
 *                         one after another on the same forms; likewise the two figures below)
 * - server.bulk_10k_server_ms  the server's share of that call: from the request's arrival to its
 *                         answer made and compressed (onRequest → onSend), without the bench's
 *                         own encoding of the request and reading of the answer
 * - server.bulk_10k_floor_ms  the same 10,000 rows by plain multi-row INSERTs in one transaction
 *                         straight through Kysely (bench/floor.ts): the raw floor (before each
 *                         call, the median of FLOOR_RUNS such transactions; likewise the next)
 * - server.bulk_10k_all_rows_floor_ms  everything such a call writes (the records, their history
 *                         entries, applied opIds and text index entries) by plain multi-row INSERTs
 *                         in one transaction (bench/floor.ts): the server's share less its deciding
 * - server.single_10k_ms  10,000 POST /api/Records/{projectId}, one after another (the naive way)
 * - server.search_p50_ms / server.search_p95_ms  a 3-filter And search on a 100,000-record table
 *                         over HTTP, 8 requests in flight
 * - server.search_db_ms   the same search run directly on the database (median): the floor
 * - import.*               bulk import of 10,000 meadows from a GeoPackage (bench/import.ts)
 * - audit.*                the editors' audit trail on 1M history entries (bench/audit.ts)
 * - ops.*                  backup and restore of a 1,000-farmer project with its photos, next to
 *                          copying the same files plainly (bench/backup.ts)
 * - client.*               bundle sizes of the production build (bench/client-bundle.ts), when
 *                          dist/ exists
 * - client.load_*          the farmer's paths on screen, a form's render and a tap's time to the
 *                          next paint on a phone profile in Chromium (bench/client-load.ts)
 * - floor.idb_put_10k_ms   raw IndexedDB in the same Chromium (bench/idb-floor.ts), printed
 *                          beside the browser figures of the run whatever the prefix
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app';
import type { Principal } from '../src/server/auth/principal';
import type { AppConfig } from '../src/common/schemas/config';
import type { BulkBody, BulkOperation, Properties } from '../src/common/schemas/wire';
import type { FilterNode, SearchRequest } from '../src/common/filter';
import { clientBundleFigures } from './client-bundle';
import { insertAllRowsFloor, insertFloor } from './floor';
import { runDbSearch } from './db-search';
import { syncFigures } from './sync'; // sync.drain_10k_* figures
import { syncBrowserFigures } from './sync-browser'; // sync.dexie_* / sync.offline_paths_* (Chromium)
import { syncDrainBrowserFigures, timeBulkCalls } from './sync-drain-browser';
import { mapFigures } from './map'; // map.* figures
import { qaFigures } from './qa'; // qa.* action-log figures
import { scaleFigures } from './scale'; // sqlite.* / pg.* figures on 1M records
import { importFigures } from './import'; // import.areas_10k_* (bench/import.ts)
import { clientLoadFigures } from './client-load'; // client.load_* on a phone profile in Chromium
import { auditFigures } from './audit'; // audit.* the editors' audit trail on a large history
import { backupFigures } from './backup'; // ops.* backup and restore of a 1,000-farmer project

const prefix = process.argv[2] ?? '';
const want = (name: string) => name.startsWith(prefix);
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/**
 * A floor (`floor.*`) is printed whenever a group measured it, whatever the prefix: it is the
 * yardstick of the other figures of the same run.
 */
function emit(name: string, value: number, unit = 'ms'): void {
  if (want(name) || name.startsWith('floor.')) process.stdout.write(`${JSON.stringify({ name, value: Math.round(value * 100) / 100, unit })}\n`);
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** The median of FLOOR_RUNS measurements, one after another. */
async function medianOfRuns(measure: () => Promise<number>): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < FLOOR_RUNS; run++) times.push(await measure());
  return median(times);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

const EDITOR: Principal = { subject: 'bench-editor', email: 'urednik@example.si', name: 'Bench', via: 'token' };
const TOTAL_SEARCH_ROWS = 100_000;
const BATCH = 10_000;
/** 10,000-insert bulk calls measured (their medians are the figures; the first runs on a cold server). BULK_CALLS=n in the environment measures n instead. */
const BULK_CALLS = Math.max(1, Number(process.env.BULK_CALLS ?? 3) || 3);
/**
 * Transactions per floor before each call, of which the median counts: one floor transaction moves
 * by a third between repeats on a 2-core machine, and the goal is a ratio to it.
 */
const FLOOR_RUNS = 3;
const SEARCH_REQUESTS = 400;
const SEARCH_CONCURRENCY = 8;
const DB_SEARCH_RUNS = 30;
/** Forms the indicators are spread over (100,000 / 2,000 = 50 per form). */
const FORMS = 2_000;
/** Indicator keys: a form's n-th indicator has key n (mod KEYS, above the 55 a form gets); the search asks for one of them. */
const KEYS = 60;

function indicatorProperties(config: AppConfig, formId: number, n: number): Record<string, unknown> {
  const c = config.tables.indicators.columns;
  return {
    [c.parent]: formId,
    // Each form's indicators have distinct keys (one live indicator per key on a form).
    [c.key]: `k${Math.floor(n / FORMS) % KEYS}`,
    [c.value]: n % 100,
    [c.note]: n % 7 === 0 ? `opomba travnik ${n}` : `zapis ${n}`,
  };
}

/** key = 'k3' And value > 50 And note contains 'travnik': about 1 row in 700 matches. */
function searchFilters(config: AppConfig): FilterNode {
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

function clientFigures(): void {
  if (!['client', 'client.'].some((p) => p.startsWith(prefix) || prefix.startsWith(p))) return;
  const dist = path.resolve('dist');
  if (!existsSync(path.join(dist, 'index.html'))) {
    log('dist/ has no build: client figures skipped (npm run build)');
    return;
  }
  for (const figure of clientBundleFigures(dist)) emit(figure.name, figure.value, figure.unit);
}

async function main(): Promise<void> {
  clientFigures();
  await clientLoadFigures({ want, emit, log }); // client.load_* figures (bench/client-load.ts)
  await syncFigures({ want, emit, log }); // sync.drain_10k_batched_ms / _single_ms (bench/sync.ts)
  await syncBrowserFigures({ want, emit, log }); // Dexie figures in Chromium (bench/sync-browser.ts)
  await syncDrainBrowserFigures({ want, emit, log }); // sync.browser_* and peer.pouchdb_browser_* in Chromium (bench/sync-drain-browser.ts)
  await mapFigures({ want, emit, log }); // map.* figures (bench/map.ts)
  await qaFigures({ want, emit, log }); // qa.log_append_10k_ms vs _naive_ms, replay (bench/qa.ts)
  await scaleFigures({ want, emit, log }); // 1M-record figures on SQLite and PostgreSQL (bench/scale.ts)
  await importFigures({ want, emit, log }); // import.areas_10k_dry_run_ms / _ms / _again_ms vs the naive single POSTs (bench/import.ts)
  await auditFigures({ want, emit, log }); // audit.page_* / audit.csv_* on 1M history entries (bench/audit.ts)
  await backupFigures({ want, emit, log }); // ops.backup_* / ops.restore_* vs copying the files plainly (bench/backup.ts)
  if (!'server.'.startsWith(prefix) && !prefix.startsWith('server')) return;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'moj-travnik-bench-'));
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp({
      dataDir,
      database: path.join(dataDir, 'bench.sqlite'),
      demo: true,
      logger: false,
      clientDir: path.join(dataDir, 'no-client'),
      authenticate: async () => EDITOR,
    });
    const bulkCalls = timeBulkCalls(app);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    log(`server at ${address}, data in ${dataDir}`);

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
    // Forms to hang the indicators on, about 50 indicators each as in real monitoring (the server
    // recomputes a form's score from its indicators on every indicator write, so piling 100,000
    // indicators onto one form would measure that instead of the calls). Set-up, not measured.
    const links = (await call('POST', `/api/Records/${projectId}/search`, {
      tableId: config.tables.durationPaths.id,
      page: 1,
      perPage: 1,
    } satisfies SearchRequest)) as {
      records: Array<{ id: number }>;
    };
    const linkId = links.records[0]?.id;
    if (!linkId) throw new Error('the demo project has no durationPath to attach forms to');
    const f = config.tables.forms.columns;
    const formKindId = Object.values(config.forms)[0]!.id;
    const createdForms = (await call('POST', `/api/Records/${projectId}/bulk`, {
      operations: Array.from({ length: FORMS }, (_, i): BulkOperation => ({
        opId: `bench-form-${i}`,
        kind: 'insert',
        tableId: config.tables.forms.id,
        properties: { [f.parent]: linkId, [f.form_id]: formKindId, [f.note]: `bench ${i}`, [f.completed]: false },
      })),
    } satisfies BulkBody)) as { results: Array<{ id: number }> };
    const formIds = createdForms.results.map((r) => r.id);
    let n = 0;
    const bulkBody = (count: number): BulkBody => ({
      operations: Array.from({ length: count }, (): BulkOperation => {
        n += 1;
        return { opId: `bench-${n}`, kind: 'insert', tableId, properties: indicatorProperties(config, formIds[n % FORMS]!, n) };
      }),
    });

    // --- bulk: 10,000 inserts in one call, BULK_CALLS times -----------------------------------
    {
      const totals: number[] = [];
      const servers: number[] = [];
      const floors: number[] = [];
      const allRowsFloors: number[] = [];
      const c = config.tables.indicators.columns;
      for (let round = 0; round < BULK_CALLS; round++) {
        const body = bulkBody(BATCH);
        const inserts = body.operations.map((op) => ({ opId: op.opId, tableId: op.tableId, properties: (op as { properties: Properties }).properties }));
        // The floors first: their rows repeat the call's (they remove them again).
        if (want('server.bulk_10k_floor_ms')) floors.push(await medianOfRuns(() => insertFloor(app!, projectId, inserts)));
        if (want('server.bulk_10k_all_rows_floor_ms')) {
          // The indexed text: the indicators' text columns, key and note (record-writer's searchText).
          const text = (properties: Properties) => [properties[c.key], properties[c.note]].filter((value) => typeof value === 'string' && value).join('\n');
          const rows = inserts.map((insert) => ({ ...insert, text: text(insert.properties) }));
          allRowsFloors.push(await medianOfRuns(() => insertAllRowsFloor(app!, projectId, rows)));
        }
        bulkCalls.take();
        const start = performance.now();
        await call('POST', `/api/Records/${projectId}/bulk`, body);
        totals.push(performance.now() - start);
        servers.push(bulkCalls.take().ms);
        log(
          `bulk 10k, call ${round + 1}: ${totals.at(-1)!.toFixed(0)} ms, of which the server ${servers.at(-1)!.toFixed(0)} ms; the same rows by plain multi-row inserts: ${floors.at(-1)?.toFixed(0) ?? '–'} ms, ` +
            `with their history, applied opIds and text index: ${allRowsFloors.at(-1)?.toFixed(0) ?? '–'} ms`,
        );
      }
      emit('server.bulk_10k_ms', median(totals));
      emit('server.bulk_10k_server_ms', median(servers));
      if (floors.length) emit('server.bulk_10k_floor_ms', median(floors));
      if (allRowsFloors.length) emit('server.bulk_10k_all_rows_floor_ms', median(allRowsFloors));
    }

    // --- single: 10,000 POSTs one after another -------------------------------------------------
    if (want('server.single')) {
      const start = performance.now();
      for (let i = 0; i < BATCH; i += 1) {
        n += 1;
        await call('POST', `/api/Records/${projectId}`, { tableId, properties: indicatorProperties(config, formIds[n % FORMS]!, n) });
      }
      const ms = performance.now() - start;
      log(`single 10k: ${ms.toFixed(0)} ms`);
      emit('server.single_10k_ms', ms);
    }

    if (!want('server.search')) return;

    // --- fill the table to 100,000 rows (not measured) ------------------------------------------
    const existing = (await call('POST', `/api/Records/${projectId}/search/ids`, { tableId, page: 1, perPage: 1 } satisfies SearchRequest)) as {
      totalCount: number;
    };
    let rows = existing.totalCount;
    while (rows < TOTAL_SEARCH_ROWS) {
      const count = Math.min(BATCH, TOTAL_SEARCH_ROWS - rows);
      await call('POST', `/api/Records/${projectId}/bulk`, bulkBody(count));
      rows += count;
    }
    log(`table ${tableId} holds ${rows} records`);

    const search: SearchRequest = { tableId, page: 1, perPage: 50, filters: searchFilters(config), sorts: [{ columnId: 'id', direction: 'asc' }] };
    const first = (await call('POST', `/api/Records/${projectId}/search`, search)) as { totalCount: number };
    log(`search matches ${first.totalCount} of ${rows}`);

    // --- search over HTTP, 8 in flight ----------------------------------------------------------
    for (let i = 0; i < 20; i += 1) await call('POST', `/api/Records/${projectId}/search`, search); // warm-up
    const latencies: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < SEARCH_REQUESTS) {
        next += 1;
        const start = performance.now();
        await call('POST', `/api/Records/${projectId}/search`, search);
        latencies.push(performance.now() - start);
      }
    };
    await Promise.all(Array.from({ length: SEARCH_CONCURRENCY }, worker));
    latencies.sort((a, b) => a - b);
    emit('server.search_p50_ms', percentile(latencies, 50));
    emit('server.search_p95_ms', percentile(latencies, 95));
    log(`search over HTTP: p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms`);

    // --- the same query on the database directly ------------------------------------------------
    const dbTimes: number[] = [];
    for (let i = 0; i < DB_SEARCH_RUNS + 3; i += 1) {
      const start = performance.now();
      const result = await runDbSearch(app, projectId, EDITOR, search);
      const ms = performance.now() - start;
      if (i >= 3) dbTimes.push(ms); // first runs warm the statement cache
      if (i === 0 && result.totalCount !== first.totalCount) throw new Error(`db search found ${result.totalCount}, HTTP ${first.totalCount}`);
    }
    dbTimes.sort((a, b) => a - b);
    emit('server.search_db_ms', percentile(dbTimes, 50));
    log(`search on the database: median ${percentile(dbTimes, 50).toFixed(2)} ms`);
  } finally {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
