import { describe, expect, it } from '@jest/globals';
import {
  addFix,
  createRecorder,
  distanceWalked,
  durationMs,
  finish,
  markHidden,
  pause,
  replay,
  resume,
  start,
  summarize,
  type Fix,
  type RecorderEvent,
  type RecorderState,
} from '../../../src/client/features/map/recording/track-recorder';

// A transect in Goričko walked due east at 1 m/s, one fix per second. 1 m of longitude at 46.8°N.
const LAT = 46.8;
const M_LON = 1 / (111_320 * Math.cos((LAT * Math.PI) / 180));
const M_LAT = 1 / 110_574;
const T0 = Date.UTC(2026, 5, 1, 8, 0, 0);

function fixAt(metresEast: number, second: number, accuracy = 5, metresNorth = 0): Fix {
  return { lon: 16.2 + metresEast * M_LON, lat: LAT + metresNorth * M_LAT, accuracy, timestamp: T0 + second * 1000 };
}

function feed(state: RecorderState, fixes: Fix[]): RecorderState {
  return fixes.reduce(addFix, state);
}

const started = () => start(createRecorder(), T0);

describe('walk recorder: accepting fixes', () => {
  it('records a straight walk as one segment with its walked distance', () => {
    const fixes = Array.from({ length: 101 }, (_, s) => fixAt(s * 3, s * 3));
    const state = feed(started(), fixes);
    expect(state.segments).toHaveLength(1);
    expect(state.segments[0]).toHaveLength(101);
    expect(distanceWalked(state)).toBeGreaterThan(299);
    expect(distanceWalked(state)).toBeLessThan(301);
  });

  it('ignores fixes before start and after finish', () => {
    const idle = addFix(createRecorder(), fixAt(0, 0));
    expect(idle.raw).toHaveLength(0);
    expect(idle.segments).toHaveLength(0);
    const done = addFix(finish(feed(started(), [fixAt(0, 0), fixAt(10, 10)]), T0 + 10_000), fixAt(20, 20));
    expect(done.segments[0]).toHaveLength(2);
  });

  it('rejects fixes worse than the configured accuracy (default 20 m)', () => {
    const state = feed(started(), [fixAt(0, 0), fixAt(5, 5, 25), fixAt(15, 10, 20), fixAt(25, 15, 20.5)]);
    expect(state.raw.map((r) => r.verdict)).toEqual(['good', 'accuracy', 'good', 'accuracy']);
    const strict = feed(start(createRecorder({ maxAccuracyM: 8 }), T0), [fixAt(0, 0, 5), fixAt(10, 10, 10)]);
    expect(strict.raw.map((r) => r.verdict)).toEqual(['good', 'accuracy']);
    expect(strict.lastAccuracy).toBe(10);
  });

  it('rejects a jump that implies an impossible speed and keeps walking from the last good fix', () => {
    const fixes = [fixAt(0, 0), fixAt(5, 5), fixAt(200, 6), fixAt(10, 10), fixAt(15, 15)];
    const state = feed(started(), fixes);
    expect(state.raw.map((r) => r.verdict)).toEqual(['good', 'good', 'jump', 'good', 'good']);
    expect(state.segments).toEqual([[fixes[0], fixes[1], fixes[3], fixes[4]].map((f) => [f!.lon, f!.lat])]);
    expect(distanceWalked(state)).toBeLessThan(16);
  });

  it('re-anchors when the first fix was the outlier and later fixes agree with each other', () => {
    // The first fix is 300 m off; the walker is really at 0..; three consistent fixes re-anchor.
    const fixes = [fixAt(300, 0, 10), fixAt(0, 5), fixAt(5, 10), fixAt(10, 15), fixAt(15, 20)];
    const state = feed(started(), fixes);
    // The lone first fix turns out to be the jump; the walk is one segment, no gap.
    expect(state.raw.map((r) => r.verdict)).toEqual(['jump', 'good', 'good', 'good', 'good']);
    expect(state.segments).toHaveLength(1);
    expect(state.segments[0]).toHaveLength(4);
    expect(state.gaps).toBe(0);
    const { geometry, summary } = summarize(state, T0 + 20_000);
    expect(geometry?.type).toBe('LineString');
    expect(summary.rejectedJumps).toBe(1);
  });

  it('re-anchors after a real gap as a new segment when the earlier line was longer than one fix', () => {
    // 3 good fixes, then the walker reappears 300 m away (e.g. a long tunnel of trees) for good.
    const fixes = [fixAt(0, 0), fixAt(5, 5), fixAt(10, 10), fixAt(310, 15), fixAt(315, 20), fixAt(320, 25)];
    const state = feed(started(), fixes);
    expect(state.raw.map((r) => r.verdict)).toEqual(['good', 'good', 'good', 'good', 'good', 'good']);
    expect(state.segments).toHaveLength(2);
    expect(state.gaps).toBe(1);
    expect(distanceWalked(state)).toBeCloseTo(20, 0);
  });

  it('does not count standing-still jitter as distance', () => {
    const jitter = Array.from({ length: 60 }, (_, s) => fixAt((s % 2) * 1.5, s, 4, ((s * 7) % 3) * 0.5));
    const state = feed(started(), jitter);
    expect(distanceWalked(state)).toBeLessThan(3);
    expect(state.raw.filter((r) => r.verdict === 'still').length).toBeGreaterThan(50);
    const { summary } = summarize(state, T0 + 60_000);
    expect(summary.goodShare).toBe(1);
  });
});

