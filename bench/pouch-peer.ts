/**
 * The peer the sync figures are compared with: a CouchDB-protocol server (express-pouchdb over an
 * in-memory PouchDB) on an ephemeral loopback port, which also serves the page that replicates to
 * it from Chromium (bench/browser/pouch-peer-entry.ts), so the replication is same-origin like
 * the app's own calls.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import expressPouchDB from 'express-pouchdb';
import PouchDB from 'pouchdb-core';
import http_ from 'pouchdb-adapter-http';
import mapreduce from 'pouchdb-mapreduce';
import memory from 'pouchdb-adapter-memory';
import replication from 'pouchdb-replication';

export interface PouchPeer {
  origin: string;
  /** Documents the server holds in database `name`. */
  docCount(name: string): Promise<number>;
  close(): Promise<void>;
}

/** Starts the peer; `bundleDir` holds pouch.js (the built page script). */
export async function startPouchPeer(bundleDir: string, logDir: string): Promise<PouchPeer> {
  const MemoryPouch = PouchDB.plugin(memory).plugin(http_).plugin(replication).plugin(mapreduce).defaults({ adapter: 'memory' });
  const couch = expressPouchDB(MemoryPouch, { mode: 'minimumForPouchDB', inMemoryConfig: true, logPath: path.join(logDir, 'pouch.log') });
  const server = http.createServer((request, response) => {
    if (request.url === '/bench/pouch.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(readFileSync(path.join(bundleDir, 'pouch.js')));
    } else if (request.url === '/bench/pouch') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><meta charset="utf-8"><script src="/bench/pouch.js"></script>');
    } else {
      couch(request, response);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    docCount: async (name) => ((await (await fetch(`http://127.0.0.1:${port}/${name}`)).json()) as { doc_count: number }).doc_count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
