/**
 * The action log's own small IndexedDB database, "Moj_travnik_qa_log" (one table, `entries`,
 * keyed by `seq`), kept as a ring buffer of `capacity` entries.
 *
 * Why a separate database rather than a table in lib/db's "Moj_travnik_0.2":
 * - adding a table there means a schema version bump, and every version bump makes other open
 *   tabs close their connection and ask for a reload (lib/db's versionchange handling) — a
 *   diagnostics feature must never do that to a farmer in the field;
 * - the offline database opens every transaction with strict durability (an edit must survive
 *   power loss); the log is written in large, frequent batches where the default relaxed
 *   durability is right — a lost last batch of diagnostics costs nothing;
 * - a full disk or a cleared log never touches the user's data, and exporting reads one database.
 * lib/db stays the only module that opens the user's data; this one holds diagnostics only.
 */
import { Dexie, type Table } from 'dexie';
import type { LogEntry, NewLogEntry } from './log-format';
import type { LogSink, WriteOptions } from './sinks';

const ACTION_LOG_DB_NAME = 'Moj_travnik_qa_log';

class ActionLogDb extends Dexie {
  entries!: Table<LogEntry, number>;

  constructor(name: string, options: { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange }) {
    super(name, options);
    // Schema history: never edit a published version; add one with an upgrade function.
    this.version(1).stores({ entries: 'seq' });
  }
}

export interface IndexedDbLogSinkOptions {
  capacity: number;
  name?: string;
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
}

export class IndexedDbLogSink implements LogSink {
  readonly capacity: number;
  private readonly db: ActionLogDb;
  /** For `putOne` (the bench's naive baseline) only. */
  private nextSeq: number | null = null;

  constructor(options: IndexedDbLogSinkOptions) {
    this.capacity = options.capacity;
    const dexieOptions: { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange } = {};
    if (options.indexedDB) dexieOptions.indexedDB = options.indexedDB;
    if (options.IDBKeyRange) dexieOptions.IDBKeyRange = options.IDBKeyRange;
    this.db = new ActionLogDb(options.name ?? ACTION_LOG_DB_NAME, dexieOptions);
  }

  /**
   * One transaction per batch: number, add, and drop what fell out of the ring. The sequence is
   * read inside the transaction every time, not kept: another tab (or the previous page load's
   * last batch) may have written since, and a kept counter would overwrite its entries.
   */
  async write(entries: NewLogEntry[], options: WriteOptions = {}): Promise<void> {
    if (entries.length === 0) return;
    await this.db.transaction('rw', this.db.entries, async () => {
      if (options.skipWritten) entries = await this.notYetStored(entries);
      if (entries.length === 0) return;
      const last = await this.db.entries.orderBy('seq').last();
      let nextSeq = (last?.seq ?? 0) + 1;
      const numbered = entries.map((entry) => ({ ...entry, seq: nextSeq++ }) as LogEntry);
      await this.db.entries.bulkAdd(numbered);
      await this.db.entries
        .where('seq')
        .below(nextSeq - this.capacity)
        .delete();
    });
  }

  /** Entries whose page load (`sid`) has not stored their number (`n`) yet; each page writes in order. */
  private async notYetStored(entries: NewLogEntry[]): Promise<NewLogEntry[]> {
    const highest = new Map<string, number>();
    for (const sid of new Set(entries.flatMap((entry) => (entry.sid && entry.n ? [entry.sid] : [])))) {
      // The page's latest entry: near the end of the ring, found walking back from it.
      const latest = await this.db.entries
        .orderBy('seq')
        .reverse()
        .filter((entry) => entry.sid === sid)
        .first();
      highest.set(sid, latest?.n ?? 0);
    }
    return entries.filter((entry) => !(entry.sid && entry.n && entry.n <= (highest.get(entry.sid) ?? 0)));
  }

  async readAll(): Promise<LogEntry[]> {
    return this.db.entries.orderBy('seq').toArray();
  }

  async clear(): Promise<void> {
    await this.db.entries.clear();
  }

  close(): void {
    this.db.close();
  }

  /** The naive way the bench compares against: one put (one transaction) per entry. */
  async putOne(entry: NewLogEntry): Promise<void> {
    if (this.nextSeq === null) {
      const last = await this.db.entries.orderBy('seq').last();
      this.nextSeq = this.nextSeq ?? (last?.seq ?? 0) + 1;
    }
    await this.db.entries.put({ ...entry, seq: this.nextSeq++ } as LogEntry);
  }
}
