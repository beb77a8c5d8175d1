/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * A page load that restores persisted state (redux-persist REHYDRATE of sync.lastSyncAt):
 * the log carries the restored state, and the replay store persists too, so the replay merges
 * it the same way and the hashes match.
 */
import { describe, expect, it } from '@jest/globals';
import { makeStore } from '../../../src/client/app/store';
import { openOfflineDb } from '../../../src/client/lib/db';
import { browserOnlineChanged, syncStopped } from '../../../src/client/features/sync';
import { ActionLogRecorder, MemoryLogSink, replayActionLog, withActionLogHandler } from '../../../src/client/features/qa';
import { createReplayStore, memoryStorage, teardownReplayStore } from '../../../scripts/replay-store';

async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !predicate(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!predicate()) throw new Error('timed out');
}

describe('a persisted session', () => {
  it('replays its REHYDRATE into a persisting replay store without divergence', async () => {
    const storage = memoryStorage();
    // What an earlier page load left behind.
    await storage.setItem(
      'persist:moj-travnik',
      JSON.stringify({ sync: JSON.stringify({ lastSyncAt: '2026-06-14T17:05:00.000Z' }), _persist: JSON.stringify({ version: 1, rehydrated: true }) }),
    );
    const sink = new MemoryLogSink(500);
    const recorder = new ActionLogRecorder({ sink });
    const store = withActionLogHandler(recorder, () =>
      makeStore(undefined, { persist: storage, extra: { db: openOfflineDb({ name: `qa-persist-${Date.now()}` }) } }),
    );
    await until(() => store.getState().sync.lastSyncAt !== null);
    store.dispatch(browserOnlineChanged(false));
    store.dispatch(syncStopped());
    await recorder.flush();
    const entries = await sink.readAll();
    const types = entries.flatMap((entry) => (entry.kind === 'action' ? [entry.type] : []));
    expect(types).toEqual(expect.arrayContaining(['persist/PERSIST', 'persist/REHYDRATE', 'connectivity/browserOnlineChanged']));

    const result = await replayActionLog({ entries }, { createStore: createReplayStore, teardown: teardownReplayStore });
    expect(result.divergence).toBeNull();
    expect(result.finalState).toMatchObject({ sync: { lastSyncAt: '2026-06-14T17:05:00.000Z' }, connectivity: { browserOnline: false } });
  });
});
