/**
 * Shared set-up for the data-layer tests: a config with the seven tables, a store over a named
 * IndexedDB (fake-indexeddb), and an in-memory stand-in of the bulk endpoint with per-operation
 * opId dedup — used where a test is about the client's queue, not about the server (the real
 * server is used in outbox-real-server.test.ts).
 */
import type { AppConfig } from '../../../src/common/schemas/config';
import type { BulkBody, BulkOperation, BulkResultItem, WireRecord } from '../../../src/common/schemas/wire';
import { makeStore } from '../../../src/client/app/store';
import { openOfflineDb, type OfflineDb } from '../../../src/client/lib/db';
import type { AppExtra } from '../../../src/client/app/store-types';
import { syncStopped } from '../../../src/client/features/sync';

export const PROJECT_ID = 1;

/** Table ids 1..8; column ids are tableId * 10 + position. */
export const testConfig: AppConfig = {
  version: 'test',
  projectId: PROJECT_ID,
  searchProfileId: 1,
  tables: {
    farmers: { id: 1, columns: { name: 11, email: 12, phone: 13, kmg_mid: 14 } },
    areas: { id: 2, columns: { name: 21, user: 22, gerk_pid: 23, area_ha: 24 } },
    paths: { id: 3, columns: { name: 31, parent: 32, length_m: 33, walk: 34 } },
    durations: { id: 4, columns: { name: 41, filter_start: 42, filter_end: 43, submit_until: 44, review_until: 45, appeal_days: 46 } },
    durationPaths: { id: 5, columns: { duration_id: 51, path_id: 52 } },
    forms: {
      id: 6,
      columns: {
        parent: 61,
        form_id: 62,
        score: 63,
        rule_version: 64,
        note: 65,
        completed: 66,
        review_state: 67,
        review_reason: 68,
        review_indicator: 69,
        reviewed_by: 601,
        reviewed_at: 602,
        return_until: 603,
      },
    },
    indicators: { id: 7, columns: { parent: 71, key: 72, value: 73, note: 74 }, attachments: { photos: 700 } },
    comments: { id: 8, columns: { parent: 81, text: 82, indicator: 83, state: 84, author: 85 } },
  },
  forms: {},
  basemaps: [],
  auth: { mode: 'none' },
};

let dbCounter = 0;
export function uniqueDbName(prefix = 'test'): string {
  dbCounter += 1;
  return `${prefix}-${Date.now()}-${dbCounter}-${Math.random().toString(36).slice(2)}`;
}

export interface MockResponseInit {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A minimal fetch Response (jsdom has no fetch API). */
export function response({ status = 200, body, headers = {} }: MockResponseInit = {}): Response {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const named = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: { get: (name: string) => named.get(name.toLowerCase()) ?? null },
    text: async () => text,
    json: async () => JSON.parse(text),
    blob: async () => new Blob([text]),
  } as unknown as Response;
}

const liveStores: Array<ReturnType<typeof makeStore>> = [];

export function makeTestStore(db: OfflineDb, fetchFn: typeof fetch, extra: Partial<AppExtra> = {}, baseUrl = 'http://server.test') {
  const store = makeStore(undefined, {
    extra: { db, api: { baseUrl, fetchFn }, random: () => 0.5, ...extra },
  });
  liveStores.push(store);
  return store;
}

/** Stops sync in every store made by the test and waits until no drain runs (afterEach). */
export async function settleStores(): Promise<void> {
  const stores = liveStores.splice(0);
  for (const store of stores) store.dispatch(syncStopped());
  await until(() => stores.every((store) => !store.getState().sync.draining), 'drains settled');
  await new Promise((resolve) => setTimeout(resolve, 50));
}

export function openTestDb(name = uniqueDbName()): OfflineDb {
  return openOfflineDb({ name });
}

