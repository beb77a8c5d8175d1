/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * A page that goes away (reload) cannot finish an IndexedDB write started in pagehide, so the
 * recorder stashes what it has not written yet in localStorage, synchronously, and the next page
 * load writes it first: the last actions before a reload (the farmer's edits before the offline
 * reload of scenario 1) stay in the log, once, and the log replays across the reload.
 */
import { describe, expect, it } from '@jest/globals';
import { configureStore, createSlice } from '@reduxjs/toolkit';
import {
  ActionLogRecorder,
  actionLogMiddleware,
  IndexedDbLogSink,
  replayActionLog,
  UNWRITTEN_STASH_KEY,
  withActionLogHandler,
  type LogSink,
  type StashStorage,
  type WriteOptions,
} from '../../../src/client/features/qa';
import type { NewLogEntry } from '../../../src/client/features/qa/log-format';

let counter = 0;
const dbName = () => `qa-stash-${Date.now()}-${++counter}`;

const slice = createSlice({
  name: 'notes',
  initialState: { count: 0, photos: 0 },
  reducers: {
    added: (state) => {
      state.count += 1;
    },
    photoAdded: {
      reducer: (state) => {
        state.photos += 1;
      },
      prepare: (photo: Blob) => ({ payload: undefined, meta: { photo } }),
    },
    /** As a form's save carries its edits: a thunk's argument, a photo in the last of many. */
    formSaved: {
      reducer: (state) => {
        state.count += 1;
      },
      prepare: (edits: Array<{ kind: string; data?: Blob }>) => ({ payload: undefined, meta: { arg: { edits } } }),
    },
  },
});

const makeStore = () =>
  configureStore({ reducer: { notes: slice.reducer }, middleware: (getDefault) => getDefault({ serializableCheck: false }).concat(actionLogMiddleware({})) });

function memoryStorage(): StashStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (key) => data.get(key) ?? null, setItem: (key, value) => void data.set(key, value), removeItem: (key) => void data.delete(key) };
}

/** A page load: a recorder over the device's log database, and the app's store. */
function pageLoad(name: string, storage: StashStorage) {
  const sink = new IndexedDbLogSink({ capacity: 1000, name });
  const recorder = new ActionLogRecorder({ sink, flushDelayMs: 60_000 });
  recorder.restoreStash(storage);
  return { sink, recorder, store: withActionLogHandler(recorder, makeStore) };
}

