/**
 * One path ('/paths/{pathId}'): features/paths' screen with the map and the walk recorder
 * of features/map, the season rows of features/season, earlier seasons from features/results, and
 * new forms saved through the outbox (features/sync).
 */
import { useCallback, useMemo, useState } from 'react';
import type { Geometry, MultiLineString } from 'geojson';
import { slSetup } from '../../../common/i18n/sl';
import { formKindById } from '../../../common/scheme/form-kinds';
import { Button } from '../../components/button/button';
import { useUnsavedChanges } from '../../components/confirm-leave/unsaved-changes';
import { readRow, toProperties } from '../../lib/db/model';
import { refKeysFor } from '../../lib/db/refs';
import { GeometryEditor, MapView, recordsToMapItems, WalkRecorderPanel, type MapEngine, type MapItem } from '../../features/map';
import { PathScreen, type PathFormItem, buildPathRows } from '../../features/paths';
import { ReviewBadge, reviewedForm } from '../../features/review';
import { buildResults, PathHistory, useSeasonHistory } from '../../features/results';
import type { ScreenProps } from '../router/routes';
import { useReloadSeason, useSaveEdits, useSeasonView } from './screen-data';
import { routeHref } from '../../lib/links';
import { useRouter } from '../router/router';

export default function PathRoute({ params }: ScreenProps) {
  const { navigate } = useRouter();
  const pathId = Number(params.pathId);
  const view = useSeasonView();
  const reload = useReloadSeason();
  const saveEdits = useSaveEdits();
  const { config } = view;
  const [track, setTrack] = useState<number[][][]>([]);
  const row = useMemo(() => (config ? (buildPathRows(view, config).find((r) => r.id === pathId) ?? null) : null), [config, view, pathId]);
  const pathIds = useMemo(() => (Number.isFinite(pathId) ? [pathId] : []), [pathId]);
  const history = useSeasonHistory(config, pathIds, view.online, view.loadedAt);
  const results = useMemo(
    () => (config && history.data ? buildResults(config, view, history.data).filter((r) => r.pathId === pathId) : null),
    [config, view, history.data, pathId],
  );
  const onTrack = useCallback((segments: number[][][]) => setTrack(segments), []);
  const [engine, setEngine] = useState<MapEngine | null>(null);
  // Correcting the line with Draw: the line as it was when correcting began (a reload meanwhile
  // must not restart the drawing), and whether the drawing differs from it (the leave guard).
  const [correcting, setCorrecting] = useState<Geometry | null>(null);
  const [corrected, setCorrected] = useState(false);
  const [correctionSaved, setCorrectionSaved] = useState(false);
  const [walkCorrected, setWalkCorrected] = useState(false);
  useUnsavedChanges((correcting !== null && corrected) || walkCorrected);
  const onCorrection = useCallback(
    (geometry: Geometry | null) => setCorrected(correcting !== null && JSON.stringify(geometry) !== JSON.stringify(correcting)),
    [correcting],
  );

  if (!config) return <PathScreen {...emptyProps()} />;
  const kinds = Object.values(config.forms).map((k) => ({ id: k.id, title: k.title }));
  const forms: PathFormItem[] = (row?.forms ?? []).map((form) => {
    const stored = view.forms.find((f) => f.id === form.id);
    const review = stored ? reviewedForm(config, stored) : null;
    return {
      id: form.id,
      kindTitle: formKindById(form.form_id, config.forms)?.title ?? '',
      score: form.score,
      completed: form.completed === true,
      updatedAt: form.updatedAt,
      review: review ? (
        <span className="path-form__review">
          <ReviewBadge state={review.review_state} size="small" />
          {review.review_state === 'returned' && review.review_reason ? (
            <span className="path-form__reason" data-testid={`path-form-reason-${form.id}`}>
              {review.review_reason}
            </span>
          ) : null}
        </span>
      ) : undefined,
    };
  });
  const path = view.paths.find((p) => p.id === pathId);
  const area = view.areas.find((a) => a.id === row?.areaId);
  // While correcting, Draw shows the line; the stored one would sit under it.
  const items: MapItem[] = recordsToMapItems({ areas: area ? [area] : [], paths: path && !correcting ? [path] : [], selectedPathId: pathId }, config.tables);
  if (track.some((s) => s.length > 1)) {
    items.push({
      kind: 'path',
      id: -1,
      name: '',
      selected: true,
      geometry: { type: 'MultiLineString', coordinates: track.filter((s) => s.length > 1) } as MultiLineString,
    });
  }
  const canEdit = view.role === 'farmer' || view.role === 'editor';
  const seasonName = view.duration ? (readRow(config, 'durations', view.duration).name ?? '') : null;

  const onAddForm = async (kindId: number) => {
    const kind = formKindById(kindId, config.forms);
    if (!row || row.durationPathId === null || !kind) throw new Error('no duration path');
    const saved = await saveEdits([
      {
        kind: 'insert',
        projectId: config.projectId,
        tableId: config.tables.forms.id,
        properties: toProperties(config, 'forms', {
          parent: row.durationPathId,
          form_id: kindId,
          completed: false,
          score: kind.scoring.base,
          rule_version: kind.scoring.version,
        }),
        refs: refKeysFor(config, 'forms'),
      },
    ]);
    return saved[0]!.id;
  };

  return (
    <PathScreen
      row={row}
      seasonName={seasonName}
      forms={forms}
      formKinds={kinds}
      canEdit={canEdit}
      status={view.status}
      error={view.error}
      fromDevice={view.fromDevice}
      hasData={view.hasData}
      onRetry={reload}
      onAddForm={onAddForm}
      onOpenForm={(id) => void navigate(routeHref('form', { formId: id }))}
      map={<MapView items={items} height="min(55vh, 420px)" onReady={setEngine} />}
      recorder={
        row && correcting && path ? (
          <GeometryEditor
            engine={engine}
            mode="line"
            initial={correcting}
            hint={slSetup.paths.correctHint}
            target={{ projectId: config.projectId, tableId: config.tables.paths.id, id: path.id }}
            onChange={onCorrection}
            onDone={(geometry) => {
              setCorrecting(null);
              setCorrected(false);
              setCorrectionSaved(geometry !== null);
              if (geometry) reload();
            }}
          />
        ) : row ? (
          <>
            {path?.geometry && (path.geometry.type === 'LineString' || path.geometry.type === 'MultiLineString') && track.length === 0 ? (
              <div className="mt-recorder__actions">
                <Button
                  kind="secondary"
                  text={slSetup.paths.correct}
                  onClick={() => {
                    setCorrectionSaved(false);
                    setCorrecting(path.geometry ?? null);
                  }}
                />
              </div>
            ) : null}
            {correctionSaved ? <p role="status">{slSetup.paths.corrected}</p> : null}
            <WalkRecorderPanel
              pathId={pathId}
              pathName={row.name}
              table={{
                projectId: config.projectId,
                tableId: config.tables.paths.id,
                columns: { walk: config.tables.paths.columns.walk, length_m: config.tables.paths.columns.length_m },
              }}
              onTrack={onTrack}
              engine={engine}
              onCorrecting={setWalkCorrected}
              online={view.online}
              onSaved={() => {
                setTrack([]);
                reload();
              }}
            />
          </>
        ) : null
      }
      onArchive={
        view.role === 'editor'
          ? async () => {
              await saveEdits([{ kind: 'archive', projectId: config.projectId, tableId: config.tables.paths.id, id: pathId }]);
              await navigate(routeHref('paths'));
            }
          : undefined
      }
      previous={<PathHistory rows={results} currentDurationId={view.duration?.id ?? null} status={history.status} fromDevice={history.fromDevice} />}
    />
  );
}

function emptyProps() {
  return {
    row: null,
    seasonName: null,
    forms: [],
    formKinds: [],
    canEdit: false,
    status: 'loading' as const,
    error: null,
    fromDevice: false,
    hasData: false,
    onAddForm: async () => 0,
    onOpenForm: () => undefined,
  };
}
