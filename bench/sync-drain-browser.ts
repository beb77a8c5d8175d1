/**
 * Sync figures where sync runs: in Chromium, on its real IndexedDB, with the production build of
 * the app's sync code (lib/db outbox, features/sync drainOnce + RTK Query transport), against the
 * real server (buildApp over a fresh SQLite file in a temp DATA_DIR, demo project) on loopback.
 * The page is served by that server, so its calls are same-origin like the app's; it signs in as
 * the server tests do (the test Authenticate and its header, for the demo editor).
 *
 * The edits: bench/browser/field-day-edits.ts (forms, their indicators naming the form's offline
 * id, changed answers, changed forms; 28 per form, so calls cut across forms).
 * - sync.browser_drain_10k_ms          10,000 queued edits drained in bulk calls of MODIFY_CHUNK_SIZE
 * - sync.browser_drain_10k_server_ms   the server's share: its time on the bulk calls, from the
 *                                      request's arrival to the answer's serialisation (Fastify
 *                                      onRequest → onSend), summed
 * - sync.browser_drain_10k_client_ms   the rest (total − server): HTTP on loopback, the transport,
 *                                      reading the outbox, acknowledging each answer in IndexedDB
 * - sync.browser_drain_10k_ack_ms      of the client's share: the time not spent waiting for an answer
 *                                      or reading the outbox — the acknowledgements not hidden behind
 *                                      the next call (which goes while the last answer is written)
 * - sync.browser_drain_10k_floor_ms    the same 10,000 rows (one per edit) written by plain
 *                                      multi-row INSERTs in one transaction on the same database
 *                                      (an update's row as a deleted one; bench/floor.ts)
 * - sync.browser_drain_300_ms          a field day's worth (300 edits, 11 forms)
 * - sync.browser_drain_300_per_edit_ms the same 300 edits one request each (the naive way)
 * - floor.idb_put_10k_ms               raw IndexedDB in the same Chromium putting 10,000 rows in one
 *                                      transaction (bench/idb-floor.ts), before and after the drains:
 *                                      the client's floor (printed whatever the prefix)
 * - floor.idb_drain_10k_ms             raw IndexedDB in the same Chromium doing only what a drain of
 *                                      10,000 edits must do on the device in this design (the queue
 *                                      read a call at a time, the items deleted and each row put over
 *                                      its earlier copy, in the app's stores, one durable transaction
 *                                      per call; bench/idb-floor.ts), before and after the drains
 * - peer.pouchdb_browser_10k_ms        PouchDB (pouchdb-browser, idb adapter) in the same Chromium
 *                                      replicating 10,000 documents to express-pouchdb (in memory)
 *                                      on loopback (bench/pouch-peer.ts)
 * The 10,000-edit figures are those of the median of RUNS drains (each on new edits, one after
 * another; its server, client and acknowledgement shares are that drain's), and the PouchDB figure
 * the median of as many replications: one run on this shared 2-core machine varies by ±15 %.
 * Progress and where the client's time goes are logged on stderr, with the IndexedDB requests per
 * acknowledgement by store and method, counted in the warm-up drain only (counting wraps every
 * request method, which would add its own time to the timed drains). Skipped with a message when
 * /usr/bin/chromium is missing.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Page } from 'playwright-core';
import { buildApp } from '../src/server/app';
import { MODIFY_CHUNK_SIZE } from '../src/common/constants';
import type { AppConfig } from '../src/common/schemas/config';
import type { SearchRequest } from '../src/common/filter';
import { TEST_USER_HEADER, testAuthenticate, USERS } from '../test/server/helpers/build-test-app';
import type { DrainFigures, DrainSetup } from './browser/sync-drain-entry';
import { fieldDayEdits } from './browser/field-day-edits';
import { insertFloor } from './floor';
import { DRAIN_FLOOR_NAME, FLOOR_NAME, measureIdbDrainFloor, measureIdbFloor } from './idb-floor';
import { cpuSnapshot, cpuUsedBy, describeCpu, type CpuByKind } from './process-cpu';
import { startPouchPeer } from './pouch-peer';
import { bundle } from './sync-browser';
import { CHROMIUM_PATH, launchChromium } from '../scripts/chromium';
import type { BenchIo } from './sync';

const EDITS = 10_000;
const FIELD_DAY = 300;
/** The warm-up drain, whose IndexedDB requests are counted: a few calls of MODIFY_CHUNK_SIZE. */
const COUNTED_EDITS = 2 * MODIFY_CHUNK_SIZE;
const PEER_DOCS = 10_000;
/** 10,000-edit drains and PouchDB replications measured (their medians are the figures). DRAIN_RUNS=n in the environment measures n instead. */
const RUNS = Math.max(1, Number(process.env.DRAIN_RUNS ?? 3) || 3);

