/**
 * The walk recorder's rules as pure functions over a plain, serialisable state (no timers, no
 * geolocation, no storage): the hook in use-walk-recorder.ts feeds it real fixes and persists
 * every raw fix as it comes; tests feed it scripted ones.
 *
 * Rules (docs/maps.md, Walk recording):
 * - a fix worse than `maxAccuracyM` (default 20 m) is rejected ("accuracy");
 * - a fix that implies a speed above `maxSpeedMps` from the last accepted fix, by more than the
 *   two fixes' uncertainty, is rejected ("jump"); after `reanchorAfter` consistent jumps in a row
 *   the earlier anchor was the outlier, so a new segment starts there;
 * - a fix within `stillRadiusM` (or half its accuracy) of the last vertex is counted as good but
 *   adds no vertex, so standing still does not accumulate jitter as distance;
 * - pause, page hidden and a silence longer than `gapMs` end the segment: the next good fix starts
 *   a new one, so a gap is never drawn as a straight line. The geometry is a LineString for one
 *   segment and a MultiLineString for several.
 */
import type { LineString, MultiLineString } from 'geojson';
import { distanceM, lineLengthM, type LonLat } from '../../../lib/map/geo';
import { simplifyLine, toleranceForAccuracy } from '../../../lib/map/simplify';

export interface Fix {
  lon: number;
  lat: number;
  /** Horizontal accuracy radius (m, 68 %), as GeolocationCoordinates.accuracy. */
  accuracy: number;
  /** ms since epoch. */
  timestamp: number;
}

type FixVerdict = 'good' | 'still' | 'accuracy' | 'jump' | 'ignored';

export interface RawFix extends Fix {
  verdict: FixVerdict;
  /** Segment the fix was added to (good fixes only). */
  segment?: number;
}

export interface RecorderOptions {
  maxAccuracyM: number;
  maxSpeedMps: number;
  gapMs: number;
  stillRadiusM: number;
  reanchorAfter: number;
}

const DEFAULT_RECORDER_OPTIONS: RecorderOptions = {
  maxAccuracyM: 20,
  // Brisk walking is ~1.5 m/s; 5 m/s leaves room for a jog and timestamp jitter, while the GPS
  // jumps seen in forests and near buildings (tens of metres within a second) stay far above.
  maxSpeedMps: 5,
  gapMs: 30_000,
  stillRadiusM: 2,
  reanchorAfter: 3,
};

type RecorderStatus = 'idle' | 'recording' | 'paused' | 'finished';

export interface RecorderState {
  status: RecorderStatus;
  options: RecorderOptions;
  /** Accepted vertices, one array per segment. */
  segments: LonLat[][];
  /** Accuracy of each accepted vertex, parallel to segments (for the median). */
  accuracies: number[];
  /** Every fix received while recording, with its verdict: the raw track that is kept. */
  raw: RawFix[];
  /** Whether the next good fix must open a new segment. */
  breakPending: boolean;
  lastAccepted: Fix | null;
  /** Consecutive jump rejections (candidate re-anchor), with their index in raw. */
  jumpRun: Array<Fix & { rawIndex: number }>;
  gaps: number;
  pauses: number;
  startedAt: number | null;
  /** Active recording time accumulated before the current run. */
  activeMs: number;
  /** Start of the current recording run (null while paused). */
  runStartedAt: number | null;
  lastAccuracy: number | null;
}

export function createRecorder(options: Partial<RecorderOptions> = {}): RecorderState {
  return {
    status: 'idle',
    options: { ...DEFAULT_RECORDER_OPTIONS, ...options },
    segments: [],
    accuracies: [],
    raw: [],
    breakPending: true,
    lastAccepted: null,
    jumpRun: [],
    gaps: 0,
    pauses: 0,
    startedAt: null,
    activeMs: 0,
    runStartedAt: null,
    lastAccuracy: null,
  };
}

export function start(state: RecorderState, now: number): RecorderState {
  if (state.status !== 'idle') return state;
  return { ...state, status: 'recording', startedAt: now, runStartedAt: now, breakPending: true };
}

export function pause(state: RecorderState, now: number): RecorderState {
  if (state.status !== 'recording') return state;
  return {
    ...state,
    status: 'paused',
    activeMs: state.activeMs + Math.max(0, now - (state.runStartedAt ?? now)),
    runStartedAt: null,
    breakPending: true,
    pauses: state.pauses + 1,
    jumpRun: [],
  };
}

export function resume(state: RecorderState, now: number): RecorderState {
  if (state.status !== 'paused') return state;
  return { ...state, status: 'recording', runStartedAt: now, breakPending: true, lastAccepted: null };
}

