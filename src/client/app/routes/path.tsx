/**
 * One path ('/paths/{pathId}'): features/paths' screen with the map and the walk recorder
 * of features/map, the season rows of features/season, earlier seasons from features/results, each
 * form's review state from features/review, and new forms (features/forms) saved through the outbox.
 */
import { useState } from 'react';
import { slSetup } from '../../../common/i18n/sl';
import { archiveEdit } from '../../lib/db/archive-edit';
import { GeometryEditor, MapView, pathsTableRef, recordsToMapItems, WalkRecorderPanel, type MapEngine } from '../../features/map';
import { newFormEdit } from '../../features/forms';
import { PathRecorder, PathScreen, pathScreenLoading, usePathCorrection, usePathView } from '../../features/paths';
import { FormReviewNote } from '../../features/review';
import { PathHistory, usePathResults } from '../../features/results';
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
  const [engine, setEngine] = useState<MapEngine | null>(null);
  const correction = usePathCorrection(reload);
  const screen = usePathView(view, pathId, (form) => (config ? <FormReviewNote config={config} form={form} /> : null));
  const results = usePathResults(config, view, pathId);
  if (!config || !screen) return <PathScreen {...pathScreenLoading} />;
  const { row, path } = screen;
  const items = recordsToMapItems({ ...screen.mapRows(correction.correcting !== null), track }, config.tables);
  return (
    <PathScreen
      {...screen.props}
      status={view.status}
      error={view.error}
      fromDevice={view.fromDevice}
      hasData={view.hasData}
      onRetry={reload}
      onAddForm={async (kindId) => (await saveEdits([newFormEdit(config, row?.durationPathId ?? null, kindId)]))[0]!.id}
      onOpenForm={(id) => void navigate(routeHref('form', { formId: id }))}
      map={<MapView items={items} height="min(55vh, 420px)" onReady={setEngine} />}
      recorder={
        row ? (
          <PathRecorder
            correction={correction}
            line={path?.geometry}
            walking={track.length > 0}
            corrector={
              path
                ? (initial) => (
                    <GeometryEditor
                      engine={engine}
                      mode="line"
                      initial={initial}
                      hint={slSetup.paths.correctHint}
                      target={{ projectId: config.projectId, tableId: config.tables.paths.id, id: path.id }}
                      onChange={correction.onChange}
                      onDone={correction.onDone}
                    />
                  )
                : null
            }
            recorder={
              <WalkRecorderPanel
                pathId={pathId}
                pathName={row.name}
                table={pathsTableRef(config)}
                onTrack={setTrack}
                engine={engine}
                onCorrecting={correction.onWalkCorrecting}
                online={view.online}
                onSaved={() => {
                  setTrack([]);
                  reload();
                }}
              />
            }
          />
        ) : null
      }
      onArchive={
        screen.canArchive
          ? async () => {
              await saveEdits([archiveEdit(config, 'paths', pathId)]);
              await navigate(routeHref('paths'));
            }
          : undefined
      }
      previous={<PathHistory rows={results.rows} currentDurationId={view.duration?.id ?? null} status={results.status} fromDevice={results.fromDevice} />}
    />
  );
}