describe('entries not yet written when the page goes away', () => {
  it('are stashed at pagehide and written first by the next page load; the log replays across the reload', async () => {
    const name = dbName();
    const storage = memoryStorage();
    const first = pageLoad(name, storage);
    for (let i = 0; i < 3; i++) first.store.dispatch(slice.actions.added());
    await first.recorder.flush();
    // The last edits, a photo among them, then the reload comes before the next batch.
    first.store.dispatch(slice.actions.added());
    first.store.dispatch(slice.actions.photoAdded(new Blob([new Uint8Array([1, 2, 3, 4])], { type: 'image/jpeg' })));
    await new Promise((resolve) => setTimeout(resolve, 50)); // the photo is read in the background
    expect(first.recorder.stashUnwritten(storage)).toBe(2);
    expect(await first.sink.readAll()).toHaveLength(4);
    expect(JSON.parse(storage.data.get(UNWRITTEN_STASH_KEY)!)).toHaveLength(2);
    first.sink.close();

    const second = pageLoad(name, storage);
    expect(storage.data.has(UNWRITTEN_STASH_KEY)).toBe(false);
    second.store.dispatch(slice.actions.added());
    await second.recorder.flush();
    const entries = await second.sink.readAll();
    const summary = entries.map((entry) =>
      entry.kind === 'action'
        ? `${entry.sid === first.recorder.sid ? 'A' : 'B'}:${entry.type}`
        : `${entry.sid === first.recorder.sid ? 'A' : 'B'}:${entry.kind}`,
    );
    expect(summary).toEqual([
      'A:session',
      'A:notes/added',
      'A:notes/added',
      'A:notes/added',
      'A:notes/added',
      'A:notes/photoAdded',
      'B:session',
      'B:notes/added',
    ]);
    // The photo as a descriptor: size, type and the hash read when the action was logged.
    expect(JSON.stringify(entries[5])).toContain(
      '"$binary":"blob","size":4,"mimeType":"image/jpeg","sha256":"9f64a747e1b97f131fabb6b447296c9b6f0201e79fb3c5356e6c77e89b6a806a"',
    );

    const replayed = await replayActionLog({ entries }, { createStore: makeStore });
    expect(replayed.sessions).toBe(2);
    expect(replayed.divergence).toBeNull();
    expect(replayed.finalState).toEqual({ notes: { count: 1, photos: 0 } });
    second.sink.close();
  });

  it("hash the photo of a whole form's save, the last of its edits, when the action is logged", async () => {
    const name = dbName();
    const storage = memoryStorage();
    const page = pageLoad(name, storage);
    const edits = [
      ...Array.from({ length: 25 }, () => ({ kind: 'update' })),
      { kind: 'attachment', data: new Blob([new Uint8Array([1, 2, 3, 4])], { type: 'image/jpeg' }) },
    ];
    page.store.dispatch(slice.actions.formSaved(edits));
    await new Promise((resolve) => setTimeout(resolve, 50)); // the photo is read in the background
    expect(page.recorder.stashUnwritten(storage)).toBe(2);
    expect(storage.data.get(UNWRITTEN_STASH_KEY)).toContain(
      '"$binary":"blob","size":4,"mimeType":"image/jpeg","sha256":"9f64a747e1b97f131fabb6b447296c9b6f0201e79fb3c5356e6c77e89b6a806a"',
    );
    page.sink.close();
  });

  it('keeps an exchange answered just before the page goes away, its body not read yet, once', async () => {
    const name = dbName();
    const storage = memoryStorage();
    const first = pageLoad(name, storage);
    first.store.dispatch(slice.actions.added());
    // A refused request whose answer's body has not arrived when the page goes away (a sign-in's redirect).
    let sendBody!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        sendBody = () => {
          controller.enqueue(new TextEncoder().encode('{"status":401,"message":"Prijava je potekla."}'));
          controller.close();
        };
      },
    });
    const fetchFn = first.recorder.wrapFetch(async () => new Response(body, { status: 401, headers: { 'content-type': 'application/json' } }));
    const answer = await fetchFn('/api/Records/1/search', { method: 'POST', body: '{}' });
    expect(answer.status).toBe(401);
    first.recorder.stashUnwritten(storage);
    const stashed = JSON.parse(storage.data.get(UNWRITTEN_STASH_KEY)!) as NewLogEntry[];
    expect(stashed.filter((entry) => entry.kind === 'net')).toEqual([expect.objectContaining({ method: 'POST', url: '/api/Records/1/search', status: 401 })]);
    // The body still arrives (a page kept in the back/forward cache): the exchange is not logged again.
    sendBody();
    await answer.text();
    // The recorder's read of its copy was queued beside the page's and has run once the queue is empty.
    await new Promise((resolve) => setImmediate(resolve));
    await first.recorder.flush();
    first.sink.close();

    const second = pageLoad(name, storage);
    await second.recorder.flush();
    const entries = await second.sink.readAll();
    expect(entries.filter((entry) => entry.kind === 'net')).toEqual([expect.objectContaining({ sid: first.recorder.sid, status: 401 })]);
    // The first page's entries as stashed, in order: logged again, the exchange would have reached
    // the sink under a later number, and the sink would have skipped the stash as written before.
    expect(entries.filter((entry) => entry.sid === first.recorder.sid).map((entry) => entry.kind)).toEqual(['session', 'action', 'net']);
    second.sink.close();
  });

  /** The page goes away while its last batch is being written; the write then commits or is cut off. */
  it.each([
    ['commits after all', true],
    ['is cut off', false],
  ])('a write under way at pagehide that %s: every entry once', async (_label, commits) => {
    const name = dbName();
    const storage = memoryStorage();
    const db = new IndexedDbLogSink({ capacity: 1000, name });
    let writeStarted!: () => void;
    const started = new Promise<void>((resolve) => (writeStarted = resolve));
    let finishWrite!: () => void;
    const held = new Promise<void>((resolve) => (finishWrite = resolve));
    const slow: LogSink = {
      capacity: 1000,
      write: async (entries: NewLogEntry[], options?: WriteOptions) => {
        writeStarted();
        await held;
        if (!commits) throw new Error('AbortError: the document went away');
        return db.write(entries, options);
      },
      readAll: () => db.readAll(),
      clear: () => db.clear(),
    };
    const recorder = new ActionLogRecorder({ sink: slow, flushDelayMs: 60_000 });
    const store = withActionLogHandler(recorder, makeStore);
    store.dispatch(slice.actions.added());
    store.dispatch(slice.actions.added());
    const flushing = recorder.flush();
    await started;
    store.dispatch(slice.actions.added()); // after the batch: still pending
    expect(recorder.stashUnwritten(storage)).toBe(4); // the batch under way (session + 2) and the pending one
    finishWrite();
    await flushing;

    const next = pageLoad(name, storage);
    await next.recorder.flush();
    const mine = (await next.sink.readAll()).filter((entry) => entry.sid === recorder.sid);
    expect(mine.map((entry) => [entry.n, entry.kind === 'action' ? entry.type : entry.kind])).toEqual([
      [1, 'session'],
      [2, 'notes/added'],
      [3, 'notes/added'],
      [4, 'notes/added'],
    ]);
    db.close();
    next.sink.close();
  });

  it('a batch caught mid-write is stashed or written, never both nor neither', async () => {
    for (let round = 0; round < 4; round++) {
      const name = dbName();
      const storage = memoryStorage();
      const first = pageLoad(name, storage);
      first.store.dispatch(slice.actions.added());
      first.store.dispatch(slice.actions.photoAdded(new Blob([new Uint8Array(64 * 1024)])));
      first.store.dispatch(slice.actions.added());
      const flushing = first.recorder.flush();
      // The page goes away at a different moment of the flush each round.
      for (let i = 0; i < round; i++) await Promise.resolve();
      first.recorder.stashUnwritten(storage);
      await flushing;
      first.sink.close();
      const second = pageLoad(name, storage);
      await second.recorder.flush();
      const entries = await second.sink.readAll();
      expect(entries.filter((entry) => entry.sid === first.recorder.sid).map((entry) => (entry.kind === 'action' ? entry.type : entry.kind))).toEqual([
        'session',
        'notes/added',
        'notes/photoAdded',
        'notes/added',
      ]);
      second.sink.close();
    }
  });
});
