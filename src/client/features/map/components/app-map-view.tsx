/**
 * MapView as the app uses it: the base map of config.json (first entry; the own offline base map
 * when config has none) and stored tiles from the offline database answering when the network
 * does not (lib/map/offline-tiles), and the user's visible local layers. Screens use this one.
 */
import { useState } from 'react';
import type { BaseMapEntry } from '../../../../common/basemap';
import { useAppSelector, useOfflineDb } from '../../../app/hooks';
import { selectConfig } from '../../../lib/config/config-slice';
import type { OfflineDb } from '../../../lib/db/database';
import { MapView as BaseMapView, type MapViewProps } from '../../../lib/map/map-view';
import { registerOfflineTiles } from '../../../lib/map/offline-tiles';
import { useLocalLayers } from '../local-layers/use-local-layers';

function lookup(db: OfflineDb) {
  return async (url: string) => (await db.baseMapTiles.get(url))?.data ?? (await db.rasters.get(url))?.data;
}

export function MapView(props: MapViewProps) {
  const db = useOfflineDb();
  const config = useAppSelector(selectConfig);
  // Registered during the first render, before the map requests its first tile.
  useState(() => registerOfflineTiles(lookup(db)));
  const { overlays } = useLocalLayers(db);
  const basemap = props.basemap ?? (config?.basemaps?.[0] as BaseMapEntry | undefined);
  return <BaseMapView localLayers={overlays} {...props} {...(basemap ? { basemap } : {})} />;
}
