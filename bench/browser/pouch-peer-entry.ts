/**
 * Runs in Chromium (bench/pouch-peer.ts builds it in production mode and serves it from the
 * express-pouchdb server): PouchDB on Chromium's IndexedDB (the idb adapter of pouchdb-browser)
 * replicating documents to the server this page came from — the peer the sync figures are
 * compared with. Writing the documents locally is not measured, the replication is.
 */
import PouchDB from 'pouchdb-browser';

/** Documents shaped like the drained edits: a form or an indicator with its parent and values. */
function docs(count: number): object[] {
  return Array.from({ length: count }, (_, i) => ({
    _id: `doc-${String(i).padStart(6, '0')}`,
    table: i % 25 === 0 ? 'forms' : 'indicators',
    parent: `doc-${String(i - (i % 25)).padStart(6, '0')}`,
    key: `k${i % 20}`,
    value: i % 2 === 0,
    note: `opomba ${i}`,
  }));
}

async function replicate(count: number, remote: string): Promise<{ ms: number; written: number; adapter: string }> {
  const local = new PouchDB(`bench-pouch-${Date.now()}`);
  await local.bulkDocs(docs(count));
  const { adapter } = await local.info();
  const start = performance.now();
  const result = await local.replicate.to(new URL(remote, location.href).href);
  const ms = performance.now() - start;
  await local.destroy();
  return { ms, written: result.docs_written, adapter };
}

(window as unknown as { pouchBench: unknown }).pouchBench = { replicate };
