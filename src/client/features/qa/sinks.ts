/**
 * Where log entries go: a ring buffer of `capacity` entries. Two implementations with the same
 * contract (numbering, wrap-around): IndexedDB for the app, memory for tests, fixtures and the
 * bench baseline.
 */
import type { LogEntry, NewLogEntry } from './log-format';

export interface WriteOptions {
  /** Leave out entries already stored (same `sid` and `n`): a stash of a write that did finish. */
  skipWritten?: boolean;
}

export interface LogSink {
  readonly capacity: number;
  /** Numbers the entries (continuing the stored sequence) and keeps only the newest `capacity`. */
  write(entries: NewLogEntry[], options?: WriteOptions): Promise<void>;
  readAll(): Promise<LogEntry[]>;
  clear(): Promise<void>;
}

export class MemoryLogSink implements LogSink {
  private entries: LogEntry[] = [];
  private nextSeq = 1;

  constructor(readonly capacity: number) {}

  async write(entries: NewLogEntry[], options: WriteOptions = {}): Promise<void> {
    const stored = options.skipWritten ? new Set(this.entries.map((entry) => `${entry.sid} ${entry.n}`)) : null;
    for (const entry of entries) {
      if (stored?.has(`${entry.sid} ${entry.n}`)) continue;
      this.entries.push({ ...entry, seq: this.nextSeq++ } as LogEntry);
    }
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  async readAll(): Promise<LogEntry[]> {
    return this.entries.slice();
  }

  async clear(): Promise<void> {
    this.entries = [];
  }
}
