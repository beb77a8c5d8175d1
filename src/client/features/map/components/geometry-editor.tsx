/**
 * Drawing by hand with Mapbox GL Draw (through MapEngine): draw a new path or meadow outline,
 * correct an existing one (vertices draggable, midpoints add vertices, the selected vertex
 * deletable — how a walked line loses a stray fix or gets its ends trimmed), or place an
 * indicator point. With `target` the result is saved as that record's geometry through the
 * outbox; either way `onDone` gets it. `embedded` leaves saving to the form around it, which
 * follows the drawing through `onChange`.
 */
import type { Geometry, LineString, MultiLineString, MultiPolygon, Point, Polygon } from 'geojson';
import { useEffect, useRef, useState } from 'react';
import { sl, slMap, slSetup } from '../../../../common/i18n/sl';
import { Button } from '../../../components/button/button';
import { saveEdit } from '../../../lib/db/outbox';
import type { MapEngine } from '../../../lib/map/map-engine';
import { useOfflineDb } from '../../../app/hooks';

type GeometryEditorMode = 'line' | 'point' | 'polygon';

export interface GeometryEditorProps {
  engine: MapEngine | null;
  mode: GeometryEditorMode;
  /** Existing geometry to correct (a line) or move (a point). */
  initial?: Geometry | null;
  /** Save into this record through the outbox. */
  target?: { projectId: number; tableId: number; id: number };
  onDone?: (geometry: Geometry | null) => void;
  /** Every change of the drawing (null while nothing complete is drawn). */
  onChange?: (geometry: Geometry | null) => void;
  /** No save/cancel buttons: the surrounding form saves what `onChange` reported. */
  embedded?: boolean;
  /** Replaces the default hint of the mode. */
  hint?: string;
}

export function GeometryEditor({ engine, mode, initial, target, onDone, onChange, embedded, hint: hintText }: GeometryEditorProps) {
  const db = useOfflineDb();
  const [message, setMessage] = useState<string | null>(null);
  // Drawing has started on the map (the tap goes to Draw from now on) / something is drawn to save.
  const [drawing, setDrawing] = useState(false);
  const [drawn, setDrawn] = useState(false);
  // A vertex is selected: "delete the point" has something to delete (otherwise a tap on it did nothing, silently).
  const [vertexSelected, setVertexSelected] = useState(false);
  // The latest callback without restarting the drawing when the parent re-renders.
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  // The drawing restarts only for a geometry that changed: a season refresh brings the same one as
  // a new object, and restarting would throw away the user's corrections under way.
  const initialRef = useRef(initial);
  initialRef.current = initial;
  const initialShape = initial ? JSON.stringify(initial) : null;

  useEffect(() => {
    const shape = initialRef.current;
    if (!engine) return undefined;
    if (mode === 'point') engine.drawing.startPoint(shape?.type === 'Point' ? (shape as Point) : null);
    else if (mode === 'polygon') {
      if (shape && (shape.type === 'Polygon' || shape.type === 'MultiPolygon')) engine.drawing.editPolygon(shape as Polygon | MultiPolygon);
      else engine.drawing.startPolygon();
    } else if (shape && (shape.type === 'LineString' || shape.type === 'MultiLineString')) engine.drawing.editLine(shape as LineString | MultiLineString);
    else engine.drawing.startLine();
    const update = () => {
      const geometry = engine.drawing.drawnGeometry();
      setDrawn(geometry !== null);
      onChangeRef.current?.(geometry);
    };
    update();
    let live = true;
    void engine.drawing.whenDrawReady().then(() => {
      if (live) setDrawing(true);
    });
    const unsubscribe = engine.drawing.onDrawChange(update);
    const selected = () => setVertexSelected(engine.drawing.selectedVertexCount() > 0);
    selected();
    const unsubscribeSelection = engine.drawing.onSelectionChange(selected);
    return () => {
      live = false;
      unsubscribe();
      unsubscribeSelection();
      setDrawing(false);
      setVertexSelected(false);
      engine.drawing.stopDrawing();
    };
  }, [engine, mode, initialShape]);

  const editing = Boolean(initial) && mode !== 'point';
  const hint = hintText ?? (mode === 'point' ? slMap.draw.hintPoint : editing ? slMap.draw.hintEdit : slMap.draw.hintLine);
  const deleteVertex =
    editing && engine ? (
      <Button kind="secondary" text={slSetup.paths.deleteVertex} disabled={!vertexSelected} onClick={() => engine.drawing.deleteSelectedVertices()} />
    ) : null;
  // Drawing a new line or outline: finish it without the double tap (see MapEngine.finishDrawing).
  const finish =
    !editing && mode !== 'point' && engine && drawing && !drawn ? (
      <Button kind="secondary" text={slSetup.common.finishDrawing} onClick={() => engine.drawing.finishDrawing()} />
    ) : null;
  const tools = deleteVertex ?? finish;

  const save = async () => {
    const geometry = engine?.drawing.drawnGeometry() ?? null;
    if (!geometry) return;
    if (target) {
      await saveEdit(db, { kind: 'update', isRecord: false, projectId: target.projectId, tableId: target.tableId, id: target.id, properties: {}, geometry });
      setMessage(slMap.draw.saved);
    }
    onDone?.(geometry);
  };

  return (
    <section
      className="mt-recorder"
      data-drawing={drawing ? mode : undefined}
      aria-label={mode === 'point' ? slMap.draw.placeIndicator : mode === 'polygon' ? slSetup.areas.draw : initial ? slMap.draw.editPath : slMap.draw.drawPath}
    >
      {/* Until Draw listens to the map a tap would be lost: say so instead of asking for one. */}
      <p>{drawing ? hint : sl.common.loading}</p>
      {embedded ? (
        tools && <div className="mt-recorder__actions">{tools}</div>
      ) : (
        <div className="mt-recorder__actions">
          {tools}
          {/* Nothing to save before the tap: saving an empty point broke the form (e2e form-map-location). */}
          <Button text={slMap.draw.save} disabled={!engine || !drawn} onClick={() => void save()} />
          <Button kind="secondary" text={slMap.draw.cancel} onClick={() => onDone?.(null)} />
        </div>
      )}
      {message ? <p role="status">{message}</p> : null}
    </section>
  );
}
