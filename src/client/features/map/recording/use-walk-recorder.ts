/**
 * The walk recorder for a screen: the page's walk session (walk-session.ts) as React state and its
 * actions. The session outlives the screen, so leaving the path's screen does not stop a walk.
 */
import { useMemo, useSyncExternalStore } from 'react';
import type { OfflineDb } from '../../../lib/db/database';
import type { RecorderOptions, WalkResult } from './track-recorder';
import { walkSessionFor, type WalkRecorderEnv, type WalkSnapshot } from './walk-session';

export type { WalkRecorderEnv } from './walk-session';

export interface WalkRecorderApi extends WalkSnapshot {
  start(pathId: number, pathName: string | undefined, returnTo: string): Promise<void>;
  pause(): void;
  resume(): void;
  resumeInterrupted(here: string): void;
  discard(): Promise<void>;
  /** Stop and summarise; the log is kept until `clear` (after the path was saved). */
  finish(): WalkResult;
  clear(): Promise<void>;
}

export function useWalkRecorder(db: OfflineDb, options?: Partial<RecorderOptions>, env?: WalkRecorderEnv): WalkRecorderApi {
  // The first screen to ask makes the page's session; its options and environment stay.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const session = useMemo(() => walkSessionFor(db, options, env), [db]);
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot, session.getSnapshot);
  return useMemo(
    () => ({
      ...snapshot,
      start: (pathId: number, pathName: string | undefined, returnTo: string) => session.start(pathId, pathName, returnTo),
      pause: () => session.pause(),
      resume: () => session.resume(),
      resumeInterrupted: (here: string) => session.resumeInterrupted(here),
      discard: () => session.clear(),
      finish: () => session.finish(),
      clear: () => session.clear(),
    }),
    [session, snapshot],
  );
}
