/**
 * Meadows (the `areas` table): the outline drawn on the map with Mapbox GL Draw (vertices
 * editable afterwards), GERK-PID, the area in hectares computed from the outline, and the owner
 * farmer. An outline that crosses itself or has fewer than three corners is refused in Slovenian;
 * one whose area is far outside the scheme's meadows (`meadowDoubt`) asks before it is saved.
 * Saved through the Features API of the outbox (the row carries a geometry), offline too.
 */
import type { Geometry, MultiPolygon, Polygon } from 'geojson';
import { useState } from 'react';
import { OWN_BASEMAP_ID } from '../../../common/basemap';
import { formatNumber } from '../../../common/format';
import { slSetup } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { archiveEdit } from '../../lib/db/archive-edit';
import type { StoredRecord } from '../../lib/db/database';
import { readRow, toProperties } from '../../lib/db/model';
import { refKeysFor } from '../../lib/db/refs';
import type { DrawSlots } from './draw-slots';
import {
  DraftForm,
  RefusedNotes,
  RowActions,
  SaveMessage,
  SelectField,
  SetupListItem,
  SetupSection,
  TextField,
  prop,
  useAddressedEditor,
  useSetupDraft,
  type SetupScreenProps,
} from './setup-parts';
import { areaHa, meadowDoubt, polygonProblem } from './setup-rules';

export interface AreasScreenProps extends SetupScreenProps, DrawSlots {
  farmers: StoredRecord[];
}

interface AreaDraft {
  name: string;
  gerkPid: string;
  owner: string;
  /** The stored outline being corrected (stable identity for the drawing tool). */
  initial: Geometry | null;
}

const haText = (geometry: Geometry | null): string =>
  geometry && (geometry.type === 'Polygon' || geometry.type === 'MultiPolygon') && !polygonProblem(geometry)
    ? slSetup.areas.ha(formatNumber(areaHa(geometry as Polygon | MultiPolygon)))
    : '–';

