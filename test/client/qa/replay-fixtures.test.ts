/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * Every action log in test/fixtures/action-logs — exported from /about at the end of the Chromium
 * scenarios (test/e2e/scenarios, `UPDATE_ACTION_LOGS=1`) — replays into a fresh store (the app's
 * makeStore) without divergence and ends at the state hash in expected.json: a reducer change
 * that alters what a recorded session did fails here, naming the first action affected.
 *
 * Deterministic on any machine, date and time zone: the replay runs on the log's recorded clock
 * and answers the network from the log; one test replays on another date in another zone.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseActionLogFile, replayActionLog, type ActionEntry, type ActionLogFile, type ReplayStoreDeps } from '../../../src/client/features/qa';
import { createReplayStore, teardownReplayStore } from '../../../scripts/replay-store';
import { rootReducer } from '../../../src/client/app/root-reducer';

jest.setTimeout(60_000);

interface Expected {
  finalHash: string;
  actions: number;
  sessions: number;
  scenario: string;
}

const dir = path.join(process.cwd(), 'test/fixtures/action-logs');
const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Record<string, Expected>;
const load = (name: string): ActionLogFile => parseActionLogFile(JSON.parse(readFileSync(path.join(dir, name), 'utf8')));
const replay = (file: ActionLogFile) => replayActionLog(file, { createStore: createReplayStore, teardown: teardownReplayStore });
const actionIndexes = (file: ActionLogFile, type: string, where: (entry: ActionEntry) => boolean = () => true) =>
  file.entries.flatMap((entry, index) => (entry.kind === 'action' && entry.type === type && where(entry) ? [index] : []));

describe('the action logs of the e2e scenarios replay deterministically', () => {
  it('has the logs of the field day, the editor, token expiry, the app update and the roles scenarios', () => {
    expect(Object.keys(expected)).toEqual(
      expect.arrayContaining(['farmer-field-day.json', 'editor-review.json', 'editor-archive.json', 'token-expiry-offline.json', 'app-update.json']),
    );
    for (const name of Object.keys(expected)) {
      const file = load(name);
      // Exported from the browser (a Chromium scenario), not made up in Node.
      expect(file.entries.find((entry) => entry.kind === 'session')).toBeDefined();
      expect(expected[name]!.scenario).toMatch(/^scenario \d+b? \([\w-]+\.test\.ts\)/);
    }
  });

  it.each(Object.keys(expected))('%s: no divergence, the expected final state hash', async (name) => {
    const file = load(name);
    const result = await replay(file);
    expect(result.divergence).toBeNull();
    expect(result.skippedEntries).toBe(0);
    expect(result.finalHash).toBe(expected[name]!.finalHash);
    expect(result.recordedFinalHash).toBe(expected[name]!.finalHash);
    expect(file.entries.filter((entry) => entry.kind === 'action')).toHaveLength(expected[name]!.actions);
    expect(result.sessions).toBe(expected[name]!.sessions);
  });

  it('the field day spans an offline reload and a reload online: each page load replays into its own store', async () => {
    const file = load('farmer-field-day.json');
    const result = await replay(file);
    expect(result.sessions).toBeGreaterThanOrEqual(3);
    expect(result.divergence).toBeNull();
    // Offline in the field, a photo queued (kept as its size and hash), online again at the end.
    expect(actionIndexes(file, 'connectivity/browserOnlineChanged', (e) => (e.action as { payload?: unknown }).payload === false).length).toBeGreaterThan(0);
    expect(
      actionIndexes(file, 'sync/editSaved/pending', (e) => (e.action as unknown as { meta: { arg: { kind: string } } }).meta.arg.kind === 'attachment'),
    ).toHaveLength(1);
    expect(result.finalState).toMatchObject({ sync: { pendingCount: 0 }, season: { status: 'ready', role: 'farmer' }, connectivity: { browserOnline: true } });
  });

  it.each(['farmer-field-day.json', 'token-expiry-offline.json'])(
    '%s runs on the log clock: the same hashes on another date in another time zone',
    async (name) => {
      const file = load(name);
      const zone = process.env.TZ;
      const clocks: number[] = [];
      // Only Date is faked (a leap day years later, in UTC+14); timers stay real.
      jest.useFakeTimers({
        now: Date.parse('2031-02-28T23:59:30Z'),
        doNotFake: [
          'hrtime',
          'nextTick',
          'performance',
          'queueMicrotask',
          'requestAnimationFrame',
          'cancelAnimationFrame',
          'requestIdleCallback',
          'cancelIdleCallback',
          'setImmediate',
          'clearImmediate',
          'setInterval',
          'clearInterval',
          'setTimeout',
          'clearTimeout',
        ],
      });
      process.env.TZ = 'Pacific/Kiritimati';
      try {
        expect(new Date().getFullYear()).toBe(2031);
        const elsewhere = await replayActionLog(file, {
          createStore: (deps: ReplayStoreDeps) => {
            clocks.push(deps.now());
            return createReplayStore(deps);
          },
          teardown: teardownReplayStore,
        });
        expect(elsewhere.divergence).toBeNull();
        expect(elsewhere.finalHash).toBe(expected[name]!.finalHash);
      } finally {
        jest.useRealTimers();
        if (zone === undefined) delete process.env.TZ;
        else process.env.TZ = zone;
      }
      // Each store started at the time its page load was logged, not at the time of the replay.
      expect(clocks).toEqual(file.entries.filter((entry) => entry.kind === 'session').map((entry) => entry.t));
    },
  );

  it('is the same on a second run (nothing carried over between replays)', async () => {
    const first = await replay(load('app-update.json'));
    const second = await replay(load('app-update.json'));
    expect(second.finalHash).toBe(first.finalHash);
    expect(second.finalState).toEqual(first.finalState);
  });
});

