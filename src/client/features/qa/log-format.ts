/**
 * The action log as it is stored and exported. One JSON file:
 * `{ format, version, exportedAt, appVersion, capacity, entries }`, entries in `seq` order.
 *
 * - `session`: a store was created (page load); `hash` is the hash of its initial state and
 *   `state` that state, so a replay can start here.
 * - `action`: one action as the reducers saw it (redacted) and the state hash right after it.
 * - `net`: one HTTP exchange of the api layer (request and answer, redacted), so a replay can
 *   answer the same requests without a server.
 * - `checkpoint`: the whole (redacted) state every so many actions, so a log whose ring buffer
 *   wrapped past its session start can still be replayed from the first checkpoint it keeps.
 */
export const ACTION_LOG_FORMAT = 'moj-travnik-action-log';
export const ACTION_LOG_VERSION = 1;
/** Entries kept by default (our own QA setting; see README.md). */
export const DEFAULT_LOG_CAPACITY = 5000;
/** A checkpoint every this many actions. */
export const DEFAULT_CHECKPOINT_EVERY = 1000;

interface EntryBase {
  /** Position in the ring buffer, increasing over the device's whole history. */
  seq: number;
  /** Epoch milliseconds (the store's clock). */
  t: number;
  /**
   * The page load (recorder) that wrote the entry. Two tabs share one ring buffer, so their
   * entries interleave in `seq` order; a replay sends each entry to its own session's store.
   * Absent in older logs: then an entry belongs to the session started last before it.
   */
  sid?: string;
  /** Number of the entry within its page load (1, 2, …): a stash written twice is kept once. */
  n?: number;
}

export interface SessionEntry extends EntryBase {
  kind: 'session';
  hash: string;
  state: unknown;
  appVersion?: string;
}

export interface CheckpointEntry extends EntryBase {
  kind: 'checkpoint';
  hash: string;
  state: unknown;
}

export interface ActionEntry extends EntryBase {
  kind: 'action';
  type: string;
  action: { type: string; [key: string]: unknown };
  hash: string;
}

export interface NetEntry extends EntryBase {
  kind: 'net';
  method: string;
  /** Path and query, without the origin (the same log replays against any base URL). */
  url: string;
  requestBody?: unknown;
  /** HTTP status, or 0 when no answer came (network failure). */
  status: number;
  responseType: 'json' | 'text' | 'binary' | 'empty' | 'none';
  responseBody?: unknown;
  error?: string;
}

export type LogEntry = SessionEntry | CheckpointEntry | ActionEntry | NetEntry;
/** An entry before the sink numbered it. */
export type NewLogEntry = LogEntry extends infer E ? (E extends LogEntry ? Omit<E, 'seq'> : never) : never;

export interface ActionLogFile {
  format: typeof ACTION_LOG_FORMAT;
  version: number;
  exportedAt: string;
  appVersion?: string;
  capacity: number;
  entries: LogEntry[];
}

/** Checks the shape of a loaded file; throws an Error naming what is wrong. */
export function parseActionLogFile(value: unknown): ActionLogFile {
  const file = value as Partial<ActionLogFile> | null;
  if (!file || typeof file !== 'object') throw new Error('not an action log: expected a JSON object');
  if (file.format !== ACTION_LOG_FORMAT) throw new Error(`not an action log: format is ${JSON.stringify(file.format)}, expected "${ACTION_LOG_FORMAT}"`);
  if (file.version !== ACTION_LOG_VERSION) throw new Error(`unsupported action log version ${String(file.version)}`);
  if (!Array.isArray(file.entries)) throw new Error('not an action log: entries missing');
  file.entries.forEach((entry, index) => {
    if (!entry || typeof entry !== 'object' || typeof entry.seq !== 'number' || typeof entry.kind !== 'string') {
      throw new Error(`action log entry ${index} is malformed`);
    }
    if (entry.kind === 'action' && (typeof entry.action?.type !== 'string' || typeof entry.hash !== 'string')) {
      throw new Error(`action log entry ${index} (seq ${entry.seq}) has no action type or hash`);
    }
  });
  return file as ActionLogFile;
}

/** File name for an export: moj-travnik-dnevnik-YYYY-MM-DD-HHmm.json (local time). */
export function actionLogFileName(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `moj-travnik-dnevnik-${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}-${pad(date.getHours())}${pad(date.getMinutes())}.json`;
}
