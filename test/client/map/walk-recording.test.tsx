import { afterEach, describe, expect, it } from '@jest/globals';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { makeStore } from '../../../src/client/app/store';
import { WalkRecorderPanel } from '../../../src/client/features/map/components/walk-recorder-panel';
import { formatPercent } from '../../../src/client/features/map/recording/format';
import { formatDistance } from '../../../src/common/format';
import { saveWalk } from '../../../src/client/features/map/recording/save-walk';
import {
  addFix,
  createRecorder,
  distanceWalked,
  finish,
  replay,
  start,
  summarize,
  type Fix,
  type RecorderEvent,
} from '../../../src/client/features/map/recording/track-recorder';
import { forgetWalkSession, type WalkRecorderEnv } from '../../../src/client/features/map/recording/walk-session';
import { CHUNK_SIZE, clearWalk, loadWalk, WalkLog } from '../../../src/client/features/map/recording/walk-log';
import { deviceRow, openOfflineDb, type OfflineDb } from '../../../src/client/lib/db';
import { sl, slMap } from '../../../src/common/i18n/sl';
import { WalkBar } from '../../../src/client/app/layout/walk-bar';

const LAT = 46.8;
const M_LON = 1 / (111_320 * Math.cos((LAT * Math.PI) / 180));
const T0 = Date.UTC(2026, 5, 1, 8, 0, 0);
const fixAt = (east: number, s: number, accuracy = 5): Fix => ({ lon: 16.2 + east * M_LON, lat: LAT, accuracy, timestamp: T0 + s * 1000 });

let dbCount = 0;
const dbs: OfflineDb[] = [];
function freshDb(): OfflineDb {
  dbCount += 1;
  const db = openOfflineDb({ name: `walk-test-${dbCount}-${Date.now()}` });
  dbs.push(db);
  return db;
}
afterEach(async () => {
  for (const db of dbs.splice(0)) {
    db.close();
    await db.delete();
  }
});

const table = { projectId: 1, tableId: 3, columns: { walk: 14, length_m: 13 } };

describe('walk log: points persisted as they come', () => {
  it('stores events in chunks and gives them back after a "reload" for an identical replay', async () => {
    const db = freshDb();
    const log = new WalkLog(db);
    await log.begin({ pathId: 42, startedAt: T0, options: {} });
    const events: RecorderEvent[] = [{ kind: 'start', at: T0 }];
    for (let s = 0; s < 130; s += 1) events.push({ kind: 'fix', fix: fixAt(s * 1.5, s) });
    events.push({ kind: 'hidden', at: T0 + 131_000 }, { kind: 'fix', fix: fixAt(300, 140) });
    for (const e of events) void log.append(e);
    await log.flush();

    // A new page: nothing in memory, only the database.
    const loaded = await loadWalk(db);
    expect(loaded?.header.pathId).toBe(42);
    expect(loaded?.header.chunks).toBe(Math.ceil(events.length / CHUNK_SIZE));
    expect(loaded?.events).toEqual(events);
    const live = events.reduce((s, e) => (e.kind === 'fix' ? addFix(s, e.fix) : e.kind === 'start' ? start(s, e.at) : s), createRecorder());
    expect(replay(loaded!.events).segments[0]).toEqual(live.segments[0]);

    // Continuing the same log after the reload appends to it.
    const again = new WalkLog(db);
    again.adopt(loaded!);
    await again.append({ kind: 'pause', at: T0 + 150_000 });
    expect((await loadWalk(db))?.events).toHaveLength(events.length + 1);

    await clearWalk(db);
    expect(await loadWalk(db)).toBeNull();
  });

  it('saves the simplified line, the raw fixes and the summary through the outbox', async () => {
    const db = freshDb();
    let state = start(createRecorder(), T0);
    for (let s = 0; s <= 60; s += 1) state = addFix(state, fixAt(s * 2, s));
    state = addFix(state, fixAt(5_000, 61)); // a jump
    state = finish(state, T0 + 61_000);
    const result = summarize(state, T0 + 61_000);
    await saveWalk(db, table, 42, result, state.raw, T0);
    const [item] = await db.outbox.toArray();
    expect(item).toMatchObject({ kind: 'update', api: 'Features', tableId: 3, id: 42, status: 'pending' });
    expect(item!.geometry).toEqual(result.geometry);
    expect(item!.geometry?.type).toBe('LineString');
    const walk = item!.properties!['14'] as { summary: { rejectedJumps: number }; raw: unknown[] };
    expect(walk.summary.rejectedJumps).toBe(1);
    expect(walk.raw).toHaveLength(62);
    expect(item!.properties!['13']).toBeCloseTo(120, 0);
    const row = await deviceRow(db, 3, 42);
    expect(row?.isEdit).toBe(1);
    expect(row?.feature.geometry).toEqual(result.geometry);
  });
});

