/**
 * A page with nothing but the MapView, for the map preview screenshot, the render bench and the
 * offline map test (scripts/basemap/map-harness.ts bundles it).
 * - `?paths=N` shows N synthetic paths; window.__map = { ready, idleMs, clicked, missing }.
 * - `?mode=walk`: the walk recorder for path 2000 on the map, with the live track drawn; the test
 *   drives it through Playwright's scripted geolocation (window.__track holds the live segments).
 * - `?mode=screens&screen=download-new|download-list|location`: one screen component of the
 *   feature with a real store (and its own IndexedDB database) for the e2e tests.
 * - `?mode=offline`: window.__download() stores the Goričko extent with the Download screen's code
 *   (real fetches from the harness server into the real Dexie database); window.__showMap() then
 *   renders the map reading tiles through the offline protocol (the test cuts the network first).
 */
import { useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { makeStore } from '../../src/client/app/store';
import { WalkRecorderPanel } from '../../src/client/features/map/components/walk-recorder-panel';
import { DownloadListScreen } from '../../src/client/features/download/components/download-list-screen';
import { DownloadNewScreen } from '../../src/client/features/download/components/download-new-screen';
import { LocationWarning } from '../../src/client/features/location/location-warning';
import type { LonLat } from '../../src/client/lib/map/geo';
import { OWN_BASEMAP } from '../../src/common/basemap';
import { createExtent, runDownload, storedTileLookup } from '../../src/client/features/download/download-runner';
import { openOfflineDb } from '../../src/client/lib/db/database';
import type { MapEngine } from '../../src/client/lib/map/map-engine';
import { MapView } from '../../src/client/lib/map/map-view';
import { onMissingTile, registerOfflineTiles } from '../../src/client/lib/map/offline-tiles';
import { demoItems } from './demo-items';

declare global {
  interface Window {
    __map: { ready: boolean; idleMs: number | null; clicked: Array<{ kind: string; id: number }>; started: number; missing: string[]; engine?: MapEngine };
    __download?: () => Promise<{ tiles: number; stored: number; status: string }>;
    __showMap?: () => void;
    __track?: LonLat[][];
    __db?: ReturnType<typeof openOfflineDb>;
  }
}

const params = new URLSearchParams(location.search);
const pathCount = Number(params.get('paths') ?? 6);
const items = demoItems(pathCount);
window.__map = { ready: false, idleMs: null, clicked: [], started: performance.now(), missing: [] };
onMissingTile((url) => window.__map.missing.push(url));
const root = createRoot(document.getElementById('root')!);

/** `?local=1`: a local layer (e.g. last year's walk imported from a GPX file) under the features. */
function demoLocalLayer(): GeoJSON.FeatureCollection {
  const coordinates = Array.from({ length: 30 }, (_, i) => [16.1975 + i * 0.0002, 46.7995 + Math.sin(i / 4) * 0.0004]);
  return { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates } }] };
}

function showMap() {
  window.__map.started = performance.now();
  root.render(
    <MapView
      items={items}
      height="100vh"
      farmers={[
        { id: 100, name: 'Kmet Ena' },
        { id: 101, name: 'Kmet Dva' },
      ]}
      userPosition={{ lon: 16.2005, lat: 46.8003, accuracy: 12 }}
      localLayers={params.get('local') ? [{ id: 1, color: '#c62828', data: demoLocalLayer() }] : []}
      onFeatureClick={(item) => window.__map.clicked.push(item)}
      onReady={(engine) => {
        window.__map.ready = true;
        window.__map.engine = engine;
        engine.map.once('idle', () => {
          window.__map.idleMs = performance.now() - window.__map.started;
        });
      }}
    />,
  );
}

function WalkPage({ engineItems }: { engineItems: typeof items }) {
  const [track, setTrack] = useState<LonLat[][]>([]);
  const shown = useMemo(
    () =>
      track.some((s) => s.length >= 2)
        ? [...engineItems, { kind: 'path' as const, id: 1, name: '', selected: true, geometry: { type: 'MultiLineString' as const, coordinates: track } }]
        : engineItems,
    [engineItems, track],
  );
  return (
    <div style={{ display: 'grid', gridTemplateRows: '60vh auto' }}>
      <MapView items={shown} height="60vh" fitToItems onReady={(engine) => (window.__map.engine = engine)} />
      <WalkRecorderPanel
        pathId={2000}
        pathName="Pot 1"
        table={{ projectId: 1, tableId: 3, columns: { walk: 34, length_m: 33 } }}
        onTrack={(segments) => {
          window.__track = segments;
          setTrack(segments);
        }}
      />
    </div>
  );
}

if (params.get('mode') === 'screens') {
  const db = openOfflineDb({ name: 'map-preview-screens' });
  window.__db = db;
  const store = makeStore(undefined, { extra: { db } });
  const screen = params.get('screen');
  root.render(
    <Provider store={store}>
      {screen === 'download-new' ? (
        <DownloadNewScreen items={demoItems(4)} />
      ) : screen === 'download-list' ? (
        <DownloadListScreen />
      ) : (
        <LocationWarning pollMs={500} />
      )}
    </Provider>,
  );
} else if (params.get('mode') === 'walk') {
  const db = openOfflineDb({ name: 'map-preview-walk' });
  window.__db = db;
  registerOfflineTiles(async () => undefined);
  const store = makeStore(undefined, { extra: { db } });
  root.render(
    <Provider store={store}>
      <WalkPage engineItems={demoItems(1)} />
    </Provider>,
  );
} else if (params.get('mode') === 'offline') {
  const db = openOfflineDb({ name: 'map-preview' });
  registerOfflineTiles(storedTileLookup(db));
  window.__download = async () => {
    const bounds = { minX: 15.9, minY: 46.6, maxX: 16.5, maxY: 47.0 };
    const extent = await createExtent(db, { name: 'Goričko', bounds, minZoom: 6, maxZoom: 10, projectId: 1, tableIds: [] }, [OWN_BASEMAP]);
    const done = await runDownload(extent, [OWN_BASEMAP], { db, fetchTile: (url, signal) => fetch(url, { signal }) });
    return { tiles: done.tileCount, stored: done.storedTiles, status: done.status };
  };
  window.__showMap = showMap;
} else {
  registerOfflineTiles(async () => undefined);
  showMap();
}
