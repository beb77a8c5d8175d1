/**
 * Walk recording for one path: start, pause/resume, finish with the quality summary,
 * save the simplified line through the outbox (optionally corrected with Draw first: stray
 * points moved or deleted, ends trimmed; the raw fixes are kept as recorded), or discard. An
 * interrupted recording (reload, crash) is offered for resumption first. The walk is the page's
 * (walk-session.ts): it goes on when this screen is left, and another path's screen names it
 * instead of starting a second. The screen of a path renders this beside MapView and passes
 * `onTrack` to draw the live track.
 */
import { useEffect, useMemo, useState } from 'react';
import { formatDistance, formatNumber } from '../../../../common/format';
import { slMap, slSetup } from '../../../../common/i18n/sl';
import type { LineString, MultiLineString } from 'geojson';
import { Button } from '../../../components/button/button';
import type { MapEngine } from '../../../lib/map/map-engine';
import type { LonLat } from '../../../lib/map/geo';
import { formatDuration, formatPercent } from '../recording/format';
import { saveWalk, type PathsTableRef } from '../recording/save-walk';
import { distanceWalked, durationMs, type RecorderOptions, type WalkResult } from '../recording/track-recorder';
import { useWalkRecorder, type WalkRecorderEnv } from '../recording/use-walk-recorder';
import { useOfflineDb } from '../../../app/hooks';
import { routeHref } from '../../../lib/links';
import { GeometryEditor } from './geometry-editor';

export interface WalkRecorderPanelProps {
  pathId: number;
  pathName?: string;
  table: PathsTableRef;
  options?: Partial<RecorderOptions>;
  env?: WalkRecorderEnv;
  /** The live track (segments of accepted fixes) for the map. */
  onTrack?: (segments: LonLat[][]) => void;
  /** Called after the walk was saved locally (the outbox sends it when online). */
  onSaved?: (result: WalkResult, pathId: number) => void;
  /**
   * A path that does not exist yet (a farmer walking a new transect): called when the walk is
   * saved, it creates the path through the outbox and returns its id; the walk is saved onto it.
   */
  createPath?: () => Promise<number>;
  /** The map's engine: with it the walked line can be corrected with Draw before it is saved. */
  engine?: MapEngine | null;
  /** Whether a correction of the finished walk is drawn and not saved yet (for the leave-page guard). */
  onCorrecting?: (unsaved: boolean) => void;
  /** Whether the device is online: the saved walk is then sent at once, and the message says so. */
  online?: boolean;
}