/** A scripted phone: geolocation fixes on demand, a wake lock that is granted, a visible page. */
function scriptedPhone() {
  let onFix: PositionCallback | null = null;
  let clock = T0;
  const listeners = new Map<string, () => void>();
  const doc = {
    visibilityState: 'visible' as DocumentVisibilityState,
    addEventListener: (type: string, fn: () => void) => listeners.set(type, fn),
    removeEventListener: (type: string) => listeners.delete(type),
  };
  const env: WalkRecorderEnv = {
    now: () => clock,
    document: doc as unknown as WalkRecorderEnv['document'],
    wakeLock: { request: async () => ({ release: async () => undefined }) },
    geolocation: {
      watchPosition: (success: PositionCallback) => {
        onFix = success;
        return 1;
      },
      clearWatch: () => {
        onFix = null;
      },
      getCurrentPosition: () => undefined,
    } as unknown as Geolocation,
  };
  return {
    env,
    fix(f: Fix) {
      clock = f.timestamp;
      onFix?.({ coords: { longitude: f.lon, latitude: f.lat, accuracy: f.accuracy }, timestamp: f.timestamp } as GeolocationPosition);
    },
    hide() {
      doc.visibilityState = 'hidden';
      listeners.get('visibilitychange')?.();
    },
    show() {
      doc.visibilityState = 'visible';
      listeners.get('visibilitychange')?.();
    },
    get watching() {
      return onFix !== null;
    },
  };
}

/** The recorder panel on a fresh device database, a walk started on a scripted phone. */
async function startedWalk({ online = false } = {}) {
  const db = freshDb();
  const phone = scriptedPhone();
  const ui = render(
    <Provider store={makeStore(undefined, { extra: { db } })}>
      <WalkRecorderPanel pathId={42} pathName="Pot 1" table={table} env={phone.env} online={online} />
    </Provider>,
  );
  fireEvent.click(screen.getByRole('button', { name: slMap.recording.start }));
  await waitFor(() => expect(phone.watching).toBe(true));
  return { db, phone, ui };
}

/** 60 m east, a good fix every 3 m, one a second. */
function walkSixtyMetres(phone: ReturnType<typeof scriptedPhone>): void {
  act(() => {
    for (let s = 0; s <= 20; s += 1) phone.fix(fixAt(s * 3, s));
  });
}