describe('walk recorder: pauses and gaps', () => {
  it('pause and resume split the line and exclude the paused time from the duration', () => {
    let state = feed(started(), [fixAt(0, 0), fixAt(10, 10), fixAt(20, 20)]);
    state = pause(state, T0 + 20_000);
    state = addFix(state, fixAt(500, 100)); // arrives while paused: not recorded
    state = resume(state, T0 + 120_000);
    state = feed(state, [fixAt(100, 120), fixAt(110, 130)]);
    expect(state.segments).toHaveLength(2);
    expect(state.pauses).toBe(1);
    expect(state.raw).toHaveLength(5);
    // 20 m + 10 m walked; the 80 m between the segments is not a straight line.
    expect(distanceWalked(state)).toBeCloseTo(30, 0);
    expect(durationMs(state, T0 + 130_000)).toBe(30_000);
    const { geometry, summary } = summarize(finish(state, T0 + 130_000), T0 + 130_000);
    expect(geometry?.type).toBe('MultiLineString');
    expect(summary.pauses).toBe(1);
    expect(summary.durationMs).toBe(30_000);
  });

  it('a hidden page is recorded as a gap, not a straight line', () => {
    let state = feed(started(), [fixAt(0, 0), fixAt(10, 10)]);
    state = markHidden(state);
    state = markHidden(state); // hidden twice without fixes between: still one gap
    state = feed(state, [fixAt(60, 20), fixAt(70, 30)]);
    expect(state.gaps).toBe(1);
    expect(state.segments).toEqual([
      [
        [fixAt(0, 0).lon, LAT],
        [fixAt(10, 10).lon, LAT],
      ],
      [
        [fixAt(60, 20).lon, LAT],
        [fixAt(70, 30).lon, LAT],
      ],
    ]);
  });

  it('a silence longer than gapMs starts a new segment and counts a gap', () => {
    const state = feed(started(), [fixAt(0, 0), fixAt(10, 10), fixAt(40, 100), fixAt(50, 110)]);
    expect(state.segments).toHaveLength(2);
    expect(state.gaps).toBe(1);
  });
});

describe('walk recorder: summary and resumption', () => {
  it('summarises quality and simplifies with a tolerance tied to accuracy', () => {
    // 200 m east in 4 m steps with 0.3 m sideways wobble, plus two bad fixes and one jump.
    const fixes: Fix[] = [];
    for (let s = 0; s <= 200; s += 4) fixes.push(fixAt(s, s, 6, s % 8 === 0 ? 0.3 : -0.3));
    fixes.splice(10, 0, { ...fixAt(20, 21), accuracy: 50 });
    fixes.splice(20, 0, { ...fixAt(20, 39), accuracy: 35 });
    fixes.splice(30, 0, fixAt(900, 57));
    const state = finish(feed(started(), fixes), T0 + 200_000);
    const { summary, geometry } = summarize(state, T0 + 200_000);
    expect(summary.totalFixes).toBe(54);
    expect(summary.rejectedAccuracy).toBe(2);
    expect(summary.rejectedJumps).toBe(1);
    expect(summary.goodFixes).toBe(51);
    expect(summary.goodShare).toBeCloseTo(51 / 54, 5);
    expect(summary.medianAccuracyM).toBe(6);
    expect(summary.toleranceM).toBe(3);
    expect(summary.rawVertices).toBe(51);
    // A straight walk with sub-tolerance wobble collapses to its two ends.
    expect(geometry).toEqual({
      type: 'LineString',
      coordinates: [
        [fixAt(0, 0).lon, expect.any(Number)],
        [fixAt(200, 200).lon, expect.any(Number)],
      ],
    });
    expect(summary.simplifiedVertices).toBe(2);
  });

  it('gives no geometry for a walk without two good fixes', () => {
    const { geometry, summary } = summarize(feed(started(), [fixAt(0, 0, 50)]), T0);
    expect(geometry).toBeNull();
    expect(summary.goodShare).toBe(0);
  });

  it('replaying the persisted event log rebuilds the same state after a reload', () => {
    const events: RecorderEvent[] = [
      { kind: 'start', at: T0 },
      { kind: 'fix', fix: fixAt(0, 0) },
      { kind: 'fix', fix: fixAt(10, 10) },
      { kind: 'hidden', at: T0 + 11_000 },
      { kind: 'fix', fix: fixAt(30, 20) },
      { kind: 'pause', at: T0 + 25_000 },
      { kind: 'resume', at: T0 + 40_000 },
      { kind: 'fix', fix: fixAt(40, 45) },
      { kind: 'fix', fix: fixAt(50, 55) },
    ];
    let live = createRecorder();
    live = start(live, T0);
    live = feed(live, [fixAt(0, 0), fixAt(10, 10)]);
    live = markHidden(live);
    live = addFix(live, fixAt(30, 20));
    live = pause(live, T0 + 25_000);
    live = resume(live, T0 + 40_000);
    live = feed(live, [fixAt(40, 45), fixAt(50, 55)]);
    const rebuilt = replay(events);
    expect(rebuilt).toEqual(live);
    expect(rebuilt.segments).toHaveLength(3);
    expect(durationMs(rebuilt, T0 + 55_000)).toBe(40_000);
  });
});
