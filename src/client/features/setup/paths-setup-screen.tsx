/**
 * Transects (the `paths` table) for editors: by meadow, with whether each has a line yet; create
 * one (drawn, or left for the farmer to walk), correct its line or name, archive it.
 */
import type { LineString, MultiLineString } from 'geojson';
import { useState } from 'react';
import { slSetup } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { archiveEdit } from '../../lib/db/archive-edit';
import type { StoredRecord } from '../../lib/db/database';
import type { LocalEdit } from '../../lib/db/outbox';
import { readRow, toProperties } from '../../lib/db/model';
import { refKeysFor } from '../../lib/db/refs';
import type { AppConfig } from '../../../common/schemas/config';
import type { DrawSlots } from './draw-slots';
import { PathForm, type PathDraft } from './path-form';
import {
  RefusedNotes,
  RowActions,
  SaveMessage,
  SelectField,
  SetupListItem,
  SetupSection,
  prop,
  useAddressedEditor,
  type SetupScreenProps,
} from './setup-parts';

export interface PathsSetupScreenProps extends SetupScreenProps, DrawSlots {
  areas: StoredRecord[];
}

/** The outbox edit that creates or updates a path from the form (shared with farmers' own paths). */
export function pathEdit(config: AppConfig, draft: PathDraft, geometry: LineString | MultiLineString | null): LocalEdit {
  const properties = toProperties(config, 'paths', { name: draft.name, parent: Number(draft.areaId) });
  const base = { projectId: config.projectId, tableId: config.tables.paths.id, isRecord: false, refs: refKeysFor(config, 'paths') };
  if (draft.id === undefined) return { ...base, kind: 'insert', properties, geometry };
  // A correction leaves the walk (raw GPS fixes) as it is: only the line and the name change.
  return { ...base, kind: 'update', id: draft.id, properties, ...(geometry ? { geometry } : {}) };
}

export function PathsSetupScreen(props: PathsSetupScreenProps) {
  const { config, rows, loaded, readOnly, online, save, refused, areas, renderMap, renderDraw, openId, go } = props;
  const [draft, setDraft] = useState<PathDraft | null>(null);
  const [areaFilter, setAreaFilter] = useState('');
  const [saved, setSaved] = useState(false);
  const liveAreas = areas.filter((a) => !a.archived);
  const live = rows.filter((r) => !r.archived && (areaFilter === '' || prop(config, 'paths', r, 'parent') === areaFilter));
  const areaName = (id: number | null) =>
    prop(
      config,
      'areas',
      liveAreas.find((a) => a.id === id),
      'name',
    );
  // The draft's id only tells the form that the path exists; what is saved names the id the
  // address holds now (`editing`), which follows a delivery.
  const open = (row?: StoredRecord) => {
    setSaved(false);
    setDraft(
      row
        ? { id: row.id, name: prop(config, 'paths', row, 'name'), areaId: prop(config, 'paths', row, 'parent'), how: 'draw', initial: row.geometry ?? null }
        : { name: '', areaId: areaFilter, how: 'draw', initial: null },
    );
  };

  useAddressedEditor(props, draft !== null, open, () => setDraft(null));
  /** The path being edited (the id the row has now); null for a new one. */
  const editing = typeof openId === 'number' ? openId : null;

  if (draft) {
    return (
      <PathForm
        config={config}
        areas={liveAreas}
        draft={draft}
        walkLabel={slSetup.paths.howWalk}
        renderMap={renderMap}
        renderDraw={renderDraw}
        onCancel={() => setDraft(null)}
        onSave={async (d, geometry) => {
          await save([pathEdit(config, editing === null ? d : { ...d, id: editing }, geometry)]);
          setDraft(null);
          setSaved(true);
        }}
      />
    );
  }

  return (
    <div className="setup setup--map">
      <div className="setup__map">{renderMap({ areas: areaFilter ? liveAreas.filter((a) => String(a.id) === areaFilter) : liveAreas, paths: live })}</div>
      <div className="setup__panel">
        <RefusedNotes refused={refused} />
        <SaveMessage error={null} saved={saved} online={online} />
        <SetupSection title={slSetup.paths.title} actions={readOnly ? null : <Button text={slSetup.paths.add} onClick={() => go('new')} />}>
          <SelectField
            label={slSetup.paths.area}
            name="filter-area"
            value={areaFilter}
            placeholder={slSetup.paths.allAreas}
            options={liveAreas.map((a) => ({ value: String(a.id), label: prop(config, 'areas', a, 'name') }))}
            onChange={setAreaFilter}
          />
          {!loaded ? null : live.length === 0 ? (
            <p>{slSetup.common.none}</p>
          ) : (
            <ul className="setup__list">
              {live.map((row) => {
                const name = prop(config, 'paths', row, 'name');
                return (
                  <SetupListItem
                    key={row.id}
                    testId={`setup-path-${row.id}`}
                    name={name}
                    details={`${areaName(readRow(config, 'paths', row).parent)}${row.geometry ? '' : ` · ${slSetup.paths.notDrawn}`}`}
                    actions={
                      readOnly ? null : (
                        <RowActions
                          onEdit={() => go(row.id)}
                          archiveConfirm={slSetup.paths.archiveConfirm(name)}
                          onArchive={() => save([archiveEdit(config, 'paths', row.id)]).then(() => undefined)}
                        />
                      )
                    }
                  />
                );
              })}
            </ul>
          )}
        </SetupSection>
      </div>
    </div>
  );
}
