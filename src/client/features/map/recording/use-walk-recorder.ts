/**
 * The walk recorder in the browser: geolocation watch (high accuracy), Screen Wake Lock while
 * recording, page visibility → gap, every event persisted through WalkLog before the state moves
 * on, and an interrupted recording found again after a reload. The rules themselves are in
 * track-recorder.ts.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { OfflineDb } from '../../../lib/db/database';
import { clearWalk, loadWalk, WalkLog, type LoadedWalk } from './walk-log';
import {
  applyEvent,
  createRecorder,
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

export interface WalkRecorderApi {
  state: RecorderState;
  /** A recording found after a reload (for this or another path), not yet resumed or discarded. */
  interrupted: LoadedWalk | null;
  /** The path the current recording belongs to. */
  pathId: number | null;
  wakeLockHeld: boolean;
  error: 'unsupported' | 'denied' | 'storage' | null;
  now: number;
  start(pathId: number, pathName?: string): Promise<void>;
  pause(): void;
  resume(): void;
  resumeInterrupted(): void;
  discard(): Promise<void>;
  /** Stop and summarise; the log is kept until `clear` (after the path was saved). */
  finish(): WalkResult;
  clear(): Promise<void>;
}

export function useWalkRecorder(db: OfflineDb, options: Partial<RecorderOptions> = {}, env: WalkRecorderEnv = browserRecorderEnv()): WalkRecorderApi {
  const [state, setState] = useState<RecorderState>(() => createRecorder(options));
  const [interrupted, setInterrupted] = useState<LoadedWalk | null>(null);
  const [pathId, setPathId] = useState<number | null>(null);
  const [wakeLockHeld, setWakeLockHeld] = useState(false);
  const [error, setError] = useState<WalkRecorderApi['error']>(null);
  const [now, setNow] = useState(() => env.now());
  const stateRef = useRef(state);
  const logRef = useRef<WalkLog | null>(null);
  const envRef = useRef(env);
  envRef.current = env;

  const dispatchEvent = useCallback((event: RecorderEvent) => {
    const next = applyEvent(stateRef.current, event);
    if (next === stateRef.current) return;
    stateRef.current = next;
    const log = logRef.current;
    if (!log) {
      setState(next);
      return;
    }
    // Shown once stored (the writes go in order, so the screen follows the events in order): what a
    // reload or a crash resumes is never less than the walk the farmer saw. A storage failure is
    // shown, and the walk goes on in memory.
    log.append(event).then(
      () => setState(next),
      () => {
        setError('storage');
        setState(next);
      },
    );
  }, []);

  // Look for an interrupted recording once.
  useEffect(() => {
    let cancelled = false;
    void loadWalk(db).then((found) => {
      if (!cancelled && found && found.events.length > 0) setInterrupted(found);
    });
    return () => {
      cancelled = true;
    };
  }, [db]);

  const active = state.status === 'recording' || state.status === 'paused';
  const recording = state.status === 'recording';

  // Geolocation watch while recording.
  useEffect(() => {
    if (!recording) return undefined;
    const geolocation = envRef.current.geolocation;
    if (!geolocation) {
      setError('unsupported');
      return undefined;
    }
    const id = geolocation.watchPosition(
      (p) => dispatchEvent({ kind: 'fix', fix: { lon: p.coords.longitude, lat: p.coords.latitude, accuracy: p.coords.accuracy, timestamp: p.timestamp } }),
      (e) => {
        if (e.code === 1) setError('denied');
      },
      { enableHighAccuracy: true, maximumAge: 0, timeout: 30_000 },
    );
    return () => geolocation.clearWatch(id);
  }, [recording, dispatchEvent]);

  // Screen Wake Lock while recording; the browser drops it when the page hides, so re-take it.
  useEffect(() => {
    if (!recording) return undefined;
    const { wakeLock, document } = envRef.current;
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
            setWakeLockHeld(true);
          }
        })
        .catch(() => setWakeLockHeld(false));
    };
    const onVisibility = () => {
      if (document?.visibilityState === 'hidden') {
        dispatchEvent({ kind: 'hidden', at: envRef.current.now() });
        setWakeLockHeld(false);
      } else acquire();
    };
    acquire();
    document?.addEventListener('visibilitychange', onVisibility);
    return () => {
      stopped = true;
      document?.removeEventListener('visibilitychange', onVisibility);
      void sentinel?.release().catch(() => undefined);
      setWakeLockHeld(false);
    };
  }, [recording, dispatchEvent]);

  // A clock for the duration display.
  useEffect(() => {
    if (!active) return undefined;
    const id = setInterval(() => setNow(envRef.current.now()), 1000);
    return () => clearInterval(id);
  }, [active]);

  const start = useCallback(
    async (id: number, pathName?: string) => {
      const at = envRef.current.now();
      const log = new WalkLog(db);
      try {
        await log.begin({ pathId: id, startedAt: at, options, ...(pathName ? { pathName } : {}) });
      } catch {
        setError('storage');
        return;
      }
      logRef.current = log;
      stateRef.current = createRecorder(options);
      setPathId(id);
      setInterrupted(null);
      setError(null);
      dispatchEvent({ kind: 'start', at });
    },
    [db, options, dispatchEvent],
  );

  const resumeInterrupted = useCallback(() => {
    if (!interrupted) return;
    const log = new WalkLog(db);
    log.adopt(interrupted);
    logRef.current = log;
    let rebuilt = replay(interrupted.events, interrupted.header.options);
    // The app was gone meanwhile: continue as after a pause (a new segment, the clock stopped).
    if (rebuilt.status === 'recording') {
      const lastAt = interrupted.events.reduce((t, e) => Math.max(t, e.kind === 'fix' ? e.fix.timestamp : e.at), 0);
      const pauseEvent: RecorderEvent = { kind: 'pause', at: lastAt };
      rebuilt = applyEvent(rebuilt, pauseEvent);
      void log.append(pauseEvent);
    }
    stateRef.current = rebuilt;
    setState(rebuilt);
    setPathId(interrupted.header.pathId);
    setInterrupted(null);
  }, [db, interrupted]);

  const clear = useCallback(async () => {
    await logRef.current?.flush().catch(() => undefined);
    logRef.current = null;
    await clearWalk(db);
    stateRef.current = createRecorder(options);
    setState(stateRef.current);
    setPathId(null);
    setInterrupted(null);
  }, [db, options]);

  return {
    state,
    interrupted,
    pathId,
    wakeLockHeld,
    error,
    now,
    start,
    pause: () => dispatchEvent({ kind: 'pause', at: envRef.current.now() }),
    resume: () => dispatchEvent({ kind: 'resume', at: envRef.current.now() }),
    resumeInterrupted,
    discard: clear,
    finish: () => {
      const at = envRef.current.now();
      const done = finish(stateRef.current, at);
      stateRef.current = done;
      setState(done);
      return summarize(done, at);
    },
    clear,
  };
}
