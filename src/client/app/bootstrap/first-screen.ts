/**
 * When the first screen has what it waits for: the season is loaded, or its load failed (the
 * screen then says so). Work that would compete with the first screen for a phone's one busy
 * thread waits for it — on a first visit, the service worker's install (main.tsx), which fetches
 * and stores every file of the app.
 */
import { selectSeasonStatus } from '../../features/season';

/** The store as far as this needs it. */
interface SeasonStore {
  getState: () => Parameters<typeof selectSeasonStatus>[0];
  subscribe: (listener: () => void) => () => void;
}

/** Resolves once the season is loaded or failed, or after `maxWaitMs` at the latest. */
export function whenFirstScreenShown(store: SeasonStore, maxWaitMs: number): Promise<void> {
  return new Promise((resolve) => {
    const shown = () => {
      const status = selectSeasonStatus(store.getState());
      return status === 'ready' || status === 'failed';
    };
    if (shown()) {
      resolve();
      return;
    }
    const done = () => {
      unsubscribe();
      clearTimeout(timer);
      resolve();
    };
    const unsubscribe = store.subscribe(() => {
      if (shown()) done();
    });
    const timer = setTimeout(done, maxWaitMs);
  });
}
