/**
 * Checkpoints of a SQLite file in WAL mode, off the request path. By default SQLite copies the
 * write-ahead log back into the database file (and syncs it) inside the commit that takes the log
 * past 1,000 pages: every few bulk calls one of them waits for that copy. Here the server's own
 * connection checkpoints only as a backstop (a log of BACKSTOP_PAGES), and a worker thread with
 * its own connection runs passive checkpoints (they never wait for, nor block, the writer)
 * whenever the log has grown past CHECKPOINT_WAL_BYTES. The worker starts with the first such
 * checkpoint, so a server or test that writes little never starts it.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** The log size (bytes) that starts a checkpoint: SQLite's own default of 1,000 pages of 4 KiB. */
const CHECKPOINT_WAL_BYTES = 4 * 1024 * 1024;
/** How often the log size is looked at. */
const CHECK_EVERY_MS = 500;
/** The server connection's own checkpoints, should the worker fall behind (≈ 64 MiB of log). */
const BACKSTOP_PAGES = 16_000;

/** The worker: one connection, a passive checkpoint per message, closed on 'stop'. CommonJS, so it needs no loader. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
// fileMustExist: a worker still starting when the server closed and its files were removed must
// not make a new, empty database file.
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
parentPort.on('message', (message) => {
  if (message === 'stop') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or closing: the next look at the log tries again, and the server's backstop remains.
  }
  parentPort.postMessage('done');
});
`;

export interface Checkpointer {
  /** A passive checkpoint on the worker (started if need be); resolves when it has run. */
  checkpoint(): Promise<void>;
  /**
   * No more checkpoints: the worker closes its connection when its checkpoint in progress ends.
   * Resolves once it has exited, so the database's files may then be moved or removed.
   */
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  /** Look at the log size every CHECK_EVERY_MS and checkpoint when it is big (default); false: only on checkpoint(). */
  watch?: boolean;
}

export function startCheckpointer(connection: Database.Database, path: string, options: CheckpointerOptions = {}): Checkpointer {
  connection.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  let stopped: Promise<void> = Promise.resolve();
  const walSize = (): number => {
    try {
      return statSync(`${path}-wal`).size;
    } catch {
      return 0;
    }
  };
  const start = (): Worker => {
    const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, driver: createRequire(import.meta.url).resolve('better-sqlite3') } });
    started.unref();
    // A worker that failed is replaced with the next checkpoint; the backstop keeps the log bounded meanwhile.
    started.on('error', () => {
      if (worker === started) worker = undefined;
    });
    return started;
  };
  const checkpoint = (): Promise<void> => {
    running ??= new Promise<void>((resolve) => {
      const target = (worker ??= start());
      const done = () => {
        target.off('message', done);
        target.off('exit', done);
        running = undefined;
        resolve();
      };
      target.on('message', done);
      target.on('exit', done);
      target.postMessage('checkpoint');
    });
    return running;
  };
  const timer =
    options.watch === false
      ? undefined
      : setInterval(() => {
          if (!running && walSize() >= CHECKPOINT_WAL_BYTES) void checkpoint();
        }, CHECK_EVERY_MS).unref();
  return {
    checkpoint,
    stop: () => {
      clearInterval(timer);
      if (worker) {
        const stopping = worker;
        worker = undefined;
        stopped = new Promise<void>((resolve) => stopping.once('exit', () => resolve()));
        stopping.postMessage('stop');
      }
      return stopped;
    },
  };
}
