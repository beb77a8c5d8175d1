/**
 * Persists a walk recording as it happens, so an interrupted recording is offered for
 * resumption after a reload or crash. The recorder's events (start, every fix, pause, resume,
 * page hidden) are appended to the offline database's `meta` store in chunks of CHUNK_SIZE under
 * `walk:chunk:<n>`, with a header under `walk:active`; each append rewrites only the last chunk,
 * so a long walk costs O(1) per fix. After a reload `loadWalk` returns the header and the events,
 * and track-recorder's `replay` rebuilds the exact state. One recording at a time per device.
 *
 * Using lib/db's `meta` store (with its strict durability and quota reporting) avoids a schema
 * change of the shared database for what is a single transient recording.
 */
import { guardWrite, type OfflineDb } from '../../../lib/db/database';
import type { RecorderEvent, RecorderOptions } from './track-recorder';

const WALK_HEADER_KEY = 'walk:active';
export const CHUNK_SIZE = 50;
const chunkKey = (n: number) => `walk:chunk:${n}`;

export interface WalkHeader {
  pathId: number;
  pathName?: string;
  /** The address of the screen the walk was started on (where it is finished); older logs lack it. */
  returnTo?: string;
  startedAt: number;
  options: Partial<RecorderOptions>;
  chunks: number;
}

export class WalkLog {
  private chunk: RecorderEvent[] = [];
  private chunkIndex = 0;
  private header: WalkHeader | null = null;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly db: OfflineDb) {}

  /** Start a new log (replacing any old one). */
  async begin(header: Omit<WalkHeader, 'chunks'>): Promise<void> {
    await clearWalk(this.db);
    this.header = { ...header, chunks: 1 };
    this.chunk = [];
    this.chunkIndex = 0;
    await guardWrite(this.db, () => this.db.meta.put({ key: WALK_HEADER_KEY, value: this.header }));
  }

  /** Continue a log loaded by loadWalk (after a reload). */
  adopt(loaded: { header: WalkHeader; lastChunk: RecorderEvent[] }): void {
    this.header = loaded.header;
    this.chunkIndex = loaded.header.chunks - 1;
    this.chunk = loaded.lastChunk.slice();
  }

  /** Append an event; writes are serialised so chunks never race. Resolves once stored. */
  append(event: RecorderEvent): Promise<void> {
    this.queue = this.queue.then(() => this.write(event));
    return this.queue;
  }

  private async write(event: RecorderEvent): Promise<void> {
    if (!this.header) throw new Error('walk log not started');
    if (this.chunk.length >= CHUNK_SIZE) {
      this.chunkIndex += 1;
      this.chunk = [];
      this.header = { ...this.header, chunks: this.chunkIndex + 1 };
    }
    this.chunk.push(event);
    const header = this.header;
    const chunk = this.chunk.slice();
    const index = this.chunkIndex;
    await guardWrite(this.db, () =>
      this.db.transaction('rw', this.db.meta, async () => {
        await this.db.meta.put({ key: chunkKey(index), value: chunk });
        await this.db.meta.put({ key: WALK_HEADER_KEY, value: header });
      }),
    );
  }

  flush(): Promise<void> {
    return this.queue;
  }
}

export interface LoadedWalk {
  header: WalkHeader;
  events: RecorderEvent[];
  lastChunk: RecorderEvent[];
}

export async function loadWalk(db: OfflineDb): Promise<LoadedWalk | null> {
  const header = (await db.meta.get(WALK_HEADER_KEY))?.value as WalkHeader | undefined;
  if (!header) return null;
  const rows = await db.meta.bulkGet(Array.from({ length: header.chunks }, (_, i) => chunkKey(i)));
  const chunks = rows.map((row) => (row?.value as RecorderEvent[] | undefined) ?? []);
  return { header, events: chunks.flat(), lastChunk: chunks[chunks.length - 1] ?? [] };
}

export async function clearWalk(db: OfflineDb): Promise<void> {
  const keys = (await db.meta.where('key').startsWith('walk:').primaryKeys()) as string[];
  if (keys.length) await guardWrite(db, () => db.meta.bulkDelete(keys));
}
