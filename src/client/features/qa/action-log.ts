/**
 * The recorder behind the action-log middleware.
 *
 * On the dispatch path it does only what must happen then: note the action, the time and the
 * state the reducers left (a reference: Redux states are immutable). The state's hash (cached per
 * object, so only the changed path is hashed), redaction, blob hashing and the IndexedDB write
 * happen later in batches (every FLUSH_DELAY_MS, or at once when
 * BATCH_SIZE entries wait), in chunks that yield to the event loop, so logging never holds up
 * a tap. bench/qa.ts measures this against one put per action.
 *
 * Actions are logged as the reducers see them: the middleware sits last in the chain, so thunks
 * (functions) never reach it and every logged action is exactly one reducer call.
 *
 * A page that goes away (reload, the update's reload, closing the tab) cannot finish an
 * IndexedDB write it starts in `pagehide`: the entries not yet written would be lost — exactly
 * the last edits before a reload. `stashUnwritten` keeps them synchronously in localStorage
 * instead — the batch whose write is under way too, as it may be cut off — and the next page
 * load's recorder writes them first (`restoreStash`); the sink skips the entries (by `sid` and
 * `n`) that did reach it. A Blob whose hash was not read yet keeps its size and type only.
 */
import { redact, fillBlobHashes, hashBlobSoon, isBlob, shallowBlobs, type PendingBlob } from './redact';
import { whenIdle } from '../../lib/idle';
import { StateHasher } from './state-hash';
import { DEFAULT_CHECKPOINT_EVERY, type NewLogEntry, type NetEntry } from './log-format';
import type { LogSink } from './sinks';

const FLUSH_DELAY_MS = 1000;
/** How long a due batch waits for the page to be idle before it is written regardless. */
const IDLE_WAIT_MS = 5000;
const BATCH_SIZE = 500;
/** localStorage key of the entries a page could not write before it went away. */
export const UNWRITTEN_STASH_KEY = 'qa.actionLog.unwritten';

/** The synchronous storage the stash uses (localStorage in the app). */
export type StashStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** What the middleware hands every action to (a recorder, or the replay gate). */
export interface ActionLogHandler {
  handle(action: unknown, next: (action: unknown) => unknown, getState: () => unknown): unknown;
}

/** An exchange with the server, logged once its answer's body is read. */
type NetPending = { kind: 'net'; entry: Omit<NetEntry, 'seq'>; raw: { request?: unknown; response?: unknown } };

/** Noted on the dispatch path; the hash of `state` is taken when the batch is written. */
type Pending =
  | { kind: 'session'; t: number; state: unknown; appVersion?: string }
  | { kind: 'checkpoint'; t: number; state: unknown }
  | { kind: 'action'; t: number; action: { type: string }; state: unknown }
  | NetPending
  /** Already redacted (an earlier page load's stash). */
  | { kind: 'entry'; entry: NewLogEntry };

export interface ActionLogRecorderOptions {
  sink: LogSink;
  now?: () => number;
  appVersion?: string;
  checkpointEvery?: number;
  flushDelayMs?: number;
  batchSize?: number;
}

