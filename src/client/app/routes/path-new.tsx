/**
 * A new transect on one's own meadow ('/paths/new?area=ID'): farmers draw it with Mapbox GL Draw or
 * walk it (the walk recorder creates the path when the walk is saved). Both go through the outbox,
 * offline too. features/setup's path form, features/map's map, drawing tool and recorder.
 */
import { useCallback, useMemo, useState } from 'react';
import type { MultiLineString } from 'geojson';
import { slSetup } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { BackIcon } from '../../components/icons/icons';
import { Loading } from '../../components/loading/loading';
import { Page } from '../../components/page/page';
import { GeometryEditor, MapView, recordsToMapItems, WalkRecorderPanel, type MapEngine, type MapItem } from '../../features/map';
import { PathForm, pathEdit, type DrawSlots, type PathDraft } from '../../features/setup';
import { queryValue } from '../router/match';
import type { ScreenProps } from '../router/routes';
import { useSaveEdits, useSeasonView } from './screen-data';
import { routeHref } from '../../lib/links';
import { useRouter } from '../router/router';

export default function PathNewRoute({ query }: ScreenProps) {
  const { navigate } = useRouter();
  const view = useSeasonView();
  const saveEdits = useSaveEdits();
  const { config } = view;
  const [engine, setEngine] = useState<MapEngine | null>(null);
  const [track, setTrack] = useState<number[][][]>([]);
  const areas = useMemo(() => view.areas.filter((a) => !a.archived), [view.areas]);
  const start = useMemo<PathDraft>(() => ({ name: '', areaId: String(queryValue(query, 'area') ?? ''), how: 'draw', initial: null }), [query]);

  const slots: DrawSlots = {
    renderMap: ({ areas: shown }) => {
      if (!config) return null;
      const items: MapItem[] = recordsToMapItems({ areas: shown, paths: [], selectedPathId: null }, config.tables);
      if (track.some((s) => s.length > 1))
        items.push({
          kind: 'path',
          id: -1,
          name: '',
          selected: true,
          geometry: { type: 'MultiLineString', coordinates: track.filter((s) => s.length > 1) } as MultiLineString,
        });
      return <MapView items={items} height="min(55vh, 460px)" onReady={setEngine} fitKey={shown.map((a) => a.id).join(',')} />;
    },
    renderDraw: ({ mode, initial, onChange, hint }) => (
      <GeometryEditor engine={engine} mode={mode} initial={initial} onChange={onChange} hint={hint} embedded />
    ),
  };

  const opened = useCallback((id: number) => void navigate(routeHref('path', { pathId: id })), [navigate]);
  const back = <Button href={routeHref('paths')} kind="ghost" icon={BackIcon} text={slSetup.paths.title} />;
  if (!config) return <Loading />;
  return (
    <Page title={slSetup.paths.newForFarmer} lead={slSetup.paths.newForFarmerLead} back={back}>
      {view.hasData && areas.length === 0 ? (
        <p>{slSetup.paths.noAreas}</p>
      ) : (
        <PathForm
          config={config}
          areas={areas}
          draft={start}
          walkLabel={slSetup.paths.howWalkSelf}
          {...slots}
          onCancel={() => void navigate(routeHref('paths'))}
          onSave={async (draft, geometry) => (await saveEdits([pathEdit(config, draft, geometry)]))[0]?.id}
          onDone={opened}
          walkSlot={(draft, finish) => (
            <section className="card">
              <p>{slSetup.paths.walkNext}</p>
              <WalkRecorderPanel
                pathId={0}
                pathName={draft.name}
                table={{
                  projectId: config.projectId,
                  tableId: config.tables.paths.id,
                  columns: { walk: config.tables.paths.columns.walk, length_m: config.tables.paths.columns.length_m },
                }}
                onTrack={setTrack}
                engine={engine}
                online={view.online}
                createPath={async () => {
                  const [saved] = await saveEdits([pathEdit(config, draft, null)]);
                  if (!saved) throw new Error(slSetup.common.refused);
                  return saved.id;
                }}
                onSaved={(_result, id) => finish(id)}
              />
            </section>
          )}
        />
      )}
    </Page>
  );
}
