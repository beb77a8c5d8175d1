/**
 * Whether a walk is being recorded on this page, and where: what the app's frame needs to show the
 * way back to the walk's path from any other screen. The recorder (features/map) publishes it; it
 * lives here, apart from the recorder's code, so the frame does not load that code to read it.
 */
import { useSyncExternalStore } from 'react';

export interface WalkStatus {
  /** The walk's path (0: a new path, made when the walk is saved). */
  pathId: number;
  pathName: string | null;
  /** The address of the screen the walk is finished on. */
  returnTo: string;
  /** Recording, paused, or finished and not saved yet. */
  status: 'recording' | 'paused' | 'finished';
  distanceM: number;
}

let current: WalkStatus | null = null;
const listeners = new Set<() => void>();

function same(a: WalkStatus | null, b: WalkStatus | null): boolean {
  if (a === null || b === null) return a === b;
  return a.pathId === b.pathId && a.pathName === b.pathName && a.returnTo === b.returnTo && a.status === b.status && a.distanceM === b.distanceM;
}

export function publishWalkStatus(status: WalkStatus | null): void {
  if (same(current, status)) return;
  current = status;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const read = () => current;

/** The walk under way on this page, or null. */
export function useWalkStatus(): WalkStatus | null {
  return useSyncExternalStore(subscribe, read, read);
}