/** Waits until `predicate` holds, polling on the event loop (no timing assertions: it just waits). */
export async function until(predicate: () => boolean | Promise<boolean>, label = 'condition', tries = 2000): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${label}`);
}

/**
 * In-memory stand-in of POST …/bulk: applies each operation once per opId (docs/architecture.md, Sync rules), returns
 * 'applied' or 'duplicate'; server ids from 10,000,000. `fail` can inject answers per call.
 */
/**
 * Reference columns (property keys) per table id of the outbox tests' tables: durationPaths 5,
 * forms 6, indicators 7. Like the real server, the fake resolves offline ids only in these.
 */
const FAKE_REFERENCE_COLUMNS: Readonly<Record<number, readonly string[]>> = { 5: ['51', '52'], 6: ['61'], 7: ['71'] };

export class FakeBulkServer {
  constructor(private readonly references: Readonly<Record<number, readonly string[]>> = FAKE_REFERENCE_COLUMNS) {}

  rows = new Map<number, WireRecord>();
  applied = new Map<string, BulkResultItem>();
  calls: BulkOperation[][] = [];
  nextId = 10_000_000;
  /** Returns a Response to send instead of handling the call, or 'drop-after-commit'. */
  fail: ((call: number, ops: BulkOperation[]) => Response | 'drop-after-commit' | undefined) | undefined;

  fetch: typeof fetch = async (input, init) => {
    const url = String(input);
    if (url.endsWith('/api/Test')) return response({ body: 'ok' });
    if (!url.includes('/bulk')) return response({ status: 404, body: { status: 404, message: 'Not Found' } });
    const body = JSON.parse(String(init?.body)) as BulkBody;
    this.calls.push(body.operations);
    const injected = this.fail?.(this.calls.length, body.operations);
    if (injected && injected !== 'drop-after-commit') return injected;
    this.callIds = new Map();
    let results: BulkResultItem[];
    try {
      results = body.operations.map((op) => this.apply(op));
    } catch (error) {
      const answer = (error as { response?: Response }).response;
      if (answer) return answer;
      throw error;
    }
    if (injected === 'drop-after-commit') throw new TypeError('Failed to fetch');
    return response({ body: { results } });
  };

  /** Local ids of inserts earlier in the same call (the real server resolves them the same way). */
  private callIds = new Map<number, number>();

  private resolve(value: unknown): unknown {
    return typeof value === 'number' && value < 10_000_000 && this.callIds.has(value) ? this.callIds.get(value) : value;
  }

  private apply(op: BulkOperation): BulkResultItem {
    const seen = this.applied.get(op.opId);
    if (seen) {
      if (seen.localId !== undefined) this.callIds.set(seen.localId, seen.id);
      return { ...seen, status: 'duplicate' };
    }
    if ('properties' in op) {
      const refs = this.references[op.tableId] ?? [];
      op.properties = Object.fromEntries(Object.entries(op.properties).map(([k, v]) => [k, refs.includes(k) ? this.resolve(v) : v]));
    }
    if ('id' in op) op.id = this.resolve(op.id) as number;
    const now = new Date().toISOString();
    let item: BulkResultItem;
    if (op.kind === 'insert') {
      const record: WireRecord = {
        id: this.nextId++,
        tableId: op.tableId,
        properties: op.properties,
        deleted: false,
        archived: false,
        createdAt: now,
        updatedAt: now,
        version: 1,
      };
      this.rows.set(record.id, record);
      item = { opId: op.opId, status: 'applied', id: record.id, record };
      if (op.localId !== undefined) {
        item.localId = op.localId;
        this.callIds.set(op.localId, record.id);
      }
    } else {
      const row = this.rows.get(op.id);
      if (!row) return this.notFound(op);
      if (op.kind === 'update') Object.assign(row, { properties: { ...row.properties, ...op.properties }, version: row.version + 1 });
      if (op.kind === 'delete') row.deleted = true;
      if (op.kind === 'archive') row.archived = true;
      item = { opId: op.opId, status: 'applied', id: op.id, record: { ...row } };
    }
    this.applied.set(op.opId, item);
    return item;
  }

  private notFound(op: BulkOperation): never {
    throw Object.assign(new Error('not found'), { response: response({ status: 404, body: { status: 404, message: 'Not Found', opId: op.opId } }) });
  }
}
