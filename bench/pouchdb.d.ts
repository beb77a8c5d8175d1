/** The few parts of PouchDB and express-pouchdb the peer bench (bench/pouch-peer.ts) uses; the packages ship no types. */
declare module 'pouchdb-browser' {
  interface ReplicationResult {
    ok: boolean;
    docs_written: number;
  }
  export default class PouchDB {
    constructor(name: string, options?: { adapter?: string });
    bulkDocs(docs: object[]): Promise<unknown[]>;
    info(): Promise<{ doc_count: number; adapter: string }>;
    destroy(): Promise<void>;
    replicate: { to(target: string, options?: { batch_size?: number }): Promise<ReplicationResult> };
  }
}

declare module 'pouchdb-core' {
  interface PouchStatic {
    plugin(plugin: unknown): PouchStatic;
    defaults(options: { adapter?: string }): PouchStatic;
  }
  const PouchDB: PouchStatic;
  export default PouchDB;
}

declare module 'pouchdb-adapter-memory';
declare module 'pouchdb-adapter-http';
declare module 'pouchdb-replication';
declare module 'pouchdb-mapreduce';

declare module 'express-pouchdb' {
  import type { RequestListener } from 'node:http';
  export default function expressPouchDB(
    PouchDB: unknown,
    options?: { mode?: 'fullCouchDB' | 'minimumForPouchDB' | 'custom'; inMemoryConfig?: boolean; logPath?: string },
  ): RequestListener & {
    couchConfig?: unknown;
  };
}
