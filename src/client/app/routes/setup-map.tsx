/**
 * The map slots of the set-up forms: features/map's MapView showing the given meadows and paths,
 * and its GeometryEditor (embedded: the form saves) drawing on that map's engine.
 */
import { useCallback, useState } from 'react';
import type { AppConfig } from '../../../common/schemas/config';
import { GeometryEditor, MapView, recordsToMapItems, type MapEngine } from '../../features/map';
import type { DrawSlots } from '../../features/setup';

export function useDrawSlots(config: AppConfig | null, height = 'min(60vh, 520px)'): DrawSlots {
  const [engine, setEngine] = useState<MapEngine | null>(null);
  const renderMap = useCallback<DrawSlots['renderMap']>(
    ({ areas, paths, selectedPathId }) =>
      config ? (
        <MapView
          items={recordsToMapItems({ areas, paths, selectedPathId: selectedPathId ?? null }, config.tables)}
          height={height}
          onReady={setEngine}
          fitKey={areas.map((a) => a.id).join(',')}
        />
      ) : null,
    [config, height],
  );
  const renderDraw = useCallback<DrawSlots['renderDraw']>(
    ({ mode, initial, onChange, hint }) => <GeometryEditor engine={engine} mode={mode} initial={initial} onChange={onChange} hint={hint} embedded />,
    [engine],
  );
  return { renderMap, renderDraw };
}