export function AreasScreen(props: AreasScreenProps) {
  const { config, rows, loaded, readOnly, online, save, refused, farmers, renderMap, renderDraw, openId, go } = props;
  const { draft, setDraft, error, saved, busy, open, close, submit } = useSetupDraft<AreaDraft>();
  const [geometry, setGeometry] = useState<Geometry | null>(null);
  const [owner, setOwner] = useState('');
  // The doubt about the outline the editor was shown (Slovenian); saving again saves it anyway.
  const [doubt, setDoubt] = useState<string | null>(null);
  const outlineChanged = (next: Geometry | null) => {
    setGeometry(next);
    setDoubt(null);
  };
  const liveFarmers = farmers.filter((f) => !f.archived);
  // The built-in base map (country borders, a grid) is all there is to draw on: say so.
  const ownBasemapOnly = (config.basemaps ?? []).every((basemap) => basemap.id === OWN_BASEMAP_ID);
  const farmerName = (id: number | null) =>
    prop(
      config,
      'farmers',
      liveFarmers.find((f) => f.id === id),
      'name',
    );
  const live = rows.filter((r) => !r.archived && (owner === '' || prop(config, 'areas', r, 'user') === owner));

  const edit = (row?: StoredRecord) => {
    setGeometry(row?.geometry ?? null);
    open(
      row
        ? {
            name: prop(config, 'areas', row, 'name'),
            gerkPid: prop(config, 'areas', row, 'gerk_pid'),
            owner: prop(config, 'areas', row, 'user'),
            initial: row.geometry ?? null,
          }
        : { name: '', gerkPid: '', owner, initial: null },
    );
  };
  useAddressedEditor(props, draft !== null, edit, close);
  /** The meadow being edited (its id now); null for a new one. */
  const editing = typeof openId === 'number' ? openId : null;

  const store = (d: AreaDraft, anyway = false) => {
    const problem = !d.name.trim()
      ? slSetup.common.required(slSetup.areas.name)
      : !d.owner
        ? slSetup.common.required(slSetup.areas.owner)
        : polygonProblem(geometry);
    // Asked about a new or redrawn outline only: renaming a meadow saved after the question asks nothing.
    const doubtful = problem || JSON.stringify(geometry) === JSON.stringify(d.initial) ? null : meadowDoubt(geometry as Polygon | MultiPolygon);
    if (doubtful && !anyway) return setDoubt(doubtful);
    setDoubt(null);
    return submit(problem, () => {
      const outline = geometry as Polygon | MultiPolygon;
      const properties = toProperties(config, 'areas', { name: d.name.trim(), gerk_pid: d.gerkPid.trim(), user: Number(d.owner), area_ha: areaHa(outline) });
      const base = { projectId: config.projectId, tableId: config.tables.areas.id, isRecord: false, geometry: outline, refs: refKeysFor(config, 'areas') };
      return save([editing === null ? { ...base, kind: 'insert', properties } : { ...base, kind: 'update', id: editing, properties }]);
    });
  };

  const farmerOptions = liveFarmers.map((f) => ({ value: String(f.id), label: prop(config, 'farmers', f, 'name') }));
  return (
    <div className="setup setup--map">
      <div className="setup__map">{renderMap({ areas: draft ? live.filter((r) => r.id !== editing) : live, paths: [] })}</div>
      <div className="setup__panel">
        <RefusedNotes refused={refused} />
        <SaveMessage error={draft ? null : error} saved={saved && !draft} online={online} />
        {draft ? (
          <SetupSection title={editing === null ? slSetup.areas.add : draft.name || slSetup.areas.title}>
            <DraftForm onSubmit={() => void store(draft)} onCancel={close} busy={busy} error={error} online={online}>
              <TextField label={slSetup.areas.name} name="name" value={draft.name} onChange={(name) => setDraft({ ...draft, name })} />
              <TextField label={slSetup.areas.gerkPid} name="gerk_pid" value={draft.gerkPid} onChange={(gerkPid) => setDraft({ ...draft, gerkPid })} />
              <SelectField
                label={slSetup.areas.owner}
                name="owner"
                value={draft.owner}
                placeholder={slSetup.areas.chooseOwner}
                options={farmerOptions}
                onChange={(o) => setDraft({ ...draft, owner: o })}
              />
              {ownBasemapOnly ? (
                <p className="field__hint" data-testid="basemap-note">
                  {slSetup.areas.basemapNote}
                </p>
              ) : null}
              {renderDraw({ mode: 'polygon', initial: draft.initial, onChange: outlineChanged, hint: slSetup.areas.drawHint })}
              <p data-testid="area-ha">
                {slSetup.areas.areaHa}: <strong>{haText(geometry)}</strong>
              </p>
              {doubt ? (
                <div className="setup__warning" role="alert" data-testid="area-doubt">
                  <p>{doubt}</p>
                  <Button kind="danger" text={slSetup.areas.saveAnyway} disabled={busy} onClick={() => void store(draft, true)} />
                </div>
              ) : null}
            </DraftForm>
          </SetupSection>
        ) : (
          <SetupSection title={slSetup.areas.title} actions={readOnly ? null : <Button text={slSetup.areas.add} onClick={() => go('new')} />}>
            <SelectField
              label={slSetup.areas.owner}
              name="filter-owner"
              value={owner}
              placeholder={slSetup.areas.allOwners}
              options={farmerOptions}
              onChange={setOwner}
            />
            {!loaded ? null : live.length === 0 ? (
              <p>{slSetup.common.none}</p>
            ) : (
              <ul className="setup__list">
                {live.map((row) => {
                  const name = prop(config, 'areas', row, 'name');
                  return (
                    <SetupListItem
                      key={row.id}
                      testId={`setup-area-${row.id}`}
                      name={name}
                      details={`${farmerName(readRow(config, 'areas', row).user)} · ${slSetup.areas.gerkPid} ${prop(config, 'areas', row, 'gerk_pid') || '–'} · ${haText(row.geometry ?? null)}`}
                      actions={
                        readOnly ? null : (
                          <RowActions
                            onEdit={() => go(row.id)}
                            archiveConfirm={slSetup.areas.archiveConfirm(name)}
                            onArchive={() => save([archiveEdit(config, 'areas', row.id)]).then(() => undefined)}
                          />
                        )
                      }
                    />
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