export function WalkRecorderPanel({
  pathId,
  pathName,
  table,
  options,
  env,
  onTrack,
  onSaved,
  createPath,
  engine = null,
  onCorrecting,
  online = false,
}: WalkRecorderPanelProps) {
  const db = useOfflineDb();
  const stableOptions = useMemo(() => options ?? {}, [options]);
  const recorder = useWalkRecorder(db, stableOptions, env);
  const { state, result } = recorder;
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Correcting the walked line before saving: the drawing tool is open / the line it holds now.
  const [correcting, setCorrecting] = useState(false);
  const [corrected, setCorrected] = useState<LineString | MultiLineString | null>(null);
  useEffect(() => onCorrecting?.(corrected !== null), [corrected, onCorrecting]);

  // Only this path's walk is drawn on its map.
  const ownWalk = recorder.pathId === null || recorder.pathId === pathId;
  // The address of this screen, where a walk started here is finished.
  const here = () => (typeof window !== 'undefined' && window.location.hash) || routeHref('path', { pathId });
  useEffect(() => {
    onTrack?.(ownWalk ? state.segments : []);
  }, [state.segments, ownWalk, onTrack]);

  const limit = state.options.maxAccuracyM;
  const accuracy = state.lastAccuracy;

  // One walk at a time: another path's walk under way (or finished, not saved yet) is named, with the way to it.
  // (A walk's session knows its path and the screen it returns to together.)
  if (!ownWalk && state.status !== 'idle' && recorder.returnTo !== null) {
    return (
      <section className="mt-recorder" aria-label={slMap.recording.title}>
        <p role="status">{slMap.recording.otherPath(recorder.pathName ?? '')}</p>
        <div className="mt-recorder__actions">
          <Button text={slMap.recording.toOtherPath} href={recorder.returnTo} />
        </div>
      </section>
    );
  }

  if (recorder.interrupted && state.status === 'idle') {
    return (
      <section className="mt-recorder" aria-label={slMap.recording.title}>
        <p role="status">{slMap.recording.resumePrompt}</p>
        <div className="mt-recorder__actions">
          <Button text={slMap.recording.resumeYes} onClick={() => recorder.resumeInterrupted(here())} />
          <Button kind="secondary" text={slMap.recording.resumeNo} onClick={() => void recorder.discard()} />
        </div>
      </section>
    );
  }

  if (result && state.status === 'finished') {
    const s = result.summary;
    const save = async () => {
      setSaving(true);
      try {
        const target = createPath ? await createPath() : (recorder.pathId ?? pathId);
        // A corrected line replaces the simplified one; the raw fixes are saved as recorded.
        await saveWalk(db, table, target, corrected ? { ...result, geometry: corrected } : result, state.raw, state.startedAt ?? Date.now());
        setCorrecting(false);
        setCorrected(null);
        await recorder.clear();
        setMessage(online ? slMap.recording.savedOnline : slMap.recording.saved);
        onSaved?.(result, target);
      } catch {
        setMessage(slMap.recording.saveFailed);
      } finally {
        setSaving(false);
      }
    };
    return (
      <section className="mt-recorder" aria-label={slMap.recording.summaryTitle}>
        <h3>{slMap.recording.summaryTitle}</h3>
        <dl className="mt-recorder__summary" data-testid="walk-summary">
          <dt>{slMap.recording.distance}</dt>
          <dd>{formatDistance(s.distanceM)}</dd>
          <dt>{slMap.recording.duration}</dt>
          <dd>{formatDuration(s.durationMs)}</dd>
          <dt>{slMap.recording.goodShare}</dt>
          <dd>
            {formatPercent(s.goodShare)} ({s.goodFixes}/{s.totalFixes})
          </dd>
          <dt>{slMap.recording.gaps}</dt>
          <dd>{s.gaps}</dd>
          <dt>{slMap.recording.pauses}</dt>
          <dd>{s.pauses}</dd>
          <dt>{slMap.recording.rejectedJumps}</dt>
          <dd>{s.rejectedJumps}</dd>
          <dt>{slMap.recording.rejectedAccuracy}</dt>
          <dd>{s.rejectedAccuracy}</dd>
          <dt>{slMap.recording.points}</dt>
          <dd>
            {s.rawVertices} / {s.simplifiedVertices}
          </dd>
        </dl>
        {result.geometry ? null : <p role="alert">{slMap.recording.noGeometry}</p>}
        {correcting && result.geometry ? (
          <GeometryEditor
            engine={engine}
            mode="line"
            initial={result.geometry}
            hint={slSetup.paths.correctHint}
            embedded
            onChange={(g) => setCorrected(g && (g.type === 'LineString' || g.type === 'MultiLineString') ? g : null)}
          />
        ) : null}
        <div className="mt-recorder__actions">
          {engine && result.geometry && !correcting ? <Button kind="secondary" text={slSetup.paths.correct} onClick={() => setCorrecting(true)} /> : null}
          <Button text={slMap.recording.save} disabled={!result.geometry || saving} onClick={() => void save()} />
          <Button
            kind="danger"
            text={slMap.recording.discard}
            onClick={() => {
              setCorrecting(false);
              setCorrected(null);
              void recorder.discard();
            }}
          />
        </div>
        {message ? <p role="status">{message}</p> : null}
      </section>
    );
  }

  if (state.status === 'recording' || state.status === 'paused') {
    return (
      <section className="mt-recorder" aria-label={slMap.recording.title} data-status={state.status}>
        <p role="status">
          <strong>{state.status === 'recording' ? slMap.recording.statusRecording : slMap.recording.statusPaused}</strong>
          {pathName ? ` — ${pathName}` : null}
        </p>
        <div className="mt-recorder__stats">
          <div className="mt-recorder__stat">
            {slMap.recording.distance}
            <strong data-testid="walk-distance">{formatDistance(distanceWalked(state))}</strong>
          </div>
          <div className="mt-recorder__stat">
            {slMap.recording.duration}
            <strong>{formatDuration(durationMs(state, recorder.now))}</strong>
          </div>
          <div className="mt-recorder__stat">
            {slMap.recording.accuracy}
            <strong>{accuracy === null ? '–' : `±${Math.round(accuracy)} m`}</strong>
          </div>
        </div>
        {accuracy === null && state.status === 'recording' ? <p>{slMap.recording.waitingForFix}</p> : null}
        {accuracy !== null && accuracy > limit ? (
          <p role="alert">{slMap.recording.poorAccuracy.replace('{m}', formatNumber(accuracy, 0)).replace('{limit}', formatNumber(limit, 0))}</p>
        ) : null}
        <p className="mt-recorder__hint">{slMap.recording.goesOn}</p>
        {state.status === 'recording' && !recorder.wakeLockHeld ? <p>{slMap.recording.wakeLockUnavailable}</p> : null}
        {recorder.error === 'unsupported' ? <p role="alert">{slMap.recording.unsupported}</p> : null}
        {recorder.error === 'storage' ? <p role="alert">{slMap.recording.saveFailed}</p> : null}
        <div className="mt-recorder__actions">
          {state.status === 'recording' ? (
            <Button kind="secondary" text={slMap.recording.pause} onClick={() => recorder.pause()} />
          ) : (
            <Button kind="secondary" text={slMap.recording.resume} onClick={() => recorder.resume()} />
          )}
          <Button text={slMap.recording.finish} onClick={() => recorder.finish()} />
        </div>
      </section>
    );
  }

  return (
    <section className="mt-recorder" aria-label={slMap.recording.title}>
      <div className="mt-recorder__actions">
        <Button text={slMap.recording.start} onClick={() => void recorder.start(pathId, pathName, here())} />
      </div>
      {message ? <p role="status">{message}</p> : null}
    </section>
  );
}