describe('a reducer change is caught at the first action it handles differently', () => {
  type State = ReturnType<typeof rootReducer>;
  /** The app's makeStore (persistence and all) with a changed root reducer, as a code change would make it. */
  const replayWith = (file: ActionLogFile, changed: (state: State | undefined, action: { type: string; payload?: unknown }) => State) =>
    replayActionLog(file, { createStore: (deps) => createReplayStore(deps, { rootReducer: changed as never }), teardown: teardownReplayStore });

  it('the sync mirror counting one edit too many diverges at the first outbox summary', async () => {
    const file = load('farmer-field-day.json');
    const result = await replayWith(file, (state, action) => {
      const next = rootReducer(state, action as never);
      return action.type === 'sync/outboxSummaryLoaded' ? { ...next, sync: { ...next.sync, pendingCount: next.sync.pendingCount + 1 } } : next;
    });
    const first = actionIndexes(file, 'sync/outboxSummaryLoaded')[0]!;
    expect(result.divergence).toMatchObject({ index: first, type: 'sync/outboxSummaryLoaded', expected: (file.entries[first] as ActionEntry).hash });
  });

  it('a change that only shows after the offline reload is named in that later session', async () => {
    const file = load('farmer-field-day.json');
    const sessions = file.entries.flatMap((entry, index) => (entry.kind === 'session' ? [index] : []));
    const reload = sessions[1]!;
    // The reducer ignores the identity restored from the device (auth/identityRestored): the app
    // dispatches it only when a page load finds no network, i.e. at the offline reload.
    const target = actionIndexes(file, 'auth/identityRestored')[0]!;
    expect(target).toBeGreaterThan(reload);
    const result = await replayWith(file, (state, action) => (action.type === 'auth/identityRestored' && state ? state : rootReducer(state, action as never)));
    expect(result.divergence).toMatchObject({ index: target, type: 'auth/identityRestored' });
  });

  it('a changed payload (as a changed action creator would produce) is reported at that action', async () => {
    const file = load('farmer-field-day.json');
    // The moment the farmer goes offline: replay it as "online" instead.
    const index = actionIndexes(file, 'connectivity/browserOnlineChanged', (e) => (e.action as { payload?: unknown }).payload === false)[0]!;
    const entry = file.entries[index] as ActionEntry;
    (entry.action as unknown as { payload: boolean }).payload = true;
    const result = await replay(file);
    expect(result.divergence).toMatchObject({ index, seq: entry.seq, type: 'connectivity/browserOnlineChanged', expected: entry.hash });
    expect(result.divergence!.actual).not.toBe(entry.hash);
  });

  it('a logged hash that the replay does not reach is reported at its entry, later ones still checked', async () => {
    const file = load('editor-review.json');
    const index = actionIndexes(file, 'season/loaded')[0]!;
    (file.entries[index] as ActionEntry).hash = '00000000000000';
    const result = await replay(file);
    expect(result.divergence).toMatchObject({ index, type: 'season/loaded', expected: '00000000000000' });
    expect(result.divergences).toBe(1);
  });

  it('a session whose initial state differs (a changed initialState) diverges at the session start', async () => {
    const file = load('app-update.json');
    const session = file.entries.findLastIndex((entry) => entry.kind === 'session');
    (file.entries[session] as { hash: string }).hash = 'ffffffffffffff';
    const result = await replay(file);
    expect(result.divergence).toMatchObject({ index: session, type: '(session start)' });
  });
});
