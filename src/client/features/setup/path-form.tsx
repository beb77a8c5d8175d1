/**
 * One transect (a `paths` row) being created or corrected: its meadow, its name and how its line
 * comes to be — drawn here with Mapbox GL Draw, or walked (by the farmer later, or right away by
 * a farmer creating their own path: `walkSlot` then renders the walk recorder). A drawn line that
 * looks wrong — it leaves its meadow by more than PATH_OUTSIDE_AREA_MARGIN_M or is longer than the
 * meadow's perimeter (`pathDoubt`) — asks before it is saved. Used by the
 * editors' set-up screen and by farmers on their own meadows.
 */
import type { Geometry, LineString, MultiLineString, MultiPolygon, Polygon } from 'geojson';
import { useEffect, useState, type ReactNode } from 'react';
import { sl, slScreens, slSetup } from '../../../common/i18n/sl';
import type { AppConfig } from '../../../common/schemas/config';
import { Button } from '../../components/button/button';
import { useUnsavedChanges } from '../../components/confirm-leave/unsaved-changes';
import type { StoredRecord } from '../../lib/db/database';
import type { DrawSlots } from './draw-slots';
import { SelectField, TextField, prop } from './setup-parts';
import { pathDoubt } from './setup-rules';

type PathHow = 'draw' | 'walk';

export interface PathDraft {
  id?: number;
  name: string;
  areaId: string;
  how: PathHow;
  /** The stored line being corrected (stable identity for the drawing tool). */
  initial: Geometry | null;
}

export interface PathFormProps extends DrawSlots {
  config: AppConfig;
  areas: StoredRecord[];
  draft: PathDraft;
  /** Label of the "walk it" choice: the farmer walks it later (editors) or I walk it now (farmers). */
  walkLabel: string;
  /** Saves the path; `geometry` is null for a path to be walked. Resolves with the path's id. */
  onSave: (draft: PathDraft, geometry: LineString | MultiLineString | null) => Promise<number | void>;
  onCancel: () => void;
  /** After a save, once the form no longer holds unsaved input (so leaving asks nothing). */
  onDone?: (pathId: number) => void;
  /** Farmers walking a new path now: the recorder, once meadow and name are chosen; `finish` when the walk is saved. */
  walkSlot?: (draft: PathDraft, finish: (pathId: number) => void) => ReactNode;
}

export function PathForm({ config, areas, draft: start, walkLabel, onSave, onCancel, onDone, walkSlot, renderMap, renderDraw }: PathFormProps) {
  const [draft, setDraft] = useState<PathDraft>(start);
  const [line, setLine] = useState<Geometry | null>(null);
  const [error, setError] = useState<string | null>(null);
  // What the editor was warned about (Slovenian); saving again saves anyway.
  const [warned, setWarned] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [savedId, setSavedId] = useState<number | null>(null);
  useUnsavedChanges(savedId === null);
  useEffect(() => {
    if (savedId !== null) onDone?.(savedId);
  }, [savedId, onDone]);
  const area = areas.find((a) => String(a.id) === draft.areaId);
  const meadow =
    area?.geometry && (area.geometry.type === 'Polygon' || area.geometry.type === 'MultiPolygon') ? (area.geometry as Polygon | MultiPolygon) : null;

  const submit = async (anyway: boolean) => {
    setError(null);
    if (!draft.areaId) return setError(slSetup.common.required(slSetup.paths.area));
    if (!draft.name.trim()) return setError(slSetup.common.required(slSetup.paths.name));
    let geometry: LineString | MultiLineString | null = null;
    const isLine = line?.type === 'LineString' || line?.type === 'MultiLineString';
    // Renaming a path nobody has drawn or walked yet keeps it without a line.
    if (draft.how === 'draw' && !(draft.id !== undefined && !draft.initial && !line)) {
      if (!line || !isLine) return setError(slSetup.paths.noLine);
      geometry = line as LineString | MultiLineString;
      const doubt = pathDoubt(geometry, meadow);
      if (doubt && !anyway) return setWarned(doubt);
    }
    setBusy(true);
    try {
      const id = await onSave({ ...draft, name: draft.name.trim() }, geometry);
      if (typeof id === 'number') setSavedId(id);
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : slScreens.states.saveFailed);
    } finally {
      setBusy(false);
    }
  };

  const lineChanged = (geometry: Geometry | null) => {
    setLine(geometry);
    setWarned(null);
  };
  const walking = draft.how === 'walk' && walkSlot && draft.areaId && draft.name.trim();
  return (
    <div className="setup setup--map">
      <div className="setup__map">{renderMap({ areas: area ? [area] : areas, paths: [] })}</div>
      <div className="setup__panel">
        <form
          className="setup__form card setup__section"
          onSubmit={(e) => {
            e.preventDefault();
            void submit(false);
          }}
        >
          <SelectField
            label={slSetup.paths.area}
            name="area"
            value={draft.areaId}
            placeholder={slSetup.paths.chooseArea}
            options={areas.map((a) => ({ value: String(a.id), label: prop(config, 'areas', a, 'name') }))}
            onChange={(areaId) => setDraft({ ...draft, areaId })}
          />
          <TextField label={slSetup.paths.name} name="name" value={draft.name} onChange={(name) => setDraft({ ...draft, name })} />
          {draft.id === undefined ? (
            <fieldset className="field setup__how">
              <legend className="field__label">{slSetup.paths.how}</legend>
              {(
                [
                  ['draw', slSetup.paths.howDraw],
                  ['walk', walkLabel],
                ] as const
              ).map(([value, label]) => (
                <label key={value} className="setup__choice">
                  <input type="radio" name="how" value={value} checked={draft.how === value} onChange={() => setDraft({ ...draft, how: value })} />
                  {label}
                </label>
              ))}
            </fieldset>
          ) : null}
          {draft.how === 'draw'
            ? renderDraw({
                mode: 'line',
                initial: draft.initial,
                onChange: lineChanged,
                hint: draft.initial ? slSetup.paths.correctHint : slSetup.paths.drawHint,
              })
            : null}
          {error ? (
            <p className="field__error setup__error" role="alert">
              {error}
            </p>
          ) : null}
          {warned !== null ? (
            <div className="setup__warning" role="alert">
              <p>{warned}</p>
              <Button kind="danger" text={slSetup.paths.saveAnyway} disabled={busy} onClick={() => void submit(true)} />
            </div>
          ) : null}
          {walking ? null : (
            <div className="form-actions">
              <Button type="submit" text={sl.common.save} disabled={busy} />
              <Button kind="secondary" text={sl.common.cancel} onClick={onCancel} />
            </div>
          )}
        </form>
        {walking ? walkSlot(draft, setSavedId) : null}
      </div>
    </div>
  );
}