/**
 * The page was hidden (screen locked, app switched): geolocation stops delivering, so whatever
 * happened meanwhile is unknown. Record it as a pause of the line (not of the clock).
 */
export function markHidden(state: RecorderState): RecorderState {
  if (state.status !== 'recording' || state.breakPending) return state;
  return { ...state, breakPending: true, gaps: state.gaps + 1, jumpRun: [] };
}

export function finish(state: RecorderState, now: number): RecorderState {
  if (state.status === 'finished' || state.status === 'idle') return { ...state, status: 'finished' };
  const activeMs = state.status === 'recording' ? state.activeMs + Math.max(0, now - (state.runStartedAt ?? now)) : state.activeMs;
  return { ...state, status: 'finished', activeMs, runStartedAt: null };
}

function openSegment(state: RecorderState, fix: Fix, raw: RawFix[], countGap: boolean): RecorderState {
  const segments = [...state.segments, [[fix.lon, fix.lat] as LonLat]];
  raw.push({ ...fix, verdict: 'good', segment: segments.length - 1 });
  return {
    ...state,
    segments,
    accuracies: [...state.accuracies, fix.accuracy],
    raw,
    breakPending: false,
    lastAccepted: fix,
    jumpRun: [],
    gaps: state.gaps + (countGap ? 1 : 0),
  };
}

/** Feed one fix; returns the new state (its last raw entry carries the verdict). */
export function addFix(state: RecorderState, fix: Fix): RecorderState {
  const raw = [...state.raw];
  const withAccuracy = { ...state, lastAccuracy: fix.accuracy };
  if (state.status !== 'recording' || !Number.isFinite(fix.lon) || !Number.isFinite(fix.lat)) {
    if (state.status === 'recording') raw.push({ ...fix, verdict: 'ignored' });
    return { ...withAccuracy, raw };
  }
  const { options } = state;
  if (!(fix.accuracy <= options.maxAccuracyM)) {
    raw.push({ ...fix, verdict: 'accuracy' });
    return { ...withAccuracy, raw };
  }
  const last = state.lastAccepted;
  // A silence longer than gapMs is a gap: we do not know where the walker went meanwhile.
  const silent = last !== null && fix.timestamp - last.timestamp > options.gapMs;
  if (state.breakPending || last === null || silent) {
    return openSegment(withAccuracy, fix, raw, silent && !state.breakPending);
  }
  const d = distanceM([last.lon, last.lat], [fix.lon, fix.lat]);
  const dt = Math.max(0.001, (fix.timestamp - last.timestamp) / 1000);
  // Only the part of the move that the two fixes' uncertainty cannot explain counts as movement.
  const unexplained = Math.max(0, d - (last.accuracy + fix.accuracy));
  if (unexplained / dt > options.maxSpeedMps) {
    const run = [...state.jumpRun, { ...fix, rawIndex: raw.length }];
    const consistent = run.every(
      (f, i) =>
        i === 0 ||
        distanceM([run[i - 1]!.lon, run[i - 1]!.lat], [f.lon, f.lat]) - (f.accuracy + run[i - 1]!.accuracy) <=
          options.maxSpeedMps * Math.max(0.001, (f.timestamp - run[i - 1]!.timestamp) / 1000),
    );
    if (run.length >= options.reanchorAfter && consistent) {
      // The walker really is over there: the old anchor was the outlier. Re-mark the run's fixes
      // as good and start a new segment from them (counted as a gap: nothing connects them).
      // When the anchor was a lone fix (a segment of one point, e.g. the first fix after a pause),
      // it was the outlier: it becomes a rejected jump and its segment is replaced, no extra gap.
      const lastSegment = state.segments[state.segments.length - 1];
      const loneAnchor = lastSegment !== undefined && lastSegment.length === 1;
      let segments = state.segments;
      let accuracies = state.accuracies;
      if (loneAnchor) {
        let anchorIndex = raw.length - 1;
        while (anchorIndex >= 0 && !(raw[anchorIndex]!.verdict === 'good' && raw[anchorIndex]!.segment === state.segments.length - 1)) anchorIndex -= 1;
        if (anchorIndex >= 0) raw[anchorIndex] = { ...raw[anchorIndex]!, verdict: 'jump', segment: undefined };
        segments = state.segments.slice(0, -1);
        accuracies = state.accuracies.slice(0, -1);
      }
      const segIndex = segments.length;
      for (const f of run.slice(0, -1)) raw[f.rawIndex] = { ...raw[f.rawIndex]!, verdict: 'good', segment: segIndex };
      raw.push({ ...fix, verdict: 'good', segment: segIndex });
      return {
        ...withAccuracy,
        segments: [...segments, run.map((f) => [f.lon, f.lat] as LonLat)],
        accuracies: [...accuracies, ...run.map((f) => f.accuracy)],
        raw,
        lastAccepted: fix,
        jumpRun: [],
        breakPending: false,
        gaps: state.gaps + (loneAnchor ? 0 : 1),
      };
    }
    raw.push({ ...fix, verdict: 'jump' });
    return { ...withAccuracy, raw, jumpRun: consistent ? run : [{ ...fix, rawIndex: raw.length - 1 }] };
  }
  if (d < Math.max(options.stillRadiusM, fix.accuracy / 2)) {
    raw.push({ ...fix, verdict: 'still' });
    // Keep the vertex where it is but refresh the time, so standing still is not a "gap".
    return { ...withAccuracy, raw, lastAccepted: { ...last, timestamp: fix.timestamp }, jumpRun: [] };
  }
  const segments = state.segments.slice();
  const current = segments.length - 1;
  segments[current] = [...segments[current]!, [fix.lon, fix.lat]];
  raw.push({ ...fix, verdict: 'good', segment: current });
  return { ...withAccuracy, segments, accuracies: [...state.accuracies, fix.accuracy], raw, lastAccepted: fix, jumpRun: [] };
}

