/** The device's local layers, kept fresh across every map and panel of the tab. */
import { useEffect, useMemo, useState } from 'react';
import type { OfflineDb } from '../../../lib/db/database';
import type { LocalOverlay } from '../../../lib/map/map-items';
import { LAYER_COLORS, listLocalLayers, onLocalLayersChange, type LocalLayer } from './local-layers-store';

export function useLocalLayers(db: OfflineDb): { layers: LocalLayer[]; overlays: LocalOverlay[] } {
  const [layers, setLayers] = useState<LocalLayer[]>([]);
  useEffect(() => {
    let cancelled = false;
    const load = () => void listLocalLayers(db).then((rows) => !cancelled && setLayers(rows));
    load();
    const stop = onLocalLayersChange(db, load);
    return () => {
      cancelled = true;
      stop();
    };
  }, [db]);
  const overlays = useMemo(() => layers.filter((l) => l.visible).map((l) => ({ id: l.id, color: LAYER_COLORS[l.color], data: l.data })), [layers]);
  return { layers, overlays };
}
