/**
 * The map of the app: base map (config.json → basemaps, default the own offline base map), the
 * farmer's meadows, paths and indicator points with Slovenian labels and a legend, the user's
 * position, and a farmer filter for editors and readers. Tapping a feature calls
 * `onFeatureClick({kind, id})` — the screens decide where that leads.
 *
 * The MapEngine lives in a ref (never in Redux); `onReady` hands it to a parent that needs more
 * (drawing, the download frame).
 */
import 'maplibre-gl/dist/maplibre-gl.css';
import '@mapbox/mapbox-gl-draw/dist/mapbox-gl-draw.css';
import './map.css';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { OWN_BASEMAP, type BaseMapEntry } from '../../../common/basemap';
import { slMap } from '../../../common/i18n/sl';
import { loadBaseStyle } from './base-style';
import { MapEngine, type Position2 } from './map-engine';
import type { LocalOverlay, MapItem, MapItemKind } from './map-items';
import { onMissingTile } from './offline-tiles';

interface FarmerOption {
  id: number;
  name: string;
}

export interface MapViewProps {
  items: MapItem[];
  basemap?: BaseMapEntry;
  /** Editors and readers: the farmers to filter by (no filter shown when absent). */
  farmers?: FarmerOption[];
  /** Controlled filter value: a farmer id, or null for all farmers. */
  farmerId?: number | null;
  onFarmerChange?: (farmerId: number | null) => void;
  onFeatureClick?: (item: { kind: MapItemKind; id: number }) => void;
  userPosition?: Position2 | null;
  /** Pan to keep `userPosition` in view (while recording a walk). */
  followUser?: boolean;
  /** The user's own layers from files (features/map local layers). */
  localLayers?: LocalOverlay[];
  /** Zoom to the items when they first arrive (default true). */
  fitToItems?: boolean;
  /** Zoom to the items again whenever this changes (a form choosing another meadow). */
  fitKey?: string | number;
  onReady?: (engine: MapEngine) => void;
  height?: string;
  children?: ReactNode;
}

