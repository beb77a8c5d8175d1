/**
 * The one download running on this page, outside React and Redux (it holds an AbortController and
 * the database): screens subscribe to it with useSyncExternalStore, so the progress bar survives
 * moving between /download/new and /download. A run paused because the network went away is
 * resumed by the browser's `online` event.
 */
import type { BaseMapEntry } from '../../../common/basemap';
import type { OfflineDb } from '../../lib/db/database';
import { DownloadPaused, runDownload, type DownloadDeps, type DownloadExtent, type DownloadProgress } from './download-runner';

export interface DownloadRunState {
  extentId: number | null;
  name: string;
  status: 'idle' | 'running' | 'paused-offline' | 'cancelled' | 'done' | 'failed';
  progress: DownloadProgress | null;
  error: string | null;
}

const IDLE: DownloadRunState = { extentId: null, name: '', status: 'idle', progress: null, error: null };

export class DownloadController {
  private state: DownloadRunState = IDLE;
  private listeners = new Set<() => void>();
  private abort: AbortController | null = null;
  private last: { extent: DownloadExtent; basemaps: readonly BaseMapEntry[]; deps: Omit<DownloadDeps, 'db' | 'signal' | 'onProgress'> } | null = null;

  constructor(private readonly db: OfflineDb) {
    globalThis.addEventListener?.('online', () => {
      if (this.state.status === 'paused-offline' && this.last) void this.start(this.last.extent, this.last.basemaps, this.last.deps);
    });
  }

  getState = (): DownloadRunState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(state: DownloadRunState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }

  isRunning(): boolean {
    return this.state.status === 'running';
  }

  async start(extent: DownloadExtent, basemaps: readonly BaseMapEntry[], deps: Omit<DownloadDeps, 'db' | 'signal' | 'onProgress'>): Promise<void> {
    if (this.isRunning()) return;
    this.abort = new AbortController();
    this.last = { extent, basemaps, deps };
    this.set({ extentId: extent.id, name: extent.name, status: 'running', progress: null, error: null });
    try {
      await runDownload(extent, basemaps, {
        ...deps,
        db: this.db,
        signal: this.abort.signal,
        onProgress: (progress) => this.set({ ...this.state, progress }),
      });
      this.set({ ...this.state, status: 'done' });
    } catch (error) {
      if (error instanceof DownloadPaused) this.set({ ...this.state, status: error.reason === 'offline' ? 'paused-offline' : 'cancelled' });
      else this.set({ ...this.state, status: 'failed', error: String((error as Error)?.message ?? error) });
    } finally {
      this.abort = null;
    }
  }

  cancel(): void {
    this.abort?.abort();
  }

  reset(): void {
    if (!this.isRunning()) this.set(IDLE);
  }
}

const controllers = new WeakMap<OfflineDb, DownloadController>();

/** One controller per database handle (i.e. per page in the app, per test in tests). */
export function downloadControllerFor(db: OfflineDb): DownloadController {
  let controller = controllers.get(db);
  if (!controller) {
    controller = new DownloadController(db);
    controllers.set(db, controller);
  }
  return controller;
}
