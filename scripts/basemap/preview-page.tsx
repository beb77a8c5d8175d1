/**
 * A page with nothing but the MapView, for the map preview screenshot and the render bench
 * (scripts/basemap/map-harness.ts bundles it). `?paths=N` shows N synthetic paths; the page sets
 * window.__map = { ready, idleMs, clicked } for the harness to read.
 */
import { createRoot } from 'react-dom/client';
import { MapView } from '../../src/client/lib/map/map-view';
import { registerOfflineTiles } from '../../src/client/lib/map/offline-tiles';
import { demoItems } from './demo-items';

declare global {
  interface Window {
    __map: { ready: boolean; idleMs: number | null; clicked: Array<{ kind: string; id: number }>; started: number };
  }
}

const params = new URLSearchParams(location.search);
const pathCount = Number(params.get('paths') ?? 6);
const items = demoItems(pathCount);
window.__map = { ready: false, idleMs: null, clicked: [], started: performance.now() };
registerOfflineTiles(async () => undefined);

const root = document.getElementById('root')!;
createRoot(root).render(
  <MapView
    items={items}
    height="100vh"
    farmers={[
      { id: 100, name: 'Kmet Ena' },
      { id: 101, name: 'Kmet Dva' },
    ]}
    userPosition={{ lon: 16.2005, lat: 46.8003, accuracy: 12 }}
    onFeatureClick={(item) => window.__map.clicked.push(item)}
    onReady={(engine) => {
      window.__map.ready = true;
      engine.map.once('idle', () => {
        window.__map.idleMs = performance.now() - window.__map.started;
      });
    }}
  />,
);
