/**
 * Sync figures: draining 10,000 queued edits through the real outbox code (lib/db +
 * features/sync drainOnce + the RTK Query transport) into the real server over HTTP.
 *
 * 10,000 queued form inserts:
 * - sync.drain_10k_batched_ms   bulk calls of MODIFY_CHUNK_SIZE (200) operations, as the app drains
 * - sync.drain_10k_single_ms    the naive way: one request per edit (bulk calls of 1), same run
 *   (also printed as sync.drain_10k_per_edit_ms, its earlier name)
 * - sync.drain_10k_batched_server_ms / _client_ms (and the same for _single_): the split of each
 *   figure into waiting for the server (HTTP, the server's transaction, the RTK Query transport)
 *   and the client's own work (reading the outbox, acknowledging each answer in Dexie)
 *
 * The client side runs in Node with fake-indexeddb standing in for the browser's IndexedDB, so
 * the figures include Dexie work on a JavaScript IndexedDB (slower than Chromium's): the
 * acknowledgement of each call is one strict transaction that removes the items and updates
 * the local rows. Queuing the edits is not measured.
 */
import 'fake-indexeddb/auto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app';
import type { Principal } from '../src/server/auth/principal';
import type { AppConfig } from '../src/common/schemas/config';
import type { SearchRequest } from '../src/common/filter';
import { makeStore } from '../src/client/app/store';
import { drainOnce, rtkQueryTransport } from '../src/client/features/sync';
import { newOpId, openOfflineDb, type FeatureRow, type OfflineDb, type OutboxItem } from '../src/client/lib/db';

export interface BenchIo {
  want: (name: string) => boolean;
  emit: (name: string, value: number, unit?: string) => void;
  log: (message: string) => void;
}

const EDITOR: Principal = { subject: 'bench-sync-editor', email: 'urednik@example.si', name: 'Bench', via: 'token' };
const EDITS = Number(process.env.SYNC_BENCH_EDITS ?? 10_000);

/**
 * Queues `count` form inserts the way saveEdit stores them, in one transaction (not measured).
 * Forms rather than indicators: the server recomputes a form's score on every indicator write, so
 * 10,000 indicators under one form would measure that recomputation, not sync.
 */
async function queueEdits(db: OfflineDb, config: AppConfig, parentId: number, count: number, tag: string): Promise<void> {
  const c = config.tables.forms.columns;
  const tableId = config.tables.forms.id;
  const now = new Date().toISOString();
  const rows: FeatureRow[] = [];
  const items: OutboxItem[] = [];
  for (let i = 0; i < count; i++) {
    const id = i + 1; // local ids: unique, below LOCAL_ID_BOUND
    const properties = { [c.parent]: parentId, [c.form_id]: 1, [c.note]: `${tag} ${i}`, [c.completed]: false };
    rows.push({
      tableId,
      featureId: id,
      projectId: config.projectId,
      feature: { id, tableId, properties, geometry: null, deleted: false, archived: false, createdAt: now, updatedAt: now, version: 0 },
      isInsert: 1,
      isEdit: 0,
      isDelete: 0,
      isRecord: 1,
    });
    items.push({
      opId: newOpId(),
      projectId: config.projectId,
      api: 'Records',
      kind: 'insert',
      tableId,
      id,
      properties,
      geometry: null,
      refs: [String(c.parent)],
      status: 'pending',
      attempts: 0,
      createdAt: now,
    });
  }
  await db.transaction('rw', db.features, db.outbox, async () => {
    await db.features.bulkPut(rows);
    await db.outbox.bulkAdd(items);
  });
}

interface DrainTimes {
  ms: number;
  /** Waiting for the bulk calls' answers. */
  serverMs: number;
  /** Everything else: the client's own work. */
  clientMs: number;
}

async function timeDrain(origin: string, config: AppConfig, parentId: number, maxBatch: number, tag: string, log: BenchIo['log']): Promise<DrainTimes> {
  const db = openOfflineDb({ name: `bench-sync-${tag}-${Date.now()}` });
  await queueEdits(db, config, parentId, EDITS, tag);
  // Production-build behaviour: RTK's development checks off.
  const store = makeStore(undefined, { extra: { db, api: { baseUrl: origin } }, devChecks: false });
  const start = performance.now();
  let requests = 0;
  let netMs = 0;
  for (;;) {
    const inner = rtkQueryTransport(store.dispatch);
    // Time spent waiting for the server (HTTP + its transaction), logged to tell the two apart.
    const transport = {
      ...inner,
      bulk: async (...args: Parameters<typeof inner.bulk>) => {
        const t0 = performance.now();
        const answer = await inner.bulk(...args);
        netMs += performance.now() - t0;
        return answer;
      },
    };
    const outcome = await drainOnce({ db, transport, maxBatch });
    requests += outcome.requests;
    if (outcome.kind === 'done') break;
    throw new Error(`drain stopped: ${JSON.stringify(outcome)}`);
  }
  const ms = performance.now() - start;
  const left = await db.outbox.count();
  if (left !== 0) throw new Error(`${left} edits left in the outbox`);
  log(
    `drain ${EDITS} edits, ${maxBatch} per call: ${requests} requests, ${ms.toFixed(0)} ms (waiting for the server ${netMs.toFixed(0)} ms, client ${(ms - netMs).toFixed(0)} ms)`,
  );
  db.close();
  return { ms, serverMs: netMs, clientMs: ms - netMs };
}

export async function syncFigures({ want, emit, log }: BenchIo): Promise<void> {
  const batched = want('sync.drain_10k_batched_ms');
  const single = want('sync.drain_10k_single_ms') || want('sync.drain_10k_per_edit_ms');
  if (!batched && !single) return;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'moj-travnik-bench-sync-'));
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
    const origin = (await app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    const config = (await (await fetch(`${origin}/config.json`)).json()) as AppConfig;
    const search: SearchRequest = { tableId: config.tables.durationPaths.id, page: 1, perPage: 1 };
    const links = (await (
      await fetch(`${origin}/api/Records/${config.projectId}/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(search),
      })
    ).json()) as { records: Array<{ id: number }> };
    const linkId = links.records[0]?.id;
    if (!linkId) throw new Error('the demo project has no duration-path link to put forms under');
    if (batched) {
      const times = await timeDrain(origin, config, linkId, 200, 'batched', log);
      emit('sync.drain_10k_batched_ms', times.ms);
      emit('sync.drain_10k_batched_server_ms', times.serverMs);
      emit('sync.drain_10k_batched_client_ms', times.clientMs);
    }
    if (single) {
      const times = await timeDrain(origin, config, linkId, 1, 'single', log);
      emit('sync.drain_10k_single_ms', times.ms);
      emit('sync.drain_10k_per_edit_ms', times.ms);
      emit('sync.drain_10k_single_server_ms', times.serverMs);
      emit('sync.drain_10k_single_client_ms', times.clientMs);
    }
  } finally {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
