/**
 * Drawing by hand with Mapbox GL Draw (through MapEngine): draw a new path, correct an existing
 * one (vertices draggable, midpoints add vertices), or place an indicator point. With `target`
 * the result is saved as that record's geometry through the outbox; either way `onDone` gets it.
 */
import type { Geometry, LineString, MultiLineString, Point } from 'geojson';
import { useEffect, useState } from 'react';
import { sl, slMap } from '../../../../common/i18n/sl';
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
  // Drawing has started on the map (the tap goes to Draw from now on) / something is drawn to save.
  const [drawing, setDrawing] = useState(false);
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    if (!engine) return undefined;
    if (mode === 'point') engine.startPoint(initial?.type === 'Point' ? (initial as Point) : null);
    else if (initial && (initial.type === 'LineString' || initial.type === 'MultiLineString')) engine.editLine(initial as LineString | MultiLineString);
    else engine.startLine();
    const update = () => setDrawn(engine.drawnGeometry() !== null);
    update();
    let live = true;
    void engine.whenDrawReady().then(() => {
      if (live) setDrawing(true);
    });
    const unsubscribe = engine.onDrawChange(update);
    return () => {
      live = false;
      unsubscribe();
      setDrawing(false);
      engine.stopDrawing();
    };
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
    <section className="mt-recorder" data-drawing={drawing ? mode : undefined} aria-label={mode === 'point' ? slMap.draw.placeIndicator : initial ? slMap.draw.editPath : slMap.draw.drawPath}>
      {/* Until Draw listens to the map a tap would be lost: say so instead of asking for one. */}
      <p>{drawing ? hint : sl.common.loading}</p>
      <div className="mt-recorder__actions">
        {/* Nothing to save before the tap: saving an empty point broke the form (e2e form-map-location). */}
        <Button text={slMap.draw.save} disabled={!engine || !drawn} onClick={() => void save()} />
        <Button kind="secondary" text={slMap.draw.cancel} onClick={() => onDone?.(null)} />
      </div>
      {message ? <p role="status">{message}</p> : null}
    </section>
  );
}