/** The middle item by `value` (the lower middle for an even count). */
function medianBy<T>(items: readonly T[], value: (item: T) => number): T {
  return [...items].sort((a, b) => value(a) - value(b))[Math.floor((items.length - 1) / 2)]!;
}

const NAMES = {
  drain: 'sync.browser_drain_10k_ms',
  server: 'sync.browser_drain_10k_server_ms',
  client: 'sync.browser_drain_10k_client_ms',
  ack: 'sync.browser_drain_10k_ack_ms',
  floor: 'sync.browser_drain_10k_floor_ms',
  day: 'sync.browser_drain_300_ms',
  dayPerEdit: 'sync.browser_drain_300_per_edit_ms',
  pouch: 'peer.pouchdb_browser_10k_ms',
} as const;

type DrainApi = { drain(setup: DrainSetup, count: number, maxBatch: number, tag: string, counted: boolean): Promise<DrainFigures> };

/** Server time of the bulk calls (onRequest → onSend), summed since the last reset. */
export function timeBulkCalls(app: FastifyInstance): { take(): { ms: number; calls: number } } {
  const started = new WeakMap<FastifyRequest, number>();
  let ms = 0;
  let calls = 0;
  app.addHook('onRequest', async (request) => {
    if (request.method === 'POST' && request.url.endsWith('/bulk')) started.set(request, performance.now());
  });
  app.addHook('onSend', async (request) => {
    const start = started.get(request);
    if (start === undefined) return;
    ms += performance.now() - start;
    calls += 1;
  });
  return {
    take: () => {
      const taken = { ms, calls };
      ms = 0;
      calls = 0;
      return taken;
    },
  };
}

function describeDrainFloors(floors: ReadonlyArray<{ ms: number; rowsMs: number }>): string {
  return floors.map(({ ms, rowsMs }) => `${ms.toFixed(0)} ms (the rows' puts alone ${rowsMs.toFixed(0)})`).join(', ');
}

function describeAck(figures: DrainFigures): string {
  const calls = Math.max(1, figures.requests);
  return (
    `not waiting for answers ${figures.ackMs.toFixed(0)} ms (${(figures.ackMs / calls).toFixed(1)} ms per call, longest gap ${figures.maxAckMs.toFixed(0)} ms); ` +
    `reading the outbox ${figures.readMs.toFixed(0)} ms`
  );
}

function describeRequests(figures: DrainFigures): string {
  const calls = Math.max(1, figures.requests);
  const total = Object.values(figures.ackRequests).reduce((a, b) => a + b, 0);
  const top = Object.entries(figures.ackRequests)
    .sort((a, b) => b[1] - a[1])
    .map(([key, n]) => `${key} ${Math.round(n / calls)}`)
    .join(', ');
  return `${Math.round(total / calls)} per acknowledged call: ${top}; reading the outbox ${figures.readRequests}`;
}

