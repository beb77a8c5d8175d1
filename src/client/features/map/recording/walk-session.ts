/**
 * The walk being recorded on this page, kept apart from any screen: the geolocation watch (high
 * accuracy), Screen Wake Lock while recording, page visibility → gap, every event persisted
 * through WalkLog before the state moves on, and an interrupted recording found again after a
 * reload. The rules themselves are in track-recorder.ts.
 *
 * One session per device database, for the page's life (`walkSessionFor`): a farmer walking the
 * transect opens the path's form to mark what grows beside it, and the recording goes on behind
 * that screen (the survey is a walk with the form in hand, as on paper). While a walk is under way
 * the session tells the app's frame (lib/walk-status.ts), which shows the way back to its path.
 */
import type { OfflineDb } from '../../../lib/db/database';
import { onIdentityChange } from '../../../lib/db/identity';
import { routeHref } from '../../../lib/links';
import { publishWalkStatus } from '../../../lib/walk-status';
import { clearWalk, loadWalk, WalkLog, type LoadedWalk } from './walk-log';
import {
  applyEvent,
  createRecorder,
  distanceWalked,
  finish,
  replay,
  summarize,
  type RecorderEvent,
  type RecorderOptions,
  type RecorderState,
  type WalkResult,
} from './track-recorder';

export interface WalkRecorderEnv {
  geolocation?: Geolocation;
  wakeLock?: { request(type: 'screen'): Promise<{ release(): Promise<void> }> };
  document?: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
  now: () => number;
}

function browserRecorderEnv(): WalkRecorderEnv {
  const nav = globalThis.navigator as (Navigator & { wakeLock?: WalkRecorderEnv['wakeLock'] }) | undefined;
  return { geolocation: nav?.geolocation, wakeLock: nav?.wakeLock, document: globalThis.document, now: () => Date.now() };
}

/** What the screens show of the session; a new object whenever anything in it changes. */
export interface WalkSnapshot {
  state: RecorderState;
  /** A recording found after a reload (for this or another path), not yet resumed or discarded. */
  interrupted: LoadedWalk | null;
  /** The path the current recording belongs to, and its name as the farmer knows it. */
  pathId: number | null;
  pathName: string | null;
  /** The address of the screen the walk belongs to (its path's, or a new path's), or null. */
  returnTo: string | null;
  /** The finished walk's summary, until it is saved or discarded. */
  result: WalkResult | null;
  wakeLockHeld: boolean;
  error: 'unsupported' | 'denied' | 'storage' | null;
  /** The clock, ticking each second while a walk is under way (for its duration). */
  now: number;
}

