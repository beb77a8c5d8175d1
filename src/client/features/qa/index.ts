/**
 * features/qa: the action log for QA (issue 8) — every action with its time and state hash in a
 * persisted ring buffer (redacted), its export from /about, and a deterministic replay into a
 * fresh store (`npm run replay -- log.json`).
 */
export { actionLogMiddleware, withActionLogHandler, getActiveActionLog } from './middleware';
export { ActionLogRecorder, UNWRITTEN_STASH_KEY, type ActionLogHandler, type StashStorage } from './action-log';
export { MemoryLogSink, type LogSink, type WriteOptions } from './sinks';
export { IndexedDbLogSink, ACTION_LOG_DB_NAME } from './action-log-db';
export { StateHasher, VOLATILE_PATHS } from './state-hash';
export { redact, redactAsync, REDACTED, SECRET_KEY, isBinaryDescriptor, type BinaryDescriptor } from './redact';
export { replayActionLog, RecordedFetch, ReplayGate, type ReplayResult, type ReplayStoreDeps, type Divergence } from './replay';
export * from './log-format';
export { ActionLogExport, buildActionLogFile } from './action-log-export';
export { ActionLogImport } from './action-log-import';
export { replayInApp, isReplayImportEnabled, type MakeStoreLike } from './browser-replay';
