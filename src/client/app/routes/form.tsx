/**
 * One form (seed §2 '/forms/{formId}'): features/forms' checklist over the season rows of
 * features/season (or the device copy for an earlier season), saved through the outbox
 * (features/sync), with features/map for picking an indicator's location on the map.
 */
import { useMemo, useRef, useState } from 'react';
import type { Point } from 'geojson';
import type { DetailedFeature } from '../../../common/schemas/wire';
import type { StoredRecord } from '../../lib/db/database';
import { useFeatureDetailedQuery } from '../../lib/api/features';
import { isLocalId } from '../../lib/db/local-data';
import { columnKey } from '../../lib/db/refs';
import { GeometryEditor, MapView, recordsToMapItems, type MapEngine } from '../../features/map';
import { FormScreen } from '../../features/forms/form-screen';
import { useStoredForm } from '../../features/forms/use-stored-form';
import type { ScreenProps } from '../router/routes';
import { useDeliveredId, useReloadSeason, useSaveEdits, useSeasonView, type SeasonView } from './screen-data';

function PointPicker({ view, pathId, initial, onPick }: { view: SeasonView; pathId: number | null; initial: [number, number] | null; onPick: (lonLat: [number, number]) => void }) {
  const [engine, setEngine] = useState<MapEngine | null>(null);
  const config = view.config!;
  const path = view.paths.find((p) => p.id === pathId);
  const area = view.areas.find((a) => path && a.id === path.properties[columnKey(config, 'paths', 'parent')]);
  const items = recordsToMapItems({ areas: area ? [area] : view.areas, paths: path ? [path] : view.paths, selectedPathId: pathId }, config.tables);
  const start = useMemo<Point | null>(() => (initial ? { type: 'Point', coordinates: initial } : null), [initial]);
  // The editor's hint and buttons go below the map, not inside it: MapView's children are overlays
  // on the map, where the legend covered the save button (proven in Chromium, e2e form-map-location).
  return (
    <>
      <MapView items={items} height="60vh" onReady={setEngine} />
      <GeometryEditor
        engine={engine}
        mode="point"
        initial={start}
        onDone={(geometry) => {
          if (geometry?.type === 'Point') onPick([geometry.coordinates[0]!, geometry.coordinates[1]!]);
        }}
      />
    </>
  );
}

export default function FormRoute({ params }: ScreenProps) {
  const formId = Number(params.formId);
  const view = useSeasonView();
  const reload = useReloadSeason();
  const saveEdits = useSaveEdits();
  const { config } = view;
  // An offline-made form keeps the offline id of the address after the outbox delivered it: the
  // outbox's record of delivered ids says exactly which server row it became (a guess by kind and
  // path once saved a second form's answers into the first). Until that row is among the season
  // rows, stay on the row last shown: an edit saved meanwhile names the offline id, which the
  // outbox turns into the server's. Kept out of Redux state on purpose: the QA action log hashes
  // the whole state.
  const deliveredId = useDeliveredId(formId, `${view.loadedAt}|${view.pending}`);
  const ownIds = deliveredId === null ? [formId] : [formId, deliveredId];
  const lastSeen = useRef<StoredRecord | null>(null);
  const direct = view.forms.find((f) => ownIds.includes(f.id) && !f.archived) ?? null;
  const previous = lastSeen.current;
  const kept = !direct && previous && isLocalId(formId) && ownIds.includes(previous.id) ? previous : null;
  const inSeason = direct ?? kept;
  const stored = useStoredForm(config, deliveredId ?? formId, view.hasData && !inSeason, view.loadedAt);
  const form = inSeason ?? stored.form;
  if (form) lastSeen.current = form;
  const parentKey = config ? columnKey(config, 'indicators', 'parent') : '';
  const indicators = useMemo(
    () => {
      if (!inSeason) return stored.indicators;
      // While a delivered form's new id spreads through the rows, its indicators may still name
      // the id it had: every id this form has had counts.
      const ids = new Set([inSeason.id, formId, ...(deliveredId === null ? [] : [deliveredId])]);
      return view.indicators.filter((i) => ids.has(i.properties[parentKey] as number));
    },
    [inSeason, view.indicators, stored.indicators, parentKey, formId, deliveredId],
  );
  const editor = view.role === 'editor';
  const history = useFeatureDetailedQuery(
    { projectId: config?.projectId ?? 0, tableId: config?.tables.forms.id ?? 0, recordId: form?.id ?? formId },
    { skip: !config || !editor || !view.online || isLocalId(form?.id ?? formId) },
  );
  if (!config) return null;
  const link = form ? [...view.durationPaths].find((d) => d.id === form.properties[columnKey(config, 'forms', 'parent')]) : undefined;
  const pathId = link ? (link.properties[columnKey(config, 'durationPaths', 'path_id')] as number) : null;
  const path = view.paths.find((p) => p.id === pathId);
  const seasonName = inSeason && view.duration ? String(view.duration.properties[columnKey(config, 'durations', 'name')] ?? '') : null;
  // Farmers edit this season's forms; earlier seasons are read-only for them (editors edit any).
  const ofThisSeason = Boolean(link) || Boolean(inSeason);
  const readOnly = view.role === 'reader' || view.role === null || (!ofThisSeason && !editor);
  return (
    <FormScreen
      config={config}
      form={form}
      indicators={indicators}
      pathName={path ? String(path.properties[columnKey(config, 'paths', 'name')] ?? '') : null}
      pathId={pathId}
      seasonName={seasonName}
      readOnly={readOnly}
      canArchive={editor}
      online={view.online}
      status={!inSeason && view.hasData && !stored.done ? 'loading' : view.status}
      error={view.error}
      fromDevice={view.fromDevice}
      hasData={view.hasData && (Boolean(inSeason) || stored.done)}
      onRetry={reload}
      saveEdits={saveEdits}
      onArchive={async () => {
        if (!form) return;
        await saveEdits([{ kind: 'archive', projectId: config.projectId, tableId: config.tables.forms.id, id: form.id }]);
        window.location.hash = pathId !== null ? `#/paths/${pathId}` : '#/forms';
      }}
      onArchiveIndicator={
        editor
          ? async (recordId) => {
              // One archive edit through the outbox; the server rescores the form without it
              // (server form-score.ts), the screen drops it from the live score at once.
              await saveEdits([{ kind: 'archive', projectId: config.projectId, tableId: config.tables.indicators.id, id: recordId }]);
            }
          : undefined
      }
      renderPointPicker={(initial, onPick) => <PointPicker view={view} pathId={pathId} initial={initial} onPick={onPick} />}
      editorKey={String(formId)}
      history={editor ? ((history.data as DetailedFeature | undefined)?.history ?? null) : null}
    />
  );
}
