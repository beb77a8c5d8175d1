/**
 * A new transect on one's own meadow ('/paths/new?area=ID'): features/setup's screen for it, with
 * features/map's map, drawing tool and walk recorder in its slots; saved through the outbox.
 */
import { useCallback, useState } from 'react';
import { Loading } from '../../components/loading/loading';
import { pathsTableRef, WalkRecorderPanel } from '../../features/map';
import { OwnPathScreen } from '../../features/setup';
import { queryValue } from '../router/match';
import type { ScreenProps } from '../router/routes';
import { useSaveEdits, useSeasonView } from './screen-data';
import { useDrawSlots } from './setup-map';
import { routeHref } from '../../lib/links';
import { useRouter } from '../router/router';

export default function PathNewRoute({ query }: ScreenProps) {
  const { navigate } = useRouter();
  const view = useSeasonView();
  const saveEdits = useSaveEdits();
  const { config } = view;
  const [track, setTrack] = useState<number[][][]>([]);
  const { slots, engine } = useDrawSlots(config, { height: 'min(55vh, 460px)', track });
  const opened = useCallback((id: number) => void navigate(routeHref('path', { pathId: id })), [navigate]);
  if (!config) return <Loading />;
  return (
    <OwnPathScreen
      config={config}
      areas={view.areas}
      hasData={view.hasData}
      areaId={String(queryValue(query, 'area') ?? '')}
      {...slots}
      save={saveEdits}
      onCancel={() => void navigate(routeHref('paths'))}
      onDone={opened}
      renderWalk={(draft, createPath, finish) => (
        <WalkRecorderPanel
          pathId={0}
          pathName={draft.name}
          table={pathsTableRef(config)}
          onTrack={setTrack}
          engine={engine}
          online={view.online}
          createPath={createPath}
          onSaved={(_result, id) => finish(id)}
        />
      )}
    />
  );
}
