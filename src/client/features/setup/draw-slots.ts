/**
 * The map parts a set-up form needs, supplied by the route (features do not import each other;
 * app/routes renders features/map's MapView and GeometryEditor into these slots).
 */
import type { Geometry } from 'geojson';
import type { ReactNode } from 'react';
import type { StoredRecord } from '../../lib/db/database';

interface MapSlotArgs {
  areas: StoredRecord[];
  paths: StoredRecord[];
  selectedPathId?: number | null;
}

interface DrawSlotArgs {
  mode: 'line' | 'polygon';
  /** The geometry to correct; null draws a new one. Must keep its identity between renders. */
  initial: Geometry | null;
  onChange: (geometry: Geometry | null) => void;
  hint: string;
}

export interface DrawSlots {
  renderMap: (args: MapSlotArgs) => ReactNode;
  renderDraw: (args: DrawSlotArgs) => ReactNode;
}