export class WalkSession {
  private snapshot: WalkSnapshot;
  private readonly listeners = new Set<() => void>();
  /** The latest state: events apply to it at once, the snapshot follows once each is stored. */
  private current: RecorderState;
  private log: WalkLog | null = null;
  private stopWatching: (() => void) | null = null;
  private stopWakeLock: (() => void) | null = null;
  private clock: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly db: OfflineDb,
    private readonly options: Partial<RecorderOptions>,
    private readonly env: WalkRecorderEnv,
  ) {
    this.current = createRecorder(options);
    this.snapshot = {
      state: this.current,
      interrupted: null,
      pathId: null,
      pathName: null,
      returnTo: null,
      result: null,
      wakeLockHeld: false,
      error: null,
      now: env.now(),
    };
    void loadWalk(db).then(
      (found) => {
        if (found && found.events.length > 0 && this.snapshot.pathId === null) this.set({ interrupted: found });
      },
      () => undefined,
    );
    // A path made offline and delivered during its walk: the walk follows it to its server id.
    onIdentityChange(db, (learned) => {
      const { pathId, returnTo } = this.snapshot;
      const delivered = learned.find((change) => change.of === 'record' && change.localId === pathId);
      if (!delivered || pathId === null) return;
      const ownAddress = routeHref('path', { pathId });
      this.set({ pathId: delivered.id, returnTo: returnTo === ownAddress ? routeHref('path', { pathId: delivered.id }) : returnTo });
    });
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): WalkSnapshot => this.snapshot;

  /** Starts a walk of path `pathId` (0: a path not made yet) on the screen at `returnTo`. */
  async start(pathId: number, pathName: string | undefined, returnTo: string): Promise<void> {
    const at = this.env.now();
    const log = new WalkLog(this.db);
    try {
      await log.begin({ pathId, startedAt: at, options: this.options, returnTo, ...(pathName ? { pathName } : {}) });
    } catch {
      this.set({ error: 'storage' });
      return;
    }
    this.log = log;
    this.current = createRecorder(this.options);
    this.set({ state: this.current, pathId, pathName: pathName ?? null, returnTo, interrupted: null, result: null, error: null });
    this.dispatch({ kind: 'start', at });
  }

  pause(): void {
    this.dispatch({ kind: 'pause', at: this.env.now() });
  }

  resume(): void {
    this.dispatch({ kind: 'resume', at: this.env.now() });
  }

  /** Takes up the walk found after a reload, on the screen at `here` (a log older than `returnTo` belongs to the screen it is resumed on). */
  resumeInterrupted(here: string): void {
    const { interrupted } = this.snapshot;
    if (!interrupted) return;
    const log = new WalkLog(this.db);
    log.adopt(interrupted);
    this.log = log;
    let rebuilt = replay(interrupted.events, interrupted.header.options);
    // The app was gone meanwhile: continue as after a pause (a new segment, the clock stopped).
    if (rebuilt.status === 'recording') {
      const lastAt = interrupted.events.reduce((t, e) => Math.max(t, e.kind === 'fix' ? e.fix.timestamp : e.at), 0);
      const pauseEvent: RecorderEvent = { kind: 'pause', at: lastAt };
      rebuilt = applyEvent(rebuilt, pauseEvent);
      void log.append(pauseEvent);
    }
    this.current = rebuilt;
    const { pathId, pathName, returnTo } = interrupted.header;
    // A log from before walks knew their screen: its path's screen, or this one for a path not made yet.
    this.set({ state: rebuilt, pathId, pathName: pathName ?? null, returnTo: returnTo ?? (pathId ? routeHref('path', { pathId }) : here), interrupted: null });
  }

  /** Stops and summarises; the log is kept until `clear` (after the path was saved). */
  finish(): WalkResult {
    const at = this.env.now();
    const done = finish(this.current, at);
    const result = summarize(done, at);
    this.current = done;
    this.set({ state: done, result });
    return result;
  }

  /** Ends the walk (saved or discarded): its log is removed and the session is ready for the next. */
  async clear(): Promise<void> {
    await this.log?.flush().catch(() => undefined);
    this.log = null;
    await clearWalk(this.db);
    this.current = createRecorder(this.options);
    this.set({ state: this.current, pathId: null, pathName: null, returnTo: null, interrupted: null, result: null });
  }

  private dispatch(event: RecorderEvent): void {
    const next = applyEvent(this.current, event);
    if (next === this.current) return;
    this.current = next;
    const log = this.log;
    if (!log) {
      this.set({ state: next });
      return;
    }
    // Shown once stored (the writes go in order, so the screen follows the events in order): what a
    // reload or a crash resumes is never less than the walk the farmer saw. A storage failure is
    // shown, and the walk goes on in memory.
    log.append(event).then(
      () => this.set({ state: next }),
      () => this.set({ state: next, error: 'storage' }),
    );
  }

  private set(patch: Partial<WalkSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    this.follow();
    this.notify();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** Starts or stops the watch, the wake lock and the clock as the walk's status requires, and tells the frame. */
  private follow(): void {
    const { status } = this.snapshot.state;
    const recording = status === 'recording';
    const active = recording || status === 'paused';
    if (recording && !this.stopWatching) this.stopWatching = this.watch();
    if (!recording && this.stopWatching) {
      this.stopWatching();
      this.stopWatching = null;
    }
    if (recording && !this.stopWakeLock) this.stopWakeLock = this.keepAwake();
    if (!recording && this.stopWakeLock) {
      this.stopWakeLock();
      this.stopWakeLock = null;
    }
    if (active && !this.clock) {
      // The clock's tick changes nothing `follow` looks at: the screens are told, nothing else.
      this.clock = setInterval(() => {
        this.snapshot = { ...this.snapshot, now: this.env.now() };
        this.notify();
      }, 1000);
    }
    if (!active && this.clock) {
      clearInterval(this.clock);
      this.clock = null;
    }
    // A finished walk counts until it is saved or discarded: the bar leads back to save it.
    const { pathId, pathName, returnTo, state } = this.snapshot;
    const shown = active || status === 'finished';
    publishWalkStatus(shown && pathId !== null && returnTo !== null ? { pathId, pathName, returnTo, status, distanceM: distanceWalked(state) } : null);
  }

  private watch(): () => void {
    const { geolocation } = this.env;
    if (!geolocation) {
      queueMicrotask(() => this.set({ error: 'unsupported' }));
      return () => undefined;
    }
    const id = geolocation.watchPosition(
      (p) => this.dispatch({ kind: 'fix', fix: { lon: p.coords.longitude, lat: p.coords.latitude, accuracy: p.coords.accuracy, timestamp: p.timestamp } }),
      (e) => {
        if (e.code === 1) this.set({ error: 'denied' });
      },
      { enableHighAccuracy: true, maximumAge: 0, timeout: 30_000 },
    );
    return () => geolocation.clearWatch(id);
  }

  /** Screen Wake Lock while recording; the browser drops it when the page hides, so it is taken again. */
  private keepAwake(): () => void {
    const { wakeLock, document } = this.env;
    let sentinel: { release(): Promise<void> } | null = null;
    let stopped = false;
    const acquire = () => {
      if (!wakeLock || document?.visibilityState === 'hidden') return;
      wakeLock
        .request('screen')
        .then((s) => {
          if (stopped) void s.release();
          else {
            sentinel = s;
            this.set({ wakeLockHeld: true });
          }
        })
        .catch(() => this.set({ wakeLockHeld: false }));
    };
    const onVisibility = () => {
      if (document?.visibilityState === 'hidden') {
        this.dispatch({ kind: 'hidden', at: this.env.now() });
        this.set({ wakeLockHeld: false });
      } else acquire();
    };
    acquire();
    document?.addEventListener('visibilitychange', onVisibility);
    return () => {
      stopped = true;
      document?.removeEventListener('visibilitychange', onVisibility);
      void sentinel?.release().catch(() => undefined);
      if (this.snapshot.wakeLockHeld) queueMicrotask(() => this.set({ wakeLockHeld: false }));
    };
  }
}

const sessions = new WeakMap<OfflineDb, WalkSession>();

/**
 * The page's session for this database, made by the first caller with its options and
 * environment (the browser's geolocation, wake lock and clock unless given).
 */
export function walkSessionFor(db: OfflineDb, options: Partial<RecorderOptions> = {}, env: WalkRecorderEnv = browserRecorderEnv()): WalkSession {
  let session = sessions.get(db);
  if (!session) sessions.set(db, (session = new WalkSession(db, options, env)));
  return session;
}

/** Forgets the page's session for this database, as a reload does (tests of an interrupted walk). */
export function forgetWalkSession(db: OfflineDb): void {
  sessions.delete(db);
}
