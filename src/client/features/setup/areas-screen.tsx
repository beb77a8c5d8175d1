/**
 * Meadows (the `areas` table): the outline drawn on the map with Mapbox GL Draw (vertices
 * editable afterwards), GERK-PID, the area in hectares computed from the outline, and the owner
 * farmer. An outline that crosses itself or has fewer than three corners is refused in Slovenian.
 * Saved through the Features API of the outbox (the row carries a geometry), offline too.
 */
import type { Geometry, MultiPolygon, Polygon } from 'geojson';
import { useState } from 'react';
import { slScreens, slSetup } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { useUnsavedChanges } from '../../components/confirm-leave/unsaved-changes';
import type { StoredRecord } from '../../lib/db/database';
import { columnKey, refKeysFor } from '../../lib/db/refs';
import type { DrawSlots } from './draw-slots';
import { DraftForm, RefusedNotes, RowActions, SaveMessage, SelectField, SetupSection, TextField, prop, type SetupScreenProps } from './setup-parts';
import { areaHa, polygonProblem } from './setup-rules';

export interface AreasScreenProps extends SetupScreenProps, DrawSlots {
  farmers: StoredRecord[];
}

interface AreaDraft {
  id?: number;
  name: string;
  gerkPid: string;
  owner: string;
  /** The stored outline being corrected (stable identity for the drawing tool). */
  initial: Geometry | null;
}

const haText = (geometry: Geometry | null): string =>
  geometry && (geometry.type === 'Polygon' || geometry.type === 'MultiPolygon') && !polygonProblem(geometry) ? slSetup.areas.ha(areaHa(geometry as Polygon | MultiPolygon).toLocaleString('sl-SI')) : '–';

export function AreasScreen({ config, rows, loaded, readOnly, online, save, refused, farmers, renderMap, renderDraw }: AreasScreenProps) {
  const col = (name: string) => columnKey(config, 'areas', name);
  const [draft, setDraft] = useState<AreaDraft | null>(null);
  const [geometry, setGeometry] = useState<Geometry | null>(null);
  const [owner, setOwner] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  useUnsavedChanges(draft !== null);
  const liveFarmers = farmers.filter((f) => !f.archived);
  const farmerName = (id: unknown) => prop(config, 'farmers', liveFarmers.find((f) => f.id === Number(id)), 'name');
  const live = rows.filter((r) => !r.archived && (owner === '' || String(r.properties[col('user')]) === owner));

  const open = (row?: StoredRecord) => {
    setSaved(false);
    setError(null);
    setGeometry(row?.geometry ?? null);
    setDraft(
      row
        ? { id: row.id, name: prop(config, 'areas', row, 'name'), gerkPid: prop(config, 'areas', row, 'gerk_pid'), owner: prop(config, 'areas', row, 'user'), initial: row.geometry ?? null }
        : { name: '', gerkPid: '', owner, initial: null },
    );
  };

  const submit = async () => {
    if (!draft) return;
    const problem = !draft.name.trim()
      ? slSetup.common.required(slSetup.areas.name)
      : !draft.owner
        ? slSetup.common.required(slSetup.areas.owner)
        : polygonProblem(geometry);
    setError(problem);
    if (problem || !geometry) return;
    const properties = {
      [col('name')]: draft.name.trim(),
      [col('gerk_pid')]: draft.gerkPid.trim(),
      [col('user')]: Number(draft.owner),
      [col('area_ha')]: areaHa(geometry as Polygon | MultiPolygon),
    };
    setBusy(true);
    try {
      const base = { projectId: config.projectId, tableId: config.tables.areas.id, isRecord: false, geometry, refs: refKeysFor(config, 'areas') };
      await save([draft.id === undefined ? { ...base, kind: 'insert', properties } : { ...base, kind: 'update', id: draft.id, properties }]);
      setDraft(null);
      setSaved(true);
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : slScreens.states.saveFailed);
    } finally {
      setBusy(false);
    }
  };

  const farmerOptions = liveFarmers.map((f) => ({ value: String(f.id), label: prop(config, 'farmers', f, 'name') }));
  return (
    <div className="setup setup--map">
      <div className="setup__map">{renderMap({ areas: draft ? live.filter((r) => r.id !== draft.id) : live, paths: [] })}</div>
      <div className="setup__panel">
        <RefusedNotes refused={refused} />
        <SaveMessage error={draft ? null : error} saved={saved && !draft} online={online} />
        {draft ? (
          <SetupSection title={draft.id === undefined ? slSetup.areas.add : draft.name || slSetup.areas.title}>
            <DraftForm onSubmit={() => void submit()} onCancel={() => setDraft(null)} busy={busy} error={error} online={online}>
              <TextField label={slSetup.areas.name} name="name" value={draft.name} onChange={(name) => setDraft({ ...draft, name })} />
              <TextField label={slSetup.areas.gerkPid} name="gerk_pid" value={draft.gerkPid} onChange={(gerkPid) => setDraft({ ...draft, gerkPid })} />
              <SelectField label={slSetup.areas.owner} name="owner" value={draft.owner} placeholder={slSetup.areas.chooseOwner} options={farmerOptions} onChange={(o) => setDraft({ ...draft, owner: o })} />
              {renderDraw({ mode: 'polygon', initial: draft.initial, onChange: setGeometry, hint: slSetup.areas.drawHint })}
              <p data-testid="area-ha">
                {slSetup.areas.areaHa}: <strong>{haText(geometry)}</strong>
              </p>
            </DraftForm>
          </SetupSection>
        ) : (
          <SetupSection title={slSetup.areas.title} actions={readOnly ? null : <Button text={slSetup.areas.add} onClick={() => open()} />}>
            <SelectField label={slSetup.areas.owner} name="filter-owner" value={owner} placeholder={slSetup.areas.allOwners} options={farmerOptions} onChange={setOwner} />
            {!loaded ? null : live.length === 0 ? (
              <p>{slSetup.common.none}</p>
            ) : (
              <ul className="setup__list">
                {live.map((row) => {
                  const name = prop(config, 'areas', row, 'name');
                  return (
                    <li key={row.id} className="setup__item" data-testid={`setup-area-${row.id}`}>
                      <div>
                        <strong>{name}</strong>
                        <span>
                          {farmerName(row.properties[col('user')])} · {slSetup.areas.gerkPid} {prop(config, 'areas', row, 'gerk_pid') || '–'} · {haText(row.geometry ?? null)}
                        </span>
                      </div>
                      {readOnly ? null : (
                        <RowActions
                          onEdit={() => open(row)}
                          archiveConfirm={slSetup.areas.archiveConfirm(name)}
                          onArchive={async () => {
                            await save([{ kind: 'archive', projectId: config.projectId, tableId: config.tables.areas.id, id: row.id }]);
                          }}
                        />
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
          </SetupSection>
        )}
      </div>
    </div>
  );
}