export function MapView({
  items,
  basemap = OWN_BASEMAP,
  farmers,
  farmerId = null,
  onFarmerChange,
  onFeatureClick,
  userPosition = null,
  localLayers,
  followUser = false,
  fitToItems = true,
  fitKey,
  onReady,
  height,
  children,
}: MapViewProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const engineRef = useRef<MapEngine | null>(null);
  const fittedRef = useRef(false);
  const fitKeyRef = useRef(fitKey);
  const [engine, setEngine] = useState<MapEngine | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [missingTiles, setMissingTiles] = useState(false);
  const onReadyRef = useRef(onReady);
  onReadyRef.current = onReady;

  // Create the map once per base map; everything else is pushed into the running engine.
  useEffect(() => {
    let cancelled = false;
    let created: MapEngine | null = null;
    loadBaseStyle(basemap)
      .then((style) => {
        if (cancelled || !containerRef.current) return;
        created = new MapEngine({ container: containerRef.current, style });
        engineRef.current = created;
        created.map.on('error', (event) => {
          // Tile errors are handled by the offline notice; anything else is a real failure.
          if (!(event as { tile?: unknown }).tile) console.error('map error', event.error);
        });
        void created.whenReady().then(() => {
          if (cancelled || !created) return;
          setEngine(created);
          onReadyRef.current?.(created);
        });
      })
      .catch((e: unknown) => {
        if (cancelled) return;
        const message = String((e as Error)?.message ?? e);
        setError(/webgl/i.test(message) ? slMap.map.noWebgl : slMap.map.error);
      });
    return () => {
      cancelled = true;
      created?.destroy();
      engineRef.current = null;
      fittedRef.current = false;
      setEngine(null);
    };
  }, [basemap]);

  useEffect(() => onMissingTile(() => setMissingTiles(true)), []);

  useEffect(() => {
    if (!engine) return;
    engine.setItems(items, farmerId);
    if (fitKey !== fitKeyRef.current) {
      fitKeyRef.current = fitKey;
      fittedRef.current = false;
    }
    if (fitToItems && !fittedRef.current && items.some((i) => i.geometry)) {
      fittedRef.current = true;
      engine.fitTo();
    }
  }, [engine, items, farmerId, fitToItems, fitKey]);

  // The current view as plain data on the map's element (data-view: center [lon, lat], zoom,
  // bearing, pitch), written after every move and absent while the camera moves (an easing to the
  // walker's position, a fit), and `data-idle` while the map shows all it is going to (MapLibre's
  // `idle`: no camera move, every requested tile in, a drawing's vertices on screen; gone at the next
  // frame rendered). Never read by the app: browser tests turn a tapped pixel into lon/lat with them
  // by Web Mercator arithmetic of their own — only once the map is at rest and drawn, or the pixel
  // would be worked out from where the camera was, or tap a vertex not drawn yet — and they help
  // diagnose a map.
  useEffect(() => {
    const element = containerRef.current;
    if (!engine || !element) return undefined;
    const map = engine.map;
    const write = () => {
      const center = map.getCenter();
      element.dataset.view = JSON.stringify({ center: [center.lng, center.lat], zoom: map.getZoom(), bearing: map.getBearing(), pitch: map.getPitch() });
    };
    const moving = () => {
      delete element.dataset.view;
    };
    const idle = () => {
      element.dataset.idle = 'true';
    };
    const rendering = () => {
      delete element.dataset.idle;
    };
    if (!map.isMoving()) write();
    map.on('movestart', moving);
    map.on('moveend', write);
    map.on('render', rendering);
    map.on('idle', idle);
    return () => {
      map.off('movestart', moving);
      map.off('moveend', write);
      map.off('render', rendering);
      map.off('idle', idle);
    };
  }, [engine]);

  useEffect(() => {
    engine?.setOnFeatureClick(onFeatureClick);
  }, [engine, onFeatureClick]);

  useEffect(() => {
    engine?.setUserPosition(userPosition);
    if (engine && userPosition && followUser) engine.keepInView(userPosition);
  }, [engine, userPosition, followUser]);

  useEffect(() => {
    if (engine && localLayers) engine.setLocalOverlays(localLayers);
  }, [engine, localLayers]);

  return (
    <div className="mt-map" style={height ? { height } : undefined} data-testid="map-view" data-ready={engine ? 'true' : 'false'}>
      <div ref={containerRef} className="mt-map__canvas" role="region" aria-label={slMap.map.label} />
      <div className="mt-map__legend">
        <strong>{slMap.map.legend}</strong>
        <ul>
          <li>
            <span className="mt-map__swatch mt-map__swatch--area" aria-hidden="true" /> {slMap.map.areas}
          </li>
          <li>
            <span className="mt-map__swatch mt-map__swatch--path" aria-hidden="true" /> {slMap.map.paths}
          </li>
          <li>
            <span className="mt-map__swatch mt-map__swatch--indicator" aria-hidden="true" /> {slMap.map.indicators}
          </li>
          {userPosition ? (
            <li>
              <span className="mt-map__swatch mt-map__swatch--position" aria-hidden="true" /> {slMap.map.myLocation} (
              {slMap.map.accuracy.replace('{m}', String(Math.round(userPosition.accuracy)))})
            </li>
          ) : null}
        </ul>
        {farmers ? (
          <label className="mt-map__filter">
            {slMap.map.farmerFilter}
            <select value={farmerId === null ? '' : String(farmerId)} onChange={(e) => onFarmerChange?.(e.target.value === '' ? null : Number(e.target.value))}>
              <option value="">{slMap.map.allFarmers}</option>
              {farmers.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      {error ? (
        <div className="mt-map__notice" role="alert">
          {error}
        </div>
      ) : missingTiles ? (
        <div className="mt-map__notice" role="status">
          {slMap.map.missingTiles}
        </div>
      ) : null}
      {children}
    </div>
  );
}
