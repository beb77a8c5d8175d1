/**
 * Replays an action log into fresh stores, deterministically (docs/architecture.md, Beyond the basics).
 *
 * How: for every `session` entry a new store is made by the caller's `createStore` (in practice
 * the app's own `makeStore`: same reducers, same middleware and listeners), and every logged
 * action is dispatched to it in order. After each one the state hash is compared with the one
 * the app logged; the first mismatch is reported with its index, type and both hashes.
 *
 * Sessions (page loads): each gets a fresh store over a fresh offline database. The device's
 * database carried over a reload is not needed: what the new page read from it reached the
 * reducers as logged actions (season loaded from the device, outbox summary), which are replayed.
 * Entries carry their page load's `sid`, and go to that session's store even when two tabs'
 * entries interleave in the shared ring buffer (or a page's last batch landed after the next
 * page's first); entries without one (older logs) go to the session started last. A session's
 * store is torn down after its last entry.
 *
 * Why the listeners' own dispatches are held back (the replay gate): the log already holds every
 * action the listeners, thunks and RTK Query dispatched in the app, at the place the reducers saw
 * it. The live listeners still run for every replayed action, but what they dispatch is dropped
 * before the reducers (counted as `echoes`); otherwise each such action would apply twice, and
 * in an order decided by timers and promises rather than by the log. Their requests go to
 * `recordedFetch`, which answers from the HTTP exchanges in the log (keyed by method, path and
 * body), so a replay never needs a server and never reaches one.
 *
 * Skipped (logged, hash still checked): redux-persist's bookkeeping actions, whose payloads are
 * functions the log cannot keep, and RTK Query's middleware registration (its id is per process);
 * the replay store's own versions of those pass the gate. persist/REHYDRATE is replayed: it
 * carries the state the app restored, and the replay store persists (into memory) when the log
 * shows the app did, so the same reducer merges it.
 */
import { redact } from './redact';
import { StateHasher } from './state-hash';
import { pathOf, requestBodyOf, type ActionLogHandler } from './action-log';
import { withActionLogHandler } from './middleware';
import type { ActionEntry, ActionLogFile, CheckpointEntry, LogEntry, NetEntry, SessionEntry } from './log-format';

const SKIPPED_TYPES = new Set(['persist/PERSIST', 'persist/REGISTER', 'persist/FLUSH', 'persist/PAUSE', 'persist/PURGE', 'api/config/middlewareRegistered']);
const isBookkeeping = (type: string) => SKIPPED_TYPES.has(type);
/** The replay store's own redux-persist start-up (PERSIST, and REHYDRATE from its empty storage). */
const isOwnPersistence = (type: string) => type.startsWith('persist/') || type === 'api/config/middlewareRegistered';

/** Passes the replayed action; drops what the live middleware/listeners dispatch on their own. */
class ReplayGate implements ActionLogHandler {
  current: unknown = null;
  open = false;
  echoes = 0;

  handle(action: unknown, next: (action: unknown) => unknown): unknown {
    if (this.open || action === this.current) return next(action);
    const type = (action as { type?: unknown } | null)?.type;
    if (typeof type === 'string' && isOwnPersistence(type)) return next(action);
    this.echoes++;
    return action;
  }
}

interface RecordedAnswer {
  entry: NetEntry;
}

/** A fetch stand-in answering from the log's HTTP exchanges. */
export class RecordedFetch {
  private readonly exact = new Map<string, RecordedAnswer[]>();
  private readonly byPath = new Map<string, RecordedAnswer[]>();
  private readonly used = new Map<string, number>();
  private readonly hasher = new StateHasher();
  answered = 0;
  unanswered: string[] = [];

  constructor(entries: readonly LogEntry[]) {
    for (const entry of entries) {
      if (entry.kind !== 'net') continue;
      const answer = { entry };
      push(this.exact, this.key(entry.method, entry.url, entry.requestBody), answer);
      push(this.byPath, `${entry.method} ${entry.url}`, answer);
    }
  }

  private key(method: string, url: string, body: unknown): string {
    return `${method.toUpperCase()} ${url} ${body === undefined ? '-' : this.hasher.hash(body)}`;
  }