export async function syncDrainBrowserFigures({ want, emit, log }: BenchIo): Promise<void> {
  const drainWanted = [NAMES.drain, NAMES.server, NAMES.client, NAMES.ack, NAMES.floor].some(want);
  const dayWanted = want(NAMES.day) || want(NAMES.dayPerEdit);
  const pouchWanted = want(NAMES.pouch);
  if (!drainWanted && !dayWanted && !pouchWanted) return;
  if (!existsSync(CHROMIUM_PATH)) {
    log(`Chromium not found at ${CHROMIUM_PATH}: sync.browser_* and peer.pouchdb_browser_* figures skipped`);
    return;
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'moj-travnik-bench-drain-'));
  const bundleDir = path.join(dataDir, 'bundle');
  let app: FastifyInstance | undefined;
  const browser = await (async () => {
    log('building the bench pages (production mode)');
    await bundle(bundleDir, { drain: 'bench/browser/sync-drain-entry.ts', pouch: 'bench/browser/pouch-peer-entry.ts' });
    return launchChromium();
  })();
  try {
    app = await buildApp({
      dataDir,
      database: path.join(dataDir, 'bench.sqlite'),
      demo: true,
      logger: false,
      clientDir: path.join(dataDir, 'no-client'),
      authenticate: testAuthenticate,
    });
    app.get('/bench/drain.js', async (_request, reply) => reply.type('text/javascript').send(readFileSync(path.join(bundleDir, 'drain.js'))));
    app.get('/bench/drain', async (_request, reply) =>
      reply.type('text/html').send('<!doctype html><meta charset="utf-8"><script src="/bench/drain.js"></script>'),
    );
    const bulkTimes = timeBulkCalls(app);
    const origin = (await app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    const headers = { [TEST_USER_HEADER]: USERS.editor, 'content-type': 'application/json' };
    const config = (await (await fetch(`${origin}/config.json`)).json()) as AppConfig;
    const search: SearchRequest = { tableId: config.tables.durationPaths.id, page: 1, perPage: 1 };
    const links = (await (
      await fetch(`${origin}/api/Records/${config.projectId}/search`, { method: 'POST', headers, body: JSON.stringify(search) })
    ).json()) as { records?: Array<{ id: number }> };
    const linkId = links.records?.[0]?.id;
    if (!linkId) throw new Error('the demo project has no durationPath link to put forms under');
    const setup: DrainSetup = { config, linkId, user: USERS.editor, userHeader: TEST_USER_HEADER };

    const page = await browser.newPage();
    page.on('pageerror', (error) => log(`page error: ${error.message}`));
    const cpuMarks = new Map<string, CpuByKind>();
    await page.exposeFunction('benchCpuMark', (name: string) => void cpuMarks.set(name, cpuSnapshot()));
    await page.goto(`${origin}/bench/drain`);
    await page.waitForFunction(() => 'drainBench' in window);
    const drain = (count: number, maxBatch: number, tag: string, counted = false) =>
      page.evaluate(([s, n, b, t, c]) => (window as unknown as { drainBench: DrainApi }).drainBench.drain(s, n, b, t, c), [
        setup,
        count,
        maxBatch,
        tag,
        counted,
      ] as const);

    // A short drain first: the server's and the page's code paths warm up, as in a running app.
    // Its IndexedDB requests are counted (the timed drains below are not: counting costs time).
    const counted = await drain(COUNTED_EDITS, MODIFY_CHUNK_SIZE, 'counted', true);
    bulkTimes.take();
    log(`IndexedDB requests, a drain of ${counted.edits} edits: ${describeRequests(counted)}`);

    if (dayWanted) {
      const day = await drain(FIELD_DAY, MODIFY_CHUNK_SIZE, 'day');
      const server = bulkTimes.take();
      log(`drain ${day.edits} edits: ${day.requests} requests, ${day.ms.toFixed(0)} ms (server ${server.ms.toFixed(0)} ms); ${describeAck(day)}`);
      emit(NAMES.day, day.ms);
      if (want(NAMES.dayPerEdit)) {
        const single = await drain(FIELD_DAY, 1, 'day-single');
        const singleServer = bulkTimes.take();
        log(`drain ${single.edits} edits one per request: ${single.requests} requests, ${single.ms.toFixed(0)} ms (server ${singleServer.ms.toFixed(0)} ms)`);
        emit(NAMES.dayPerEdit, single.ms);
      }
    }

    if (drainWanted) {
      // Raw IndexedDB in this Chromium, before the drains and after them (bench/idb-floor.ts): the
      // client's floor, which the drain is read against.
      const floorCpuStart = cpuSnapshot();
      const idbFloors = await measureIdbFloor(browser, origin, '/config.json', 3);
      log(
        `${FLOOR_NAME} before the drains: ${idbFloors.map((ms) => ms.toFixed(0)).join(', ')} ms; CPU ms per floor run by process: ${describeCpu(floorCpuStart, cpuSnapshot(), 3)}`,
      );
      const drainFloors = await measureIdbDrainFloor(browser, origin, '/config.json', 2, MODIFY_CHUNK_SIZE);
      log(`${DRAIN_FLOOR_NAME} before the drains: ${describeDrainFloors(drainFloors)}`);
      // Where the machine's two cores went while each drain ran (the queueing before it left out);
      // of it, this process's CPU time (the server; the bench driver idles meanwhile), steadier
      // than wall time on a shared machine, is compared with the floor's.
      const runs: Array<{ figures: DrainFigures; server: { ms: number }; serverCpuMs: number }> = [];
      for (let run = 0; run < RUNS; run++) {
        const figures = await drain(EDITS, MODIFY_CHUNK_SIZE, `drain-${run}`);
        const [start, end] = [cpuMarks.get(`start drain-${run}`)!, cpuMarks.get(`end drain-${run}`)!];
        const processes = describeCpu(start, end);
        const server = bulkTimes.take();
        if (figures.edits !== EDITS) throw new Error(`queued ${figures.edits} edits, expected ${EDITS}`);
        log(
          `drain ${run + 1} of ${RUNS}, ${figures.edits} edits: ${figures.requests} requests, ${figures.ms.toFixed(0)} ms; server ${server.ms.toFixed(0)} ms over ${server.calls} calls, ` +
            `waiting for answers ${figures.waitMs.toFixed(0)} ms (HTTP + transport beyond the server: ${(figures.waitMs - server.ms).toFixed(0)} ms); ${describeAck(figures)}; ` +
            `CPU ms by process: ${processes}`,
        );
        runs.push({ figures, server, serverCpuMs: cpuUsedBy('server', start, end) });
      }
      const { figures, server, serverCpuMs } = medianBy(runs, (run) => run.figures.ms);
      const idbAfter = await measureIdbFloor(browser, origin, '/config.json', 3);
      log(`${FLOOR_NAME} after the drains: ${idbAfter.map((ms) => ms.toFixed(0)).join(', ')} ms`);
      const drainAfter = await measureIdbDrainFloor(browser, origin, '/config.json', 2, MODIFY_CHUNK_SIZE);
      log(`${DRAIN_FLOOR_NAME} after the drains: ${describeDrainFloors(drainAfter)}`);
      const idbFloor = medianBy([...idbFloors, ...idbAfter], (ms) => ms);
      const drainFloor = medianBy([...drainFloors, ...drainAfter], (floor) => floor.ms);
      log(
        `the drain ÷ ${FLOOR_NAME}: ${(figures.ms / idbFloor).toFixed(2)}×; ${DRAIN_FLOOR_NAME} ÷ ${FLOOR_NAME}: ${(drainFloor.ms / idbFloor).toFixed(2)}× ` +
          `(its rows' puts alone ${(drainFloor.rowsMs / idbFloor).toFixed(2)}×); the drain ÷ ${DRAIN_FLOOR_NAME}: ${(figures.ms / drainFloor.ms).toFixed(2)}×`,
      );
      emit(NAMES.drain, figures.ms);
      emit(FLOOR_NAME, idbFloor);
      emit(DRAIN_FLOOR_NAME, drainFloor.ms);
      emit(NAMES.server, server.ms);
      emit(NAMES.client, figures.ms - server.ms);
      emit(NAMES.ack, figures.ackMs);
      if (want(NAMES.floor)) {
        const rows = fieldDayEdits(config, linkId, EDITS, 'floor').map((edit) => ({
          tableId: edit.tableId,
          properties: edit.properties,
          repeat: edit.kind === 'update',
        }));
        const floorStart = cpuSnapshot();
        const ms = await insertFloor(app, config.projectId, rows);
        const floorCpuMs = cpuUsedBy('server', floorStart, cpuSnapshot());
        log(
          `floor: ${rows.length} rows by plain multi-row inserts in one transaction, ${ms.toFixed(0)} ms (CPU ${floorCpuMs.toFixed(0)} ms; ` +
            `the server's CPU during the drain ${serverCpuMs.toFixed(0)} ms, ${(serverCpuMs / Math.max(1, floorCpuMs)).toFixed(1)}× the floor's)`,
        );
        emit(NAMES.floor, ms);
      }
    }

    if (pouchWanted) await pouchFigure(browser.newPage.bind(browser), dataDir, bundleDir, emit, log);
  } finally {
    await browser.close();
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function pouchFigure(newPage: () => Promise<Page>, dataDir: string, bundleDir: string, emit: BenchIo['emit'], log: BenchIo['log']): Promise<void> {
  const peer = await startPouchPeer(bundleDir, dataDir);
  try {
    const page = await newPage();
    page.on('pageerror', (error) => log(`page error: ${error.message}`));
    await page.goto(`${peer.origin}/bench/pouch`);
    await page.waitForFunction(() => 'pouchBench' in window);
    type PouchApi = { replicate(count: number, remote: string): Promise<{ ms: number; written: number; adapter: string }> };
    const replicate = (count: number, remote: string) =>
      page.evaluate(([n, r]) => (window as unknown as { pouchBench: PouchApi }).pouchBench.replicate(n, r), [count, remote] as const);
    await replicate(100, '/bench-warm-up'); // as the drain: code paths warm
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const result = await replicate(PEER_DOCS, `/bench-peer-${run}`);
      const held = await peer.docCount(`bench-peer-${run}`);
      if (result.written !== PEER_DOCS || held !== PEER_DOCS)
        throw new Error(`PouchDB wrote ${result.written} documents, the server holds ${held}; expected ${PEER_DOCS}`);
      log(`PouchDB (${result.adapter}) replicated ${PEER_DOCS} documents to express-pouchdb, ${run + 1} of ${RUNS}: ${result.ms.toFixed(0)} ms`);
      times.push(result.ms);
    }
    emit(
      NAMES.pouch,
      medianBy(times, (ms) => ms),
    );
  } finally {
    await peer.close();
  }
}
