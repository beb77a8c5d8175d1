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
import { useReloadSeason, useSaveEdits, useSeasonView, type SeasonView } from './screen-data';

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

/**
 * The row an offline-made form became: the id the season slice moved it to, else the same creation
 * time, else (a reload read it back from the server, with the server's times) the newest delivered
 * form of the same kind on the same duration-path.
 */
function followDelivered(forms: readonly StoredRecord[], previous: StoredRecord, parentKey: string, kindKey: string, others: ReadonlySet<number>): StoredRecord | null {
  const live = forms.filter((f) => !f.archived);
  return (
    live.find((f) => f.id === previous.id) ??
    live.find((f) => f.createdAt === previous.createdAt) ??
    live
      // Never a form that was already there beside the offline one (a second form of the same
      // kind on the path this season): the answers would be saved into that other form.
      .filter((f) => !isLocalId(f.id) && !others.has(f.id) && f.properties[parentKey] === previous.properties[parentKey] && f.properties[kindKey] === previous.properties[kindKey])
      .sort((a, b) => b.id - a.id)[0] ??
    null
  );
}

export default function FormRoute({ params }: ScreenProps) {
  const formId = Number(params.formId);
  const view = useSeasonView();
  const reload = useReloadSeason();
  const saveEdits = useSaveEdits();
  const { config } = view;
  // An offline-made form keeps the local id of the address after the outbox delivered it and the
  // season slice moved it to its server id: keep following the same row (by its server id, or the
  // creation time it was made with) so the screen and an edit in progress stay on it. Kept out of
  // Redux state on purpose: the QA action log hashes the whole state.
  const lastSeen = useRef<StoredRecord | null>(null);
  // The other forms present while this one still had its offline id: none of them can be it.
  const others = useRef<ReadonlySet<number>>(new Set());
  const direct = view.forms.find((f) => f.id === formId && !f.archived) ?? null;
  if (direct && isLocalId(direct.id)) others.current = new Set(view.forms.filter((f) => f.id !== direct.id).map((f) => f.id));
  const previous = lastSeen.current;
  const moved = !direct && previous && isLocalId(formId) && config ? followDelivered(view.forms, previous, columnKey(config, 'forms', 'parent'), columnKey(config, 'forms', 'form_id'), others.current) : null;
  // Until the delivered form is among the season rows, stay on the row last shown: an edit saved
  // meanwhile names its offline id, which the outbox turns into the server's (delivered ids).
  const kept = !direct && !moved && previous && isLocalId(formId) ? previous : null;
  const inSeason = direct ?? moved ?? kept;
  const stored = useStoredForm(config, formId, view.hasData && !inSeason, view.loadedAt);
  const form = inSeason ?? stored.form;
  if (form) lastSeen.current = form;
  const parentKey = config ? columnKey(config, 'indicators', 'parent') : '';
  const indicators = useMemo(
    () => {
      if (!inSeason) return stored.indicators;
      // While a delivered form's new id spreads through the rows, its indicators may still name
      // the id it had: every id this form has had counts.
      const ids = new Set([inSeason.id, formId, ...(previous ? [previous.id] : [])]);
      return view.indicators.filter((i) => ids.has(i.properties[parentKey] as number));
    },
    [inSeason, view.indicators, stored.indicators, parentKey, formId, previous],
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
