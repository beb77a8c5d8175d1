/**
 * Browser entry of the chaos run, injected into the app's page (every document of the context):
 * lib/db's own outbox API on the page's IndexedDB, next to the app. Edits saved here are what a
 * screen's save does (saveEdit: the local row and the queued operation in one transaction; other
 * handles — the app's — hear of it through the outbox's BroadcastChannel). `dump` reads the device
 * copy the checks compare with the server.
 */
import { openOfflineDb, readOutbox, saveEdit, type LocalEdit, type OfflineDb } from '../../../src/client/lib/db';

export interface DeviceDump {
  outbox: number;
  outboxPending: number;
  /** The queued operations in order (what the drain will send). */
  outboxKinds: Array<{ kind: string; api: string; status: string; error?: string }>;
  features: Array<{
    tableId: number;
    featureId: number;
    isInsert: number;
    isEdit: number;
    isDelete: number;
    feature: { id: number; properties: Record<string, unknown>; geometry?: unknown; deleted: boolean; version: number };
  }>;
  attachments: Array<{ id: number; tableId: number; featureId: number; name: string; isInsert: number; isDelete: number }>;
}

/** An edit as Node sends it: a photo's bytes as base64 (structured clone cannot carry an ArrayBuffer in). */
export type ChaosEdit = LocalEdit | (Omit<Extract<LocalEdit, { kind: 'attachment' }>, 'data'> & { base64: string });

export interface ChaosOutbox {
  save(edits: ChaosEdit[]): Promise<number[]>;
  dump(tableIds: number[]): Promise<DeviceDump>;
  /** Resolves once no pending operation is left (checked every 100 ms); rejects after `timeoutMs`. */
  drained(timeoutMs: number): Promise<void>;
}

let db: OfflineDb | null = null;
const handle = () => (db ??= openOfflineDb());

function fromBase64(base64: string): ArrayBuffer {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

const chaosOutbox: ChaosOutbox = {
  async save(edits) {
    const ids: number[] = [];
    for (const edit of edits) {
      const local: LocalEdit = 'base64' in edit ? { ...edit, data: fromBase64(edit.base64) } : edit;
      if ('base64' in local) delete (local as { base64?: string }).base64;
      ids.push((await saveEdit(handle(), local)).id);
    }
    return ids;
  },
  async dump(tableIds) {
    const d = handle();
    const [outbox, features, attachments] = await Promise.all([readOutbox(d), d.features.where('tableId').anyOf(tableIds).toArray(), d.attachments.toArray()]);
    return {
      outbox: outbox.length,
      outboxPending: outbox.filter((item) => item.status === 'pending').length,
      outboxKinds: outbox.map((item) => ({
        kind: item.kind,
        api: item.api,
        status: item.status,
        ...(item.error ? { error: `${item.error.status} ${item.error.detail ?? item.error.message}` } : {}),
      })),
      features: features.map((row) => ({
        tableId: row.tableId,
        // The row's current id (a delivered row keeps its offline id as its device key).
        featureId: row.feature.id,
        isInsert: row.isInsert,
        isEdit: row.isEdit,
        isDelete: row.isDelete,
        feature: {
          id: row.feature.id,
          properties: row.feature.properties,
          geometry: row.feature.geometry,
          deleted: row.feature.deleted,
          version: row.feature.version,
        },
      })),
      attachments: attachments.map((row) => ({
        id: row.id,
        tableId: row.tableId,
        featureId: row.featureId,
        name: row.name,
        isInsert: row.isInsert,
        isDelete: row.isDelete,
      })),
    };
  },
  async drained(timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const pending = await handle().outbox.where('status').equals('pending').count();
      if (pending === 0) return;
      if (Date.now() > deadline) {
        // What holds the queue up (a pending item waits behind a failed or conflicting one of its row).
        const left = (await readOutbox(handle())).map((item) => ({
          seq: item.seq,
          kind: item.kind,
          tableId: item.tableId,
          id: item.id,
          version: item.version,
          status: item.status,
          ...(item.error ? { error: `${item.error.status} ${item.error.detail ?? item.error.message}` } : {}),
        }));
        throw new Error(`${pending} operations still pending after ${timeoutMs} ms: ${JSON.stringify(left)}`);
      }
      // The page-side form of the harness's waitForCheck: the condition (nothing pending) is
      // read again every 100 ms until it holds or the deadline passes; no step waits for time.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  },
};

(window as unknown as { chaosOutbox: ChaosOutbox }).chaosOutbox = chaosOutbox;
