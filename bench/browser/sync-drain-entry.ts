/**
 * Runs in Chromium (bench/sync-drain-browser.ts builds it in production mode and serves it from
 * the real server): the app's own sync code — the outbox of lib/db on Chromium's IndexedDB,
 * drainOnce and the RTK Query transport of features/sync — draining queued edits into the server
 * this page came from.
 *
 * The edits are those of bench/browser/field-day-edits.ts. Queuing them is not measured; they are
 * stored as saveEdit stores them, in one transaction.
 *
 * Besides the times, the page counts IndexedDB requests (every call that makes an IDBRequest,
 * including each cursor step): reading the outbox, and everything after it (the acknowledgements
 * of the bulk answers). The drain writes an answer's acknowledgement while the next call is on its
 * way, so the time the acknowledgements add is the time not spent waiting for an answer.
 */
import { makeStore } from '../../src/client/app/store';
import { drainOnce, rtkQueryTransport } from '../../src/client/features/sync';
import { newOpId, openOfflineDb, type FeatureRow, type OfflineDb, type OutboxItem } from '../../src/client/lib/db';
import type { AppConfig } from '../../src/common/schemas/config';
import { fieldDayEdits } from './field-day-edits';

export interface DrainSetup {
  config: AppConfig;
  /** A durationPath link the forms hang from. */
  linkId: number;
  /** Sent as the test user header (the bench server's Authenticate, as in the server tests). */
  user: string;
  userHeader: string;
}

export interface DrainFigures {
  edits: number;
  requests: number;
  ms: number;
  /** Waiting for the bulk answers (from the call to its parsed answer). */
  waitMs: number;
  /** Reading the outbox at the start of each pass. */
  readMs: number;
  /** Time not spent waiting for an answer nor reading the outbox: acknowledgements not hidden behind the next call, composing calls. */
  ackMs: number;
  /** IndexedDB requests of the acknowledgements, all calls together, by store.index.method. */
  ackRequests: Record<string, number>;
  /** IndexedDB requests of reading the outbox. */
  readRequests: number;
  /** Longest time between an answer and the next call (or the end). */
  maxAckMs: number;
}

