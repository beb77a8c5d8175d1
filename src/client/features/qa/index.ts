/**
 * features/qa: the action log for QA — every action with its time and state hash in a
 * persisted ring buffer (redacted), its export from /about, and a deterministic replay into a
 * fresh store (`npm run replay -- log.json`).
 */
export { actionLogMiddleware, withActionLogHandler } from './middleware';
export { ActionLogRecorder, UNWRITTEN_STASH_KEY, type ActionLogHandler, type StashStorage } from './action-log';
export { MemoryLogSink, type LogSink, type WriteOptions } from './sinks';
export { IndexedDbLogSink } from './action-log-db';
export { StateHasher } from './state-hash';
export { redact, redactAsync, REDACTED } from './redact';
export { replayActionLog, RecordedFetch, type ReplayResult, type ReplayStoreDeps } from './replay';
export * from './log-format';
export { ActionLogExport } from './action-log-export';
export { ActionLogImport } from './action-log-import';
