/**
 * '/download/new': choose the extent on the map (the dashed frame, or the user's meadows
 * with a buffer), a name and a zoom range; the tile count, estimated size and free space are shown
 * before anything is fetched; then a progress bar that survives going offline (resume) and can be
 * cancelled. app/routes/download-new.tsx renders it; `items` (optional) are the user's meadows to show and to
 * offer as the extent.
 */
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { formatFileSize } from '../../../../common/format';
import { slMap } from '../../../../common/i18n/sl';
import type { Extent } from '../../../../common/schemas/wire';
import { Button } from '../../../components/button/button';
import { BackIcon } from '../../../components/icons/icons';
import { Page } from '../../../components/page/page';
import type { MapEngine } from '../../../lib/map/map-engine';
import { extentOf, type MapItem } from '../../../lib/map/map-items';
import { MapView } from '../../../lib/map/map-view';
import { registerOfflineTiles } from '../../../lib/map/offline-tiles';
import { bufferExtent, isValidExtent, MAX_DOWNLOAD_ZOOM } from '../../../lib/map/tiles';
import { useDownloadContext } from '../download-deps';
import { downloadControllerFor } from '../download-controller';
import { createExtent, freeSpace, MAX_DOWNLOAD_TILES, planDownload, storedTileLookup } from '../download-runner';
import { useOfflineDb } from '../../../app/hooks';
import { DownloadProgressPanel } from './download-progress';
import { routeHref } from '../../../lib/links';

/** Share of the map box the dashed frame leaves free on each side (matches .mt-map__frame). */
const FRAME_INSET = 0.12;
const AREAS_BUFFER_M = 200;

function frameExtent(engine: MapEngine): Extent {
  const canvas = engine.map.getCanvas();
  const w = canvas.clientWidth;
  const h = canvas.clientHeight;
  const nw = engine.map.unproject([w * FRAME_INSET, h * FRAME_INSET]);
  const se = engine.map.unproject([w * (1 - FRAME_INSET), h * (1 - FRAME_INSET)]);
  return { minX: nw.lng, minY: se.lat, maxX: se.lng, maxY: nw.lat };
}

export interface DownloadNewScreenProps {
  items?: MapItem[];
}

export function DownloadNewScreen({ items = [] }: DownloadNewScreenProps) {
  const db = useOfflineDb();
  const context = useDownloadContext();
  const controller = downloadControllerFor(db);
  const run = useSyncExternalStore(controller.subscribe, controller.getState);
  const [engine, setEngine] = useState<MapEngine | null>(null);
  const [viewExtent, setViewExtent] = useState<Extent | null>(null);
  const [source, setSource] = useState<'view' | 'areas'>('view');
  const [name, setName] = useState('');
  const [minZoom, setMinZoom] = useState(10);
  const [maxZoom, setMaxZoom] = useState(16);
  const [free, setFree] = useState<number | null | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);

  // Before the map asks for its first tile: stored tiles answer when the network does not.
  useState(() => registerOfflineTiles(storedTileLookup(db)));
  useEffect(() => {
    void freeSpace().then(setFree);
  }, []);
  useEffect(() => {
    if (!engine) return undefined;
    const update = () => setViewExtent(frameExtent(engine));
    update();
    engine.map.on('moveend', update);
    return () => {
      engine.map.off('moveend', update);
    };
  }, [engine]);

  const areasExtent = useMemo(() => {
    const e = extentOf(items.filter((i) => i.kind === 'area').map((i) => i.geometry));
    return e ? bufferExtent(e, AREAS_BUFFER_M) : null;
  }, [items]);
  const extent = source === 'areas' && areasExtent ? areasExtent : viewExtent;
  const plan = extent && isValidExtent(extent) ? planDownload(extent, minZoom, maxZoom, context.basemaps) : null;

  const start = async () => {
    setProblem(null);
    if (!name.trim()) return setProblem(slMap.download.nameRequired);
    if (!extent || !isValidExtent(extent) || !plan) return setProblem(slMap.download.invalidExtent);
    if (plan.tiles > MAX_DOWNLOAD_TILES) {
      return setProblem(slMap.download.tooMany.replace('{count}', String(plan.tiles)).replace('{max}', String(MAX_DOWNLOAD_TILES)));
    }
    if (free !== null && free !== undefined && plan.bytes > free) return setProblem(slMap.download.notEnoughSpace);
    const row = await createExtent(db, { name, bounds: extent, minZoom, maxZoom, projectId: context.projectId, tableIds: context.tableIds }, context.basemaps);
    void controller.start(row, context.basemaps, { fetchTile: (url, signal) => fetch(url, { signal }), fetchFeatures: context.fetchFeatures });
  };

  const zooms = Array.from({ length: MAX_DOWNLOAD_ZOOM + 1 }, (_, z) => z);
  const running = run.status === 'running';
  return (
    <Page title={slMap.download.newTitle} back={<Button href={routeHref('download')} kind="ghost" icon={BackIcon} text={slMap.download.listTitle} />}>
      <p>{slMap.download.chooseExtent}</p>
      <MapView items={items} basemap={context.basemaps[0]} onReady={setEngine} height="50vh" fitToItems>
        {source === 'view' ? <div className="mt-map__frame" data-testid="download-frame" /> : null}
      </MapView>
      <div className="mt-download__form">
        {areasExtent ? (
          <fieldset>
            <label>
              <input type="radio" name="extent-source" checked={source === 'view'} onChange={() => setSource('view')} /> {slMap.download.useView}
            </label>
            <label>
              <input type="radio" name="extent-source" checked={source === 'areas'} onChange={() => setSource('areas')} />{' '}
              {slMap.download.useMyAreas.replace('{m}', String(AREAS_BUFFER_M))}
            </label>
          </fieldset>
        ) : null}
        <label>
          {slMap.download.name}
          <input value={name} placeholder={slMap.download.namePlaceholder} onChange={(e) => setName(e.target.value)} disabled={running} />
        </label>
        <label>
          {slMap.download.minZoom}
          <select value={minZoom} onChange={(e) => setMinZoom(Math.min(Number(e.target.value), maxZoom))} disabled={running}>
            {zooms.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </label>
        <label>
          {slMap.download.maxZoom}
          <select value={maxZoom} onChange={(e) => setMaxZoom(Math.max(Number(e.target.value), minZoom))} disabled={running}>
            {zooms.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </label>
        <dl data-testid="download-estimate">
          <dt>{slMap.download.tileCount}</dt>
          <dd>{plan ? plan.tiles : '–'}</dd>
          <dt>{slMap.download.estimatedSize}</dt>
          <dd>{plan ? formatFileSize(plan.bytes) : '–'}</dd>
          <dt>{slMap.download.freeSpace}</dt>
          <dd>{free === undefined ? '…' : free === null ? slMap.download.unknown : formatFileSize(free)}</dd>
        </dl>
        {problem ? <p role="alert">{problem}</p> : null}
        <Button text={slMap.download.start} disabled={running || !engine} onClick={() => void start()} />
        <DownloadProgressPanel controller={controller} />
      </div>
    </Page>
  );
}