// --- counting IndexedDB requests -----------------------------------------------------------------
// Counting wraps every request method of IndexedDB, which costs time of its own (a call and a label
// per request): only the drains that report counts are counted, never a timed figure's.
let counting: Record<string, number> | null = null;
const unwrapAll: Array<() => void> = [];
function wrap(proto: object, methods: string[], label: (self: unknown, method: string) => string): void {
  for (const method of methods) {
    const original = (proto as Record<string, unknown>)[method];
    if (typeof original !== 'function') continue;
    (proto as Record<string, unknown>)[method] = function (this: unknown, ...args: unknown[]) {
      if (counting) {
        const key = label(this, method);
        counting[key] = (counting[key] ?? 0) + 1;
      }
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
    unwrapAll.push(() => ((proto as Record<string, unknown>)[method] = original));
  }
}
function countRequests(on: boolean): void {
  unwrapAll.splice(0).forEach((unwrap) => unwrap());
  if (!on) return;
  wrap(
    IDBObjectStore.prototype,
    ['add', 'put', 'delete', 'get', 'getAll', 'getAllKeys', 'getKey', 'count', 'openCursor', 'openKeyCursor', 'clear'],
    (self, m) => `${(self as IDBObjectStore).name}.${m}`,
  );
  wrap(
    IDBIndex.prototype,
    ['get', 'getAll', 'getAllKeys', 'getKey', 'count', 'openCursor', 'openKeyCursor'],
    (self, m) => `${(self as IDBIndex).objectStore.name}[${(self as IDBIndex).name}].${m}`,
  );
  wrap(IDBCursor.prototype, ['continue', 'continuePrimaryKey', 'advance'], (self, m) => {
    const source = (self as IDBCursor).source;
    return source instanceof IDBIndex ? `${source.objectStore.name}[${source.name}].cursor.${m}` : `${(source as IDBObjectStore).name}.cursor.${m}`;
  });
}
function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

// --- queuing ---------------------------------------------------------------------------------------
/** Queues `count` edits as saveEdit would store them, in one transaction. */
async function queue(db: OfflineDb, setup: DrainSetup, count: number, tag: string): Promise<void> {
  const { config } = setup;
  const now = new Date().toISOString();
  const rows = new Map<string, FeatureRow>();
  const items: OutboxItem[] = [];
  for (const edit of fieldDayEdits(config, setup.linkId, count, tag)) {
    const { kind, tableId, id, properties, refs, refIds } = edit;
    const earlier = rows.get(`${tableId}:${id}`);
    rows.set(`${tableId}:${id}`, {
      tableId,
      featureId: id,
      projectId: config.projectId,
      feature: { id, tableId, properties, geometry: null, deleted: false, archived: false, createdAt: now, updatedAt: now, version: 0 },
      isInsert: 1,
      isEdit: earlier ? 1 : 0,
      isDelete: 0,
      isRecord: 1,
    });
    const item: OutboxItem = {
      opId: newOpId(),
      projectId: config.projectId,
      api: 'Records',
      kind,
      tableId,
      id,
      properties,
      geometry: null,
      refs,
      status: 'pending',
      attempts: 0,
      createdAt: now,
    };
    if (refIds.length) item.refIds = refIds;
    items.push(item);
  }
  await db.transaction('rw', db.features, db.outbox, async () => {
    await db.features.bulkPut([...rows.values()]);
    await db.outbox.bulkAdd(items);
  });
}

// --- draining ------------------------------------------------------------------------------------
async function drain(setup: DrainSetup, count: number, maxBatch: number, tag: string, counted: boolean): Promise<DrainFigures> {
  const db = openOfflineDb({ name: `bench-drain-${tag}-${Date.now()}` });
  await db.open();
  await queue(db, setup, count, tag);
  countRequests(counted);
  const edits = await db.outbox.count();
  const headers = { [setup.userHeader]: setup.user };
  const fetchFn: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } });
  // The production build's store (RTK's development checks are compiled out, and off here too).
  const store = makeStore(undefined, { extra: { db, api: { fetchFn } }, devChecks: false });
  const inner = rtkQueryTransport(store.dispatch);
  let waitMs = 0;
  let readMs = 0;
  let maxAckMs = 0;
  const ackRequests: Record<string, number> = {};
  let readRequests = 0;
  /** Since the last answer arrived (until the next call or the end). */
  let answeredAt: number | null = null;
  const closeAck = () => {
    if (answeredAt === null) return;
    maxAckMs = Math.max(maxAckMs, performance.now() - answeredAt);
    answeredAt = null;
  };
  const transport = {
    ...inner,
    bulk: async (...args: Parameters<typeof inner.bulk>) => {
      closeAck();
      const t0 = performance.now();
      const answer = await inner.bulk(...args);
      waitMs += performance.now() - t0;
      answeredAt = performance.now();
      return answer;
    },
  };
  let requests = 0;
  // The bench driver's CPU snapshots of the machine's processes around the drain itself (bench/process-cpu.ts).
  const cpuMark = (window as unknown as { benchCpuMark?: (name: string) => Promise<void> }).benchCpuMark;
  await cpuMark?.(`start ${tag}`);
  const start = performance.now();
  for (;;) {
    // drainOnce reads the outbox first: counted until the first call, then the acknowledgements.
    let phase: Record<string, number> = {};
    counting = phase;
    const readStart = performance.now();
    let firstCall = true;
    const outcome = await drainOnce({
      db,
      transport: {
        ...transport,
        bulk: (...args) => {
          if (firstCall) {
            firstCall = false;
            readMs += performance.now() - readStart;
            readRequests += sum(phase);
            counting = phase = ackRequests;
          }
          return transport.bulk(...args);
        },
      },
      maxBatch,
    });
    closeAck();
    counting = null;
    requests += outcome.requests;
    if (outcome.kind === 'done') break;
    throw new Error(`drain stopped: ${JSON.stringify(outcome)}`);
  }
  const ms = performance.now() - start;
  await cpuMark?.(`end ${tag}`);
  countRequests(false);
  const ackMs = ms - waitMs - readMs;
  const left = await db.outbox.count();
  if (left !== 0) throw new Error(`${left} edits left in the outbox`);
  db.close();
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(db.name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
  return { edits, requests, ms, waitMs, readMs, ackMs, ackRequests, readRequests, maxAckMs };
}

(window as unknown as { drainBench: unknown }).drainBench = { drain };
