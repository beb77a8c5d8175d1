/**
 * Seasons (the `durations` table): the list with the current one marked (today within
 * filter_start..filter_end, the rule the loading chain uses), create, rename, change dates and
 * archive. Overlapping windows are refused here and by the server.
 */
import { useState } from 'react';
import { formatDate } from '../../../common/format';
import { slScreens, slSetup } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { useUnsavedChanges } from '../../components/confirm-leave/unsaved-changes';
import type { StoredRecord } from '../../lib/db/database';
import { columnKey } from '../../lib/db/refs';
import { DraftForm, RefusedNotes, RowActions, SaveMessage, SetupSection, TextField, prop, type SetupScreenProps } from './setup-parts';
import { isCurrentSeason, seasonProblem, type SeasonDraft } from './setup-rules';

export interface SeasonsScreenProps extends SetupScreenProps {
  /** Today as YYYY-MM-DD in the device's time zone. */
  today: string;
}

const EMPTY: SeasonDraft = { name: '', start: '', end: '' };

export function SeasonsScreen({ config, rows, loaded, readOnly, online, save, refused, today }: SeasonsScreenProps) {
  const columns = { name: columnKey(config, 'durations', 'name'), start: columnKey(config, 'durations', 'filter_start'), end: columnKey(config, 'durations', 'filter_end') };
  const [draft, setDraft] = useState<SeasonDraft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  useUnsavedChanges(draft !== null);
  const live = rows.filter((r) => !r.archived).sort((a, b) => prop(config, 'durations', b, 'filter_start').localeCompare(prop(config, 'durations', a, 'filter_start')));
  const current = live.find((r) => isCurrentSeason(r, columns, today));

  const open = (row?: StoredRecord) => {
    setSaved(false);
    setError(null);
    setDraft(
      row
        ? { id: row.id, name: prop(config, 'durations', row, 'name'), start: prop(config, 'durations', row, 'filter_start').slice(0, 10), end: prop(config, 'durations', row, 'filter_end').slice(0, 10) }
        : EMPTY,
    );
  };

  const submit = async () => {
    if (!draft) return;
    const problem = seasonProblem(draft, rows, columns);
    setError(problem);
    if (problem) return;
    const properties = { [columns.name]: draft.name.trim(), [columns.start]: draft.start, [columns.end]: draft.end };
    setBusy(true);
    try {
      const base = { projectId: config.projectId, tableId: config.tables.durations.id };
      await save([draft.id === undefined ? { ...base, kind: 'insert', properties } : { ...base, kind: 'update', id: draft.id, properties }]);
      setDraft(null);
      setSaved(true);
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : slScreens.states.saveFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="setup">
      <p className="setup__rule" data-testid="current-season">
        {slSetup.seasons.currentRule} {current ? <strong>{prop(config, 'durations', current, 'name')}</strong> : slSetup.seasons.noCurrent}
      </p>
      <RefusedNotes refused={refused} />
      <SaveMessage error={draft ? null : error} saved={saved && !draft} online={online} />
      {draft ? (
        <SetupSection title={draft.id === undefined ? slSetup.seasons.add : prop(config, 'durations', rows.find((r) => r.id === draft.id), 'name')}>
          <DraftForm onSubmit={() => void submit()} onCancel={() => setDraft(null)} busy={busy} error={error} online={online}>
            <TextField label={slSetup.seasons.name} name="name" value={draft.name} onChange={(name) => setDraft({ ...draft, name })} />
            <TextField label={slSetup.seasons.start} name="start" type="date" value={draft.start} onChange={(start) => setDraft({ ...draft, start })} />
            <TextField label={slSetup.seasons.end} name="end" type="date" value={draft.end} onChange={(end) => setDraft({ ...draft, end })} />
          </DraftForm>
        </SetupSection>
      ) : null}
      <SetupSection title={slSetup.seasons.title} actions={readOnly || draft ? null : <Button text={slSetup.seasons.add} onClick={() => open()} />}>
        {!loaded ? null : live.length === 0 ? (
          <p>{slSetup.common.none}</p>
        ) : (
          <table className="data-table setup__table">
            <thead>
              <tr>
                <th scope="col">{slSetup.seasons.name}</th>
                <th scope="col">{slSetup.seasons.start}</th>
                <th scope="col">{slSetup.seasons.end}</th>
                {readOnly ? null : <th scope="col"><span className="visually-hidden">{slSetup.common.edit}</span></th>}
              </tr>
            </thead>
            <tbody>
              {live.map((row) => {
                const name = prop(config, 'durations', row, 'name');
                return (
                  <tr key={row.id} data-testid={`season-${row.id}`}>
                    <th scope="row">
                      {name} {row === current ? <span className="setup__badge">{slSetup.seasons.current}</span> : null}
                    </th>
                    <td data-label={slSetup.seasons.start}>{formatDay(prop(config, 'durations', row, 'filter_start'))}</td>
                    <td data-label={slSetup.seasons.end}>{formatDay(prop(config, 'durations', row, 'filter_end'))}</td>
                    {readOnly ? null : (
                      <td className="setup__actions-cell">
                        <RowActions
                          onEdit={() => open(row)}
                          archiveConfirm={slSetup.seasons.archiveConfirm(name)}
                          onArchive={async () => {
                            await save([{ kind: 'archive', projectId: config.projectId, tableId: config.tables.durations.id, id: row.id }]);
                          }}
                        />
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </SetupSection>
    </div>
  );
}

function formatDay(value: string): string {
  return value ? formatDate(value.slice(0, 10)) : '';
}