describe('WalkRecorderPanel', () => {
  it('records a scripted walk with a hidden-page gap, summarises it and saves it offline; an interrupted one is offered after reload', async () => {
    const { db, phone, ui } = await startedWalk();
    walkSixtyMetres(phone);
    act(() => phone.fix(fixAt(40, 21, 60))); // poor accuracy: rejected
    // Shown once stored, the rejected fix too.
    await waitFor(() => expect(screen.queryByRole('alert')?.textContent).toContain('±60 m'));
    expect(screen.getByTestId('walk-distance').textContent).toBe('60 m');
    act(() => phone.hide());
    act(() => phone.show());
    act(() => {
      for (let s = 30; s <= 40; s += 1) phone.fix(fixAt(s * 3, s));
    });
    await waitFor(() => expect(screen.getByTestId('walk-distance').textContent).toBe('90 m'));

    // "Reload": the page's walk session is gone; a second panel on the same database finds the interrupted recording.
    forgetWalkSession(db);
    const reloaded = render(
      <Provider store={makeStore(undefined, { extra: { db } })}>
        <WalkRecorderPanel pathId={42} table={table} env={scriptedPhone().env} />
      </Provider>,
    );
    await waitFor(() => expect(reloaded.getAllByText(slMap.recording.resumePrompt)).toHaveLength(1));
    reloaded.unmount();

    fireEvent.click(screen.getByRole('button', { name: slMap.recording.finish }));
    const summary = screen.getByTestId('walk-summary').textContent ?? '';
    expect(summary).toContain('32/33'); // 32 good of 33 fixes
    expect(summary).toContain(slMap.recording.gaps);
    fireEvent.click(screen.getByRole('button', { name: slMap.recording.save }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(slMap.recording.saved));
    const [item] = await db.outbox.toArray();
    expect(item?.geometry?.type).toBe('MultiLineString'); // the hidden gap is not a straight line
    expect(await loadWalk(db)).toBeNull();
    ui.unmount();
  });

  it('shows a fix once it is stored: a reload right after the distance shows finds the walk as shown', async () => {
    const { db, phone, ui } = await startedWalk();
    walkSixtyMetres(phone);
    await waitFor(() => expect(screen.getByTestId('walk-distance').textContent).toBe('60 m'));
    // The page goes away now: what the database holds is what the next page load resumes.
    const stored = await loadWalk(db);
    expect(formatDistance(distanceWalked(replay(stored!.events, stored!.header.options)))).toBe('60 m');
    ui.unmount();
  });

  it('says the walk is being sent when it is saved online', async () => {
    const { db, phone } = await startedWalk({ online: true });
    walkSixtyMetres(phone);
    fireEvent.click(screen.getByRole('button', { name: slMap.recording.finish }));
    fireEvent.click(screen.getByRole('button', { name: slMap.recording.save }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(slMap.recording.savedOnline));
    expect(await db.outbox.count()).toBe(1);
  });
});

describe('a walk behind other screens', () => {
  it("goes on when its path's screen is left (the form is filled in on the walk): the frame's bar names it and leads back, where it is finished whole", async () => {
    const { db, phone, ui } = await startedWalk();
    walkSixtyMetres(phone);
    await waitFor(() => expect(screen.getByTestId('walk-distance').textContent).toBe('60 m'));
    // To the form: the path's screen (and its panel) goes.
    ui.unmount();
    const frame = render(<WalkBar currentPath="/forms/7" />);
    const bar = () => frame.queryByRole('complementary', { name: sl.walkBar.label });
    expect(bar()?.firstChild?.textContent).toBe(sl.walkBar.recording('60 m'));
    // The farmer walks on while marking the plants.
    act(() => {
      for (let s = 21; s <= 30; s += 1) phone.fix(fixAt(s * 3, s));
    });
    await waitFor(() => expect(bar()?.firstChild?.textContent).toBe(sl.walkBar.recording('90 m')));
    expect(phone.watching).toBe(true);
    expect(frame.getByRole('link', { name: sl.walkBar.backTo('Pot 1') }).getAttribute('href')).toBe('#/paths/42');
    // Back on the path's screen the bar goes (the panel shows the walk) and the walk is one line.
    frame.rerender(<WalkBar currentPath="/paths/42" />);
    expect(bar()).toBeNull();
    render(
      <Provider store={makeStore(undefined, { extra: { db } })}>
        <WalkRecorderPanel pathId={42} pathName="Pot 1" table={table} env={scriptedPhone().env} />
      </Provider>,
    );
    expect(screen.getByTestId('walk-distance').textContent).toBe('90 m');
    fireEvent.click(screen.getByRole('button', { name: slMap.recording.finish }));
    // Finished and not saved: elsewhere the bar still leads back, to save it.
    frame.rerender(<WalkBar currentPath="/" />);
    expect(bar()?.firstChild?.textContent).toBe(sl.walkBar.finished('90 m'));
    fireEvent.click(screen.getByRole('button', { name: slMap.recording.save }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(slMap.recording.saved));
    const [item] = await db.outbox.toArray();
    expect(item?.geometry?.type).toBe('LineString'); // no gap where the screen changed
    expect(phone.watching).toBe(false);
    expect(frame.container.textContent).toBe('');
  });

  it("another path's screen names the walk under way and leads to it instead of starting a second one", async () => {
    const { db, phone } = await startedWalk();
    walkSixtyMetres(phone);
    cleanup();
    render(
      <Provider store={makeStore(undefined, { extra: { db } })}>
        <WalkRecorderPanel pathId={43} pathName="Pot 2" table={table} />
      </Provider>,
    );
    expect(screen.getByRole('status').textContent).toBe(slMap.recording.otherPath('Pot 1'));
    expect(screen.getByRole('link', { name: slMap.recording.toOtherPath }).getAttribute('href')).toBe('#/paths/42');
    expect(screen.queryByRole('button', { name: slMap.recording.start })).toBeNull();
  });
});

describe('recorder display formats', () => {
  it('writes distances and shares with a Slovenian decimal comma', () => {
    expect([formatDistance(60.4), formatDistance(1250), formatDistance(1500), formatDistance(12_345.6), formatPercent(0.973)]).toEqual([
      '60 m',
      '1,25 km',
      '1,5 km',
      '12,35 km',
      '97 %',
    ]);
  });
});