function isPlainAction(action: unknown): action is { type: string } {
  return typeof action === 'object' && action !== null && typeof (action as { type?: unknown }).type === 'string';
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export class ActionLogRecorder implements ActionLogHandler {
  readonly sink: LogSink;
  private readonly hasher = new StateHasher();
  private readonly now: () => number;
  private readonly checkpointEvery: number;
  private readonly flushDelayMs: number;
  private readonly batchSize: number;
  private readonly appVersion: string | undefined;
  private pending: Pending[] = [];
  /** Exchanges answered whose body is still being read (in the order they were answered). */
  private readonly answered = new Set<NetPending>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private started = false;
  /** A flush at the next turn is scheduled (a batch is full). */
  private urgent = false;
  /** The batch being prepared (blob hashes) and not yet handed to the sink. */
  private preparing: NewLogEntry[] | null = null;
  /** The batch handed to the sink and not confirmed yet. */
  private writing: NewLogEntry[] | null = null;
  /** Entries numbered so far (`n`). */
  private numbered = 0;
  private actionsSinceCheckpoint = 0;
  /**
   * The actions being dispatched, outermost first: more than one while a store subscriber (which
   * Redux calls after the reducer, before the dispatch returns) dispatches another action.
   */
  private readonly dispatching: Array<{ action: unknown; logged: boolean }> = [];
  /** Entries the sink failed to take (storage full…); the app keeps working regardless. */
  droppedEntries = 0;
  /** This page load's id, on every entry it writes (log-format.ts `sid`). */
  readonly sid: string;

  constructor(options: ActionLogRecorderOptions) {
    this.sink = options.sink;
    this.now = options.now ?? (() => Date.now());
    this.checkpointEvery = options.checkpointEvery ?? DEFAULT_CHECKPOINT_EVERY;
    this.flushDelayMs = options.flushDelayMs ?? FLUSH_DELAY_MS;
    this.batchSize = options.batchSize ?? BATCH_SIZE;
    this.appVersion = options.appVersion;
    this.sid = `${this.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  }

  handle(action: unknown, next: (action: unknown) => unknown, getState: () => unknown): unknown {
    if (!this.started) this.startSession(getState());
    // Dispatched from inside another dispatch: that one's reducer has run (this middleware is the
    // last before the reducer), so its entry goes first, with the state it left — as a replay,
    // which dispatches the log's actions one after the other, will reach it.
    const outer = this.dispatching.at(-1);
    if (outer && !outer.logged) this.logAction(outer, getState());
    const current = { action, logged: false };
    this.dispatching.push(current);
    try {
      const result = next(action);
      if (!current.logged) this.logAction(current, getState());
      return result;
    } finally {
      this.dispatching.pop();
    }
  }

  private logAction(dispatched: { action: unknown; logged: boolean }, state: unknown): void {
    dispatched.logged = true;
    const { action } = dispatched;
    if (!isPlainAction(action)) return;
    this.push({ kind: 'action', t: this.now(), action, state });
    // A photo in an action: its hash is read now, in case the page goes away before the batch.
    for (const blob of shallowBlobs(action)) hashBlobSoon(blob);
    if (++this.actionsSinceCheckpoint >= this.checkpointEvery) {
      this.actionsSinceCheckpoint = 0;
      this.push({ kind: 'checkpoint', t: this.now(), state });
    }
  }

  /** A store was made: note its initial state (states are immutable: the reference is enough). */
  startSession(state: unknown): void {
    this.started = true;
    const entry: Pending = { kind: 'session', t: this.now(), state };
    if (this.appVersion) entry.appVersion = this.appVersion;
    this.push(entry);
  }

  /** Wraps the api layer's fetch so each exchange is logged (what a replay answers requests with). */
  wrapFetch(inner: typeof fetch): typeof fetch {
    return async (input, init) => {
      const t = this.now();
      const method = (init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET')).toUpperCase();
      const url = pathOf(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      const raw: { request?: unknown; response?: unknown } = { request: requestBodyOf(init?.body) };
      let response: Response;
      try {
        response = await inner(input, init);
      } catch (error) {
        this.push({ kind: 'net', entry: { kind: 'net', t, method, url, status: 0, responseType: 'none', error: String(error) }, raw });
        throw error;
      }
      const entry: Omit<NetEntry, 'seq'> = { kind: 'net', t, method, url, status: response.status, responseType: 'empty' };
      const exchange: NetPending = { kind: 'net', entry, raw };
      // Read a copy, so the app's own reading of the body is untouched.
      const copy = typeof response.clone === 'function' ? response.clone() : null;
      if (copy) {
        // Answered, its body still being read: a stash taken meanwhile keeps it (stashUnwritten).
        this.answered.add(exchange);
        const logged = () => {
          if (this.answered.delete(exchange)) this.push(exchange);
        };
        void readResponse(copy).then(({ type, body }) => {
          entry.responseType = type;
          raw.response = body;
          logged();
        }, logged);
      } else {
        this.push(exchange);
      }
      return response;
    };
  }

  /** Writes everything noted so far; resolves when the sink has it. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.urgent = false;
    this.flushing = this.flushing.then(() => this.drain());
    return this.flushing;
  }

  /** The delayed flush, unless a flush or a stash has taken its place meanwhile. */
  private flushIfDue(): void {
    if (this.timer !== undefined && !this.urgent) void this.flush();
  }

  private push(entry: Pending): void {
    this.pending.push(entry);
    if (this.pending.length >= this.batchSize) {
      if (!this.urgent) {
        this.urgent = true;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.flush(), 0);
      }
    } else if (this.timer === undefined) {
      // Written when the page is idle: a batch falls due while the app starts, and hashing,
      // redacting and writing it then would compete with the first screen.
      this.timer = setTimeout(() => whenIdle(() => this.flushIfDue(), IDLE_WAIT_MS), this.flushDelayMs);
    }
  }

  /** Stashed entries keep the sid of the page load that logged them. */
  private entryOf(item: Pending, blobs: PendingBlob[]): NewLogEntry {
    return item.kind === 'entry' ? item.entry : { ...toEntry(item, blobs, this.hasher), sid: this.sid, n: ++this.numbered };
  }

  /**
   * The page is going away (pagehide): what is not in the sink yet goes to `storage` at once,
   * synchronously, for the next page load's recorder. Returns the number of entries stashed.
   */
  stashUnwritten(storage: StashStorage): number {
    clearTimeout(this.timer);
    this.timer = undefined;
    // Exchanges answered just before the page went away go too, without a body not read yet:
    // the navigation that ends the page may cut the read off, and the log would lack them (the
    // refused requests before a sign-in's redirect). Once stashed, a read that still completes
    // (the page kept in the back/forward cache) does not log them again.
    const unwritten = [...this.pending, ...this.answered];
    this.answered.clear();
    const entries = [...(this.writing ?? []), ...(this.preparing ?? []), ...unwritten.map((item) => this.entryOf(item, []))];
    // The batch being prepared is not handed to the sink any more (drain checks).
    this.preparing = null;
    this.pending = [];
    if (entries.length === 0) return 0;
    try {
      const earlier = JSON.parse(storage.getItem(UNWRITTEN_STASH_KEY) ?? '[]') as NewLogEntry[];
      storage.setItem(UNWRITTEN_STASH_KEY, JSON.stringify([...earlier, ...entries]));
    } catch {
      this.droppedEntries += entries.length;
      return 0;
    }
    return entries.length;
  }

  /** Queues an earlier page load's stash ahead of everything this recorder logs. */
  restoreStash(storage: StashStorage): number {
    let entries: NewLogEntry[] = [];
    try {
      entries = JSON.parse(storage.getItem(UNWRITTEN_STASH_KEY) ?? '[]') as NewLogEntry[];
      storage.removeItem(UNWRITTEN_STASH_KEY);
    } catch {
      return 0;
    }
    if (!Array.isArray(entries) || entries.length === 0) return 0;
    this.pending.unshift(...entries.map((entry): Pending => ({ kind: 'entry', entry })));
    this.timer ??= setTimeout(() => void this.flush(), this.flushDelayMs);
    return entries.length;
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.batchSize);
      const blobs: PendingBlob[] = [];
      const entries = batch.map((item) => this.entryOf(item, blobs));
      this.preparing = entries;
      await fillBlobHashes(blobs);
      // Stashed while the hashes were computed: the next page load writes them.
      if (this.preparing !== entries) continue;
      this.preparing = null;
      this.writing = entries;
      try {
        // Restored entries may have reached the sink already (a write cut off by the unload).
        await this.sink.write(entries, { skipWritten: batch.some((item) => item.kind === 'entry') });
      } catch {
        this.droppedEntries += entries.length;
      } finally {
        this.writing = null;
      }
      if (this.pending.length > 0) await yieldToEventLoop();
    }
  }
}

function toEntry(item: Pending, blobs: PendingBlob[], hasher: StateHasher): NewLogEntry {
  switch (item.kind) {
    case 'entry':
      return item.entry;
    case 'session': {
      const entry: NewLogEntry = { kind: 'session', t: item.t, hash: hasher.hashState(item.state), state: redact(item.state, blobs) };
      if (item.appVersion) entry.appVersion = item.appVersion;
      return entry;
    }
    case 'checkpoint':
      return { kind: 'checkpoint', t: item.t, hash: hasher.hashState(item.state), state: redact(item.state, blobs) };
    case 'action':
      return {
        kind: 'action',
        t: item.t,
        type: item.action.type,
        action: redact(withoutUntrackedBodies(item.action), blobs) as { type: string },
        hash: hasher.hashState(item.state),
      };
    case 'net': {
      const entry: Omit<NetEntry, 'seq'> = { ...item.entry };
      if (item.raw.request !== undefined) entry.requestBody = redact(item.raw.request, blobs);
      if (item.raw.response !== undefined) entry.responseBody = redact(item.raw.response, blobs);
      if (entry.error) entry.error = redact(entry.error) as string;
      return entry;
    }
  }
}

/** What an untracked mutation's action holds instead of its arguments and answer. */
const IN_EXCHANGE = '[in its HTTP exchange]';

/**
 * An RTK Query mutation run untracked (the drain's bulk calls, the photo uploads) changes no state:
 * no reducer keeps its arguments or its answer. Its actions' entries leave both out — the HTTP
 * exchange logged beside them holds the request and the answer, and a replay answers from that —
 * so the 500 operations of a bulk call are written once, not again in each of its two actions.
 */
function withoutUntrackedBodies(action: { type: string }): { type: string } {
  const { meta, payload } = action as { meta?: { arg?: { type?: unknown; track?: unknown } }; payload?: unknown };
  if (meta?.arg?.type !== 'mutation' || meta.arg.track !== false) return action;
  const slim: Record<string, unknown> = { ...action, meta: { ...meta, arg: { ...meta.arg, originalArgs: IN_EXCHANGE } } };
  if (payload !== undefined) slim.payload = IN_EXCHANGE;
  return slim as { type: string };
}

/** Path and query of a URL (the origin differs between the app, tests and a replay). */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url, 'http://origin.invalid');
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

/** A request body as the log keeps it: JSON parsed (so keys can be redacted), else as it is. */
export function requestBodyOf(body: unknown): unknown {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') {
    try {
      return JSON.parse(body) as unknown;
    } catch {
      return body;
    }
  }
  return body;
}

async function readResponse(response: Response): Promise<{ type: NetEntry['responseType']; body?: unknown }> {
  const contentType = response.headers?.get?.('content-type') ?? '';
  if (/json/i.test(contentType) || /^text\//i.test(contentType) || !contentType) {
    const text = await response.text();
    if (text === '') return { type: 'empty' };
    try {
      return { type: 'json', body: JSON.parse(text) as unknown };
    } catch {
      return { type: 'text', body: text };
    }
  }
  const blob = await response.blob();
  return { type: 'binary', body: isBlob(blob) ? blob : undefined };
}