  /** The same request asked again gets the next recorded answer, then the last one again. */
  private take(map: Map<string, RecordedAnswer[]>, key: string): RecordedAnswer | undefined {
    const list = map.get(key);
    if (!list?.length) return undefined;
    const index = this.used.get(key) ?? 0;
    this.used.set(key, index + 1);
    return list[Math.min(index, list.length - 1)];
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const url = pathOf(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const body = requestBodyOf(init?.body);
    // Exact request first; else the same method and path (bodies with fresh random ids differ).
    const answer = this.take(this.exact, this.key(method, url, body === undefined ? undefined : redact(body))) ?? this.take(this.byPath, `${method} ${url}`);
    if (!answer || answer.entry.status === 0) {
      if (!answer) this.unanswered.push(`${method} ${url}`);
      // As the browser does when there is no answer: the api layer turns it into FETCH_ERROR.
      throw new TypeError(`replay: no recorded answer for ${method} ${url}`);
    }
    this.answered++;
    return makeResponse(answer.entry);
  };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function makeResponse(entry: NetEntry): Response {
  const { responseType, responseBody, status } = entry;
  const text = responseType === 'json' ? JSON.stringify(responseBody) : responseType === 'text' ? String(responseBody ?? '') : '';
  const contentType = responseType === 'json' ? 'application/json' : responseType === 'binary' ? 'application/octet-stream' : 'text/plain';
  const hasBody = ![101, 204, 205, 304].includes(status);
  if (typeof Response !== 'undefined') return new Response(hasBody ? text : null, { status, headers: { 'content-type': contentType } });
  // Environments without the Fetch API (jsdom): the members the api layer uses.
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: { get: (name: string) => (name.toLowerCase() === 'content-type' ? contentType : null) },
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
    blob: async () => new Blob([text]),
    clone() {
      return this;
    },
  } as unknown as Response;
}

export interface ReplayStoreDeps {
  /** Answers the api layer's requests from the log. */
  fetchFn: typeof fetch;
  /** The logged time of the action being replayed. */
  now: () => number;
  /** A fixed sequence (back-off jitter). */
  random: () => number;
  /** A name for this session's offline database (fresh per session). */
  dbName: string;
  /** The state a replay that starts at a checkpoint begins with. */
  preloadedState?: unknown;
  /**
   * The app persisted state with redux-persist (the log holds persist/REHYDRATE): the replay
   * store should persist too (into memory), so the logged REHYDRATE is merged the same way.
   */
  persist: boolean;
}

export interface ReplayStore {
  dispatch(action: unknown): unknown;
  getState(): unknown;
}

export interface ReplayOptions<S extends ReplayStore> {
  /** Makes a store as the app does (makeStore); called inside the replay gate. */
  createStore(deps: ReplayStoreDeps): S;
  /** Stops what the store started (listeners' loops, cache timers), after the result is read. */
  teardown?(store: S): void | Promise<void>;
}

interface Divergence {
  /** Position of the entry in `entries`. */
  index: number;
  seq: number;
  type: string;
  expected: string;
  actual: string;
}

export interface ReplayResult {
  finalState: unknown;
  finalHash: string | null;
  recordedFinalHash: string | null;
  /** Actions dispatched (bookkeeping ones excluded). */
  actions: number;
  sessions: number;
  /** The first diverging entry, or null when every hash matched. */
  divergence: Divergence | null;
  divergences: number;
  /** Actions the live listeners/middleware dispatched on their own and the gate held back. */
  echoes: number;
  network: { answered: number; unanswered: string[] };
  /** Entries before the first session or checkpoint (a wrapped ring buffer). */
  skippedEntries: number;
}

/** redux-persist's `_persist` belongs to the store that wrote it, not to a new one. */
function withoutPersistKey(state: unknown): unknown {
  if (typeof state !== 'object' || state === null) return state;
  const { _persist: _ignored, ...rest } = state as Record<string, unknown>;
  return rest;
}

const cloneAction = <T>(value: T): T => (typeof structuredClone === 'function' ? structuredClone(value) : (JSON.parse(JSON.stringify(value)) as T));

export async function replayActionLog<S extends ReplayStore>(file: Pick<ActionLogFile, 'entries'>, options: ReplayOptions<S>): Promise<ReplayResult> {
  const entries = [...file.entries].sort((a, b) => a.seq - b.seq);
  const start = entries.findIndex((entry) => entry.kind === 'session' || entry.kind === 'checkpoint');
  const persist = entries.some((entry) => entry.kind === 'action' && entry.type === 'persist/REHYDRATE');
  if (start < 0) throw new Error('the log has no session start or checkpoint to replay from');
  const hasher = new StateHasher();
  /** One gate per store: opening one for a teardown lets nothing through into another. */
  const gates = new Map<S, ReplayGate>();
  const network = new RecordedFetch(entries);
  let clock = entries[start]!.t;
  let randomState = 0x2545f491;
  const random = () => {
    // xorshift32: the same sequence on every replay.
    randomState ^= randomState << 13;
    randomState ^= randomState >>> 17;
    randomState ^= randomState << 5;
    return (randomState >>> 0) / 4294967296;
  };
  /** Live stores by session id ('' for entries without one). */
  const stores = new Map<string, S>();
  /** Where each session's entries end: its store is torn down after that one. */
  const lastIndexOf = new Map<string, number>();
  entries.forEach((entry, index) => lastIndexOf.set(entry.sid ?? '', index));
  /** The store of the last checked entry: the replay's final state. */
  let store: S | null = null;
  let sessions = 0;
  let actions = 0;
  let divergences = 0;
  let divergence: Divergence | null = null;
  let recordedFinalHash: string | null = null;

  const check = (target: S, index: number, entry: ActionEntry | SessionEntry | CheckpointEntry, type: string) => {
    store = target;
    const actual = hasher.hashState(target.getState());
    recordedFinalHash = entry.hash;
    if (actual !== entry.hash) {
      divergences++;
      divergence ??= { index, seq: entry.seq, type, expected: entry.hash, actual };
    }
  };
  const finish = async (current: S) => {
    const gate = gates.get(current)!;
    gate.open = true;
    try {
      await options.teardown?.(current);
    } finally {
      gate.open = false;
    }
  };
  const newStore = (preloadedState?: unknown) => {
    sessions++;
    const deps: ReplayStoreDeps = {
      fetchFn: network.fetch,
      now: () => clock,
      random,
      persist,
      dbName: `moj-travnik-replay-${Date.now()}-${sessions}-${Math.random().toString(36).slice(2)}`,
    };
    if (preloadedState !== undefined) deps.preloadedState = withoutPersistKey(preloadedState);
    const gate = new ReplayGate();
    const created = withActionLogHandler(gate, () => options.createStore(deps));
    gates.set(created, gate);
    return created;
  };

  const finished = new Set<S>();
  const end = async (target: S) => {
    if (finished.has(target)) return;
    finished.add(target);
    await finish(target);
  };

  for (let index = start; index < entries.length; index++) {
    const entry = entries[index]!;
    const sid = entry.sid ?? '';
    clock = entry.t;
    switch (entry.kind) {
      case 'session': {
        // A new page load of the same session id (entries without one): the old store ends.
        const previous = stores.get(sid);
        if (previous) await end(previous);
        const created = newStore();
        stores.set(sid, created);
        check(created, index, entry, '(session start)');
        break;
      }
      case 'checkpoint': {
        // A starting point only for a session whose start is not in the log (a wrapped ring
        // buffer); within a session it repeats the hash of the action before it, checked already.
        if (!stores.has(sid)) {
          const created = newStore(entry.state);
          stores.set(sid, created);
          check(created, index, entry, '(checkpoint)');
        }
        break;
      }
      case 'net':
        break;
      case 'action': {
        const target = stores.get(sid);
        if (!target) break;
        if (!isBookkeeping(entry.type)) {
          const action = cloneAction(entry.action);
          const gate = gates.get(target)!;
          gate.current = action;
          try {
            target.dispatch(action);
          } finally {
            gate.current = null;
          }
          actions++;
        }
        check(target, index, entry, entry.type);
        // Let the listeners' effects run now and then, as they did between actions in the app.
        if (actions % 100 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
        break;
      }
    }
    // The session's last entry: its store (listeners, cache timers) can stop, unless it holds
    // the final state, which is read below.
    const current = stores.get(sid);
    if (current && lastIndexOf.get(sid) === index && index !== entries.length - 1 && current !== store) await end(current);
  }
  const finalStore = store as S | null;
  const finalState = finalStore ? redact(finalStore.getState()) : null;
  const finalHash = finalStore ? hasher.hashState(finalStore.getState()) : null;
  for (const live of new Set([...stores.values(), ...(finalStore ? [finalStore] : [])])) await end(live);
  return {
    finalState,
    finalHash,
    recordedFinalHash,
    actions,
    sessions,
    divergence,
    divergences,
    echoes: [...gates.values()].reduce((sum, gate) => sum + gate.echoes, 0),
    network: { answered: network.answered, unanswered: network.unanswered },
    skippedEntries: start,
  };
}
