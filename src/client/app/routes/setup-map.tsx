/**
 * The map slots of the set-up forms: features/map's MapView showing the given meadows and paths
 * (and a walk being recorded), and its GeometryEditor (embedded: the form saves) drawing on that
 * map's engine, which the walk recorder of a farmer's new path uses too.
 */
import { useCallback, useState } from 'react';
import type { AppConfig } from '../../../common/schemas/config';
import { GeometryEditor, MapView, recordsToMapItems, type MapEngine } from '../../features/map';
import type { DrawSlots } from '../../features/setup';

interface DrawSlotsOptions {
  height?: string;
  /** The segments of a walk being recorded, drawn on the map. */
  track?: readonly number[][][];
}

export function useDrawSlots(
  config: AppConfig | null,
  { height = 'min(60vh, 520px)', track }: DrawSlotsOptions = {},
): { slots: DrawSlots; engine: MapEngine | null } {
  const [engine, setEngine] = useState<MapEngine | null>(null);
  const renderMap = useCallback<DrawSlots['renderMap']>(
    ({ areas, paths, selectedPathId }) =>
      config ? (
        <MapView
          items={recordsToMapItems({ areas, paths, selectedPathId: selectedPathId ?? null, track }, config.tables)}
          height={height}
          onReady={setEngine}
          fitKey={areas.map((a) => a.id).join(',')}
        />
      ) : null,
    [config, height, track],
  );
  const renderDraw = useCallback<DrawSlots['renderDraw']>(
    ({ mode, initial, onChange, hint }) => <GeometryEditor engine={engine} mode={mode} initial={initial} onChange={onChange} hint={hint} embedded />,
    [engine],
  );
  return { slots: { renderMap, renderDraw }, engine };
}
