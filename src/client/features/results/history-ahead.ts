/**
 * A farmer's earlier seasons brought to the device ahead of need: once the season is read from
 * the server and the page is idle, the seasons of the farmer's paths (the results' and a path's
 * "earlier seasons" read, use-season-history.ts) are read whole onto the device, unless an
 * earlier read did. The results and a path's earlier seasons then open from the device at once,
 * online, and show every season offline, though the farmer never opened them with a signal: on
 * the phone profile their first open online took 1.3 s, reading the four tables one after another.
 * Editors and readers are not read ahead: their results are every farmer's rows. A first visit
 * (the app not installed yet) is not read ahead either.
 */
import type { ActionCreatorWithPayload } from '@reduxjs/toolkit';
import type { StoredRecord } from '../../lib/db/database';
import type { AppStartListening } from '../../app/store-types';
import { whenIdle } from '../../lib/idle';

/** What a season read tells: whose, from where, and the paths. */
interface SeasonRead {
  role: 'farmer' | 'editor' | 'reader' | null;
  source: 'server' | 'device' | null;
  paths: StoredRecord[];
}

/** At the latest this long after the season arrived the read starts, idle or not. */
const HISTORY_AHEAD_IDLE_WAIT_MS = 10_000;

export function addHistoryAheadListener<Read extends SeasonRead>(startAppListening: AppStartListening, seasonRead: ActionCreatorWithPayload<Read>): void {
  startAppListening({
    actionCreator: seasonRead,
    effect: async ({ payload }, listenerApi) => {
      // A newer season read takes over (the device copy comes before the server's answer).
      listenerApi.cancelActiveListeners();
      // On an installed app's visits: a first visit's bandwidth goes to its own screen and to
      // installing the app.
      if (!listenerApi.extra.installedVisit || payload.role !== 'farmer' || payload.source !== 'server') return;
      const pathIds = payload.paths.filter((path) => !path.archived).map((path) => path.id);
      const config = listenerApi.getState().config.value;
      if (!config || pathIds.length === 0) return;
      await new Promise<void>((resolve) => whenIdle(resolve, HISTORY_AHEAD_IDLE_WAIT_MS));
      // The read's code comes with the results' (not in the first screen's scripts).
      const [{ historyKeys, loadSeasonHistory }, { wholeOnDevice }] = await Promise.all([import('./use-season-history'), import('./use-loaded')]);
      const { db } = listenerApi.extra;
      if (listenerApi.signal.aborted || (await wholeOnDevice(db, historyKeys(pathIds)))) return;
      try {
        await loadSeasonHistory(listenerApi.dispatch, db, config, pathIds, true);
      } catch {
        // Nothing is lost: the results read the seasons when they open.
      }
    },
  });
}
