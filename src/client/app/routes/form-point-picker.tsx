/**
 * The map of the form's location picker: an indicator's point placed by a tap (features/map).
 * Its own chunk, loaded by the form route when the picker opens, so a form opens without the map
 * library (about 1 MB) and only the picker waits for it.
 */
import { useMemo, useState } from 'react';
import type { Point } from 'geojson';
import { GeometryEditor, MapView, onePathRows, recordsToMapItems, type MapEngine } from '../../features/map';
import type { SeasonView } from './screen-data';

export interface PointPickerProps {
  view: SeasonView;
  pathId: number | null;
  initial: [number, number] | null;
  onPick: (lonLat: [number, number]) => void;
}

export default function PointPicker({ view, pathId, initial, onPick }: PointPickerProps) {
  const [engine, setEngine] = useState<MapEngine | null>(null);
  const config = view.config!;
  const items = recordsToMapItems(onePathRows(view, config.tables, pathId), config.tables);
  const start = useMemo<Point | null>(() => (initial ? { type: 'Point', coordinates: initial } : null), [initial]);
  // The editor's hint and buttons go below the map, not inside it: MapView's children are overlays
  // on the map, where the legend covered the save button (proven in Chromium, e2e form-map-location).
  return (
    <>
      <MapView items={items} height="60vh" onReady={setEngine} />
      <GeometryEditor
        engine={engine}
        mode="point"
        initial={start}
        onDone={(geometry) => {
          if (geometry?.type === 'Point') onPick([geometry.coordinates[0]!, geometry.coordinates[1]!]);
        }}
      />
    </>
  );
}