/** Walked distance (m): segments only, never across gaps. */
export function distanceWalked(state: RecorderState): number {
  return state.segments.reduce((sum, seg) => sum + lineLengthM(seg), 0);
}

/** Active duration (ms) at `now`, pauses excluded. */
export function durationMs(state: RecorderState, now: number): number {
  return state.activeMs + (state.status === 'recording' && state.runStartedAt !== null ? Math.max(0, now - state.runStartedAt) : 0);
}

function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = values.slice().sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface WalkSummary {
  totalFixes: number;
  goodFixes: number;
  /** Share of received fixes that were usable (good or standing still), 0..1. */
  goodShare: number;
  rejectedAccuracy: number;
  rejectedJumps: number;
  gaps: number;
  pauses: number;
  distanceM: number;
  durationMs: number;
  medianAccuracyM: number | null;
  toleranceM: number;
  rawVertices: number;
  simplifiedVertices: number;
}

export interface WalkResult {
  summary: WalkSummary;
  /** LineString for one segment, MultiLineString when gaps split the walk; null if nothing usable. */
  geometry: LineString | MultiLineString | null;
}

/** The end of a walk: quality summary and the simplified geometry to save as the path's line. */
export function summarize(state: RecorderState, now: number): WalkResult {
  const counted = state.raw.filter((r) => r.verdict !== 'ignored');
  const good = counted.filter((r) => r.verdict === 'good' || r.verdict === 'still').length;
  const med = median(state.accuracies);
  const toleranceM = toleranceForAccuracy(med);
  const lines = state.segments.filter((s) => s.length >= 2).map((s) => simplifyLine(s, toleranceM));
  const geometry: WalkResult['geometry'] =
    lines.length === 0 ? null : lines.length === 1 ? { type: 'LineString', coordinates: lines[0]! } : { type: 'MultiLineString', coordinates: lines };
  return {
    summary: {
      totalFixes: counted.length,
      goodFixes: good,
      goodShare: counted.length === 0 ? 0 : good / counted.length,
      rejectedAccuracy: counted.filter((r) => r.verdict === 'accuracy').length,
      rejectedJumps: counted.filter((r) => r.verdict === 'jump').length,
      gaps: state.gaps,
      pauses: state.pauses,
      distanceM: distanceWalked(state),
      durationMs: durationMs(state, now),
      medianAccuracyM: Number.isNaN(med) ? null : med,
      toleranceM,
      rawVertices: state.segments.reduce((n, s) => n + s.length, 0),
      simplifiedVertices: lines.reduce((n, s) => n + s.length, 0),
    },
    geometry,
  };
}

/**
 * Rebuild the state from persisted raw fixes and control events after a reload or crash, by
 * replaying them: the persisted log is the truth, the state is derived.
 */
export type RecorderEvent =
  { kind: 'start'; at: number } | { kind: 'fix'; fix: Fix } | { kind: 'pause'; at: number } | { kind: 'resume'; at: number } | { kind: 'hidden'; at: number };

export function applyEvent(state: RecorderState, event: RecorderEvent): RecorderState {
  switch (event.kind) {
    case 'start':
      return start(state, event.at);
    case 'fix':
      return addFix(state, event.fix);
    case 'pause':
      return pause(state, event.at);
    case 'resume':
      return resume(state, event.at);
    case 'hidden':
      return markHidden(state);
  }
}

export function replay(events: readonly RecorderEvent[], options: Partial<RecorderOptions> = {}): RecorderState {
  return events.reduce(applyEvent, createRecorder(options));
}
