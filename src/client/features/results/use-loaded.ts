/** Reading a screen's rows (from the server, or from the device when it cannot be reached) with a cancel. */
import { useEffect, useState, type DependencyList } from 'react';
import type { OfflineDb } from '../../lib/db/database';
import { getMeta, setMeta } from '../../lib/db/local-data';

/** The meta key of what online reads have brought whole to the device (`wholeOnDevice`). */
const READ_WHOLE_KEY = 'results-read-whole';

/**
 * Whether online reads have brought every one of `keys` (what a read covers: a path's seasons, all
 * farmers' rows) whole to the device. Until then its copy may hold only part (the current season
 * the season chain keeps), and showing it first would show too little as if it were all.
 */
export async function wholeOnDevice(db: OfflineDb, keys: readonly string[]): Promise<boolean> {
  const read = new Set((await getMeta<string[]>(db, READ_WHOLE_KEY)) ?? []);
  return keys.every((key) => read.has(key));
}

/** Notes that an online read has brought `keys` whole to the device (`wholeOnDevice`). */
export async function markWholeOnDevice(db: OfflineDb, keys: readonly string[]): Promise<void> {
  const read = (await getMeta<string[]>(db, READ_WHOLE_KEY)) ?? [];
  const added = keys.filter((key) => !read.includes(key));
  if (added.length) await setMeta(db, READ_WHOLE_KEY, [...read, ...added]);
}

export interface LoadedState<T> {
  status: 'loading' | 'ready' | 'failed';
  data: T | null;
  /** True when the server could not be read (offline, unreachable) and the rows come from the device. */
  fromDevice: boolean;
}

/**
 * Runs `load` whenever one of `deps` changes (null: nothing to read yet) and keeps its last answer.
 * A reload keeps showing the rows it has until the new ones are there, and an answer that arrives
 * after the inputs changed or the screen left is dropped (it would show another selection's rows).
 * `load` may show rows before its answer (`showFirst`: the device's copy while the server is
 * asked); its answer then replaces them.
 */
export function useLoaded<T>(
  load: ((showFirst: (data: T) => void) => Promise<{ data: T; fromDevice: boolean }>) | null,
  deps: DependencyList,
  what: string,
): LoadedState<T> {
  const [state, setState] = useState<LoadedState<T>>({ status: 'loading', data: null, fromDevice: false });
  useEffect(() => {
    if (!load) return undefined;
    let cancelled = false;
    setState((s) => ({ ...s, status: s.data ? s.status : 'loading' }));
    load((data) => {
      if (!cancelled) setState({ status: 'ready', data, fromDevice: false });
    })
      .then(({ data, fromDevice }) => {
        if (!cancelled) setState({ status: 'ready', data, fromDevice });
      })
      .catch((error: unknown) => {
        console.error(`${what} failed`, error);
        if (!cancelled) setState((s) => ({ ...s, status: 'failed' }));
      });
    return () => {
      cancelled = true;
    };
    // `load` is a new function on every render; `deps` are what it reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return state;
}
