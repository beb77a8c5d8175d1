/**
 * Drawing by hand with Mapbox GL Draw (through MapEngine): draw a new path, correct an existing
 * one (vertices draggable, midpoints add vertices), or place an indicator point. With `target`
 * the result is saved as that record's geometry through the outbox; either way `onDone` gets it.
 */
import type { Geometry, LineString, MultiLineString, Point } from 'geojson';
import { useEffect, useState } from 'react';
import { slMap } from '../../../../common/i18n/sl';
import { Button } from '../../../components/button/button';
import { saveEdit } from '../../../lib/db/outbox';
import type { MapEngine } from '../../../lib/map/map-engine';
import { useOfflineDb } from '../use-offline-db';

export type GeometryEditorMode = 'line' | 'point';

export interface GeometryEditorProps {
  engine: MapEngine | null;
  mode: GeometryEditorMode;
  /** Existing geometry to correct (a line) or move (a point). */
  initial?: Geometry | null;
  /** Save into this record through the outbox. */
  target?: { projectId: number; tableId: number; id: number };
  onDone?: (geometry: Geometry | null) => void;
}

export function GeometryEditor({ engine, mode, initial, target, onDone }: GeometryEditorProps) {
  const db = useOfflineDb();
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    if (!engine) return undefined;
    if (mode === 'point') engine.startPoint(initial?.type === 'Point' ? (initial as Point) : null);
    else if (initial && (initial.type === 'LineString' || initial.type === 'MultiLineString')) engine.editLine(initial as LineString | MultiLineString);
    else engine.startLine();
    return () => engine.stopDrawing();
  }, [engine, mode, initial]);

  const hint = mode === 'point' ? slMap.draw.hintPoint : initial ? slMap.draw.hintEdit : slMap.draw.hintLine;

  const save = async () => {
    const geometry = engine?.drawnGeometry() ?? null;
    if (!geometry) return;
    if (target) {
      await saveEdit(db, { kind: 'update', isRecord: false, projectId: target.projectId, tableId: target.tableId, id: target.id, properties: {}, geometry });
      setMessage(slMap.draw.saved);
    }
    onDone?.(geometry);
  };

  return (
    <section className="mt-recorder" aria-label={mode === 'point' ? slMap.draw.placeIndicator : initial ? slMap.draw.editPath : slMap.draw.drawPath}>
      <p>{hint}</p>
      <div className="mt-recorder__actions">
        <Button text={slMap.draw.save} disabled={!engine} onClick={() => void save()} />
        <Button kind="secondary" text={slMap.draw.cancel} onClick={() => onDone?.(null)} />
      </div>
      {message ? <p role="status">{message}</p> : null}
    </section>
  );
}
