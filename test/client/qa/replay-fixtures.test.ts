/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * Every recorded action log in test/fixtures/action-logs replays into a fresh store (the app's
 * makeStore) without divergence and ends at the state hash in expected.json: a reducer change
 * that alters what a recorded session ends with fails here, naming the first action affected.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseActionLogFile, replayActionLog, type ActionEntry, type ActionLogFile } from '../../../src/client/features/qa';
import { createReplayStore, teardownReplayStore } from '../../../scripts/replay-store';
import { rootReducer } from '../../../src/client/app/root-reducer';

const dir = path.join(process.cwd(), 'test/fixtures/action-logs');
const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Record<string, { finalHash: string; actions: number }>;
const load = (name: string): ActionLogFile => parseActionLogFile(JSON.parse(readFileSync(path.join(dir, name), 'utf8')));
const replay = (file: ActionLogFile) => replayActionLog(file, { createStore: createReplayStore, teardown: teardownReplayStore });

describe('recorded action logs replay deterministically', () => {
  it('has the fixtures of the field-day, editor and token-expiry sessions', () => {
    expect(Object.keys(expected).sort()).toEqual(['editor-review.json', 'farmer-field-day.json', 'token-expiry-offline.json']);
  });

  it.each(Object.keys(expected))('%s: no divergence, the expected final state hash', async (name) => {
    const file = load(name);
    const result = await replay(file);
    expect(result.divergence).toBeNull();
    expect(result.finalHash).toBe(expected[name]!.finalHash);
    expect(result.recordedFinalHash).toBe(expected[name]!.finalHash);
    const actionEntries = file.entries.filter((entry) => entry.kind === 'action').length;
    expect(actionEntries).toBe(expected[name]!.actions);
    // The network the live listeners asked for during the replay came from the log only.
    expect(result.network.unanswered).toEqual([]);
  });

  it('the field day spans a reload: two sessions, each replayed into its own store', async () => {
    const result = await replay(load('farmer-field-day.json'));
    expect(result.sessions).toBe(2);
    expect(result.finalState).toMatchObject({ sync: { pendingCount: 0 }, season: { status: 'ready', role: 'farmer' } });
  });

  it('is the same on a second run (nothing carried over between replays)', async () => {
    const first = await replay(load('token-expiry-offline.json'));
    const second = await replay(load('token-expiry-offline.json'));
    expect(second.finalHash).toBe(first.finalHash);
    expect(second.finalState).toEqual(first.finalState);
  });
});

describe('divergence detection names the first diverging action', () => {
  it('a reducer that behaves differently is caught at the first action it handles differently', async () => {
    const file = load('farmer-field-day.json');
    // The same app, except that the sync mirror now counts one edit too many.
    type State = ReturnType<typeof rootReducer>;
    const changed = (state: State | undefined, action: { type: string }): State => {
      const next = rootReducer(state, action as never);
      return action.type === 'sync/outboxSummaryLoaded' ? { ...next, sync: { ...next.sync, pendingCount: next.sync.pendingCount + 1 } } : next;
    };
    const result = await replayActionLog(file, {
      createStore: (deps) => {
        const store = createReplayStore(deps);
        store.replaceReducer(changed as never);
        return store;
      },
      teardown: teardownReplayStore,
    });
    const first = file.entries.findIndex((entry) => entry.kind === 'action' && entry.type === 'sync/outboxSummaryLoaded');
    expect(result.divergence).toMatchObject({ index: first, type: 'sync/outboxSummaryLoaded' });
  });

  it('a changed payload (as a changed reducer would produce) is reported at that action', async () => {
    const file = load('farmer-field-day.json');
    // The moment the farmer goes offline: replay it as "online" instead.
    const index = file.entries.findIndex((entry) => entry.kind === 'action' && entry.type === 'connectivity/browserOnlineChanged' && (entry.action as { payload?: unknown }).payload === false);
    expect(index).toBeGreaterThan(0);
    const entry = file.entries[index] as ActionEntry;
    (entry.action as unknown as { payload: boolean }).payload = true;
    const result = await replay(file);
    expect(result.divergence).toMatchObject({ index, seq: entry.seq, type: 'connectivity/browserOnlineChanged', expected: entry.hash });
    expect(result.divergence!.actual).not.toBe(entry.hash);
  });

  it('a logged hash that the replay does not reach is reported at its entry, later ones still checked', async () => {
    const file = load('editor-review.json');
    const actions = file.entries.map((entry, i) => ({ entry, i })).filter(({ entry }) => entry.kind === 'action' && entry.type === 'season/loaded');
    const target = actions[0]!;
    (target.entry as ActionEntry).hash = '00000000000000';
    const result = await replay(file);
    expect(result.divergence).toMatchObject({ index: target.i, type: 'season/loaded', expected: '00000000000000' });
    expect(result.divergences).toBe(1);
  });

  it('a session whose initial state differs (a changed initialState) diverges at the session start', async () => {
    const file = load('editor-review.json');
    const session = file.entries.findIndex((entry) => entry.kind === 'session');
    (file.entries[session] as { hash: string }).hash = 'ffffffffffffff';
    const result = await replay(file);
    expect(result.divergence).toMatchObject({ index: session, type: '(session start)' });
  });
});
