/**
 * Seasons (the `durations` table): the list with the current one marked (today within
 * filter_start..filter_end, the rule the loading chain uses), create, rename, change dates and
 * archive. Overlapping windows are refused here and by the server.
 */
import { formatDate } from '../../../common/format';
import { slSetup } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import type { StoredRecord } from '../../lib/db/database';
import { readRow, toProperties } from '../../lib/db/model';
import { DraftForm, RefusedNotes, RowActions, SaveMessage, SetupSection, SetupTable, TextField, archiveEdit, prop, useSetupDraft, type SetupScreenProps } from './setup-parts';
import { isCurrentSeason, seasonProblem, type SeasonDraft } from './setup-rules';

export interface SeasonsScreenProps extends SetupScreenProps {
  /** Today as YYYY-MM-DD in the device's time zone. */
  today: string;
}

const EMPTY: SeasonDraft = { name: '', start: '', end: '' };

export function SeasonsScreen({ config, rows, loaded, readOnly, online, save, refused, today }: SeasonsScreenProps) {
  const { draft, setDraft, error, saved, busy, open, close, submit } = useSetupDraft<SeasonDraft>();
  const live = rows.filter((r) => !r.archived).sort((a, b) => prop(config, 'durations', b, 'filter_start').localeCompare(prop(config, 'durations', a, 'filter_start')));
  const current = live.find((r) => isCurrentSeason(readRow(config, 'durations', r), today));
  const name = (row: StoredRecord) => prop(config, 'durations', row, 'name');

  const edit = (row?: StoredRecord) =>
    open(row ? { id: row.id, name: name(row), start: prop(config, 'durations', row, 'filter_start').slice(0, 10), end: prop(config, 'durations', row, 'filter_end').slice(0, 10) } : EMPTY);

  const store = (d: SeasonDraft) =>
    submit(seasonProblem(d, rows.map((r) => readRow(config, 'durations', r))), () => {
      const properties = toProperties(config, 'durations', { name: d.name.trim(), filter_start: d.start, filter_end: d.end });
      const base = { projectId: config.projectId, tableId: config.tables.durations.id };
      return save([d.id === undefined ? { ...base, kind: 'insert', properties } : { ...base, kind: 'update', id: d.id, properties }]);
    });

  return (
    <div className="setup">
      <p className="setup__rule" data-testid="current-season">
        {slSetup.seasons.currentRule} {current ? <strong>{name(current)}</strong> : slSetup.seasons.noCurrent}
      </p>
      <RefusedNotes refused={refused} />
      <SaveMessage error={draft ? null : error} saved={saved && !draft} online={online} />
      {draft ? (
        <SetupSection title={draft.id === undefined ? slSetup.seasons.add : prop(config, 'durations', rows.find((r) => r.id === draft.id), 'name')}>
          <DraftForm onSubmit={() => void store(draft)} onCancel={close} busy={busy} error={error} online={online}>
            <TextField label={slSetup.seasons.name} name="name" value={draft.name} onChange={(n) => setDraft({ ...draft, name: n })} />
            <TextField label={slSetup.seasons.start} name="start" type="date" value={draft.start} onChange={(start) => setDraft({ ...draft, start })} />
            <TextField label={slSetup.seasons.end} name="end" type="date" value={draft.end} onChange={(end) => setDraft({ ...draft, end })} />
          </DraftForm>
        </SetupSection>
      ) : null}
      {/* A new season only once the device's are read: its dates are checked against them for overlap. */}
      <SetupSection title={slSetup.seasons.title} actions={readOnly || draft || !loaded ? null : <Button text={slSetup.seasons.add} onClick={() => edit()} />}>
        {!loaded ? null : live.length === 0 ? (
          <p>{slSetup.common.none}</p>
        ) : (
          <SetupTable
            columns={[slSetup.seasons.name, slSetup.seasons.start, slSetup.seasons.end]}
            rows={live}
            testId={(row) => `season-${row.id}`}
            cells={(row) => [
              <>
                {name(row)} {row === current ? <span className="setup__badge">{slSetup.seasons.current}</span> : null}
              </>,
              formatDay(prop(config, 'durations', row, 'filter_start')),
              formatDay(prop(config, 'durations', row, 'filter_end')),
            ]}
            actions={
              readOnly
                ? undefined
                : (row) => <RowActions onEdit={() => edit(row)} archiveConfirm={slSetup.seasons.archiveConfirm(name(row))} onArchive={() => save([archiveEdit(config, 'durations', row.id)]).then(() => undefined)} />
            }
          />
        )}
      </SetupSection>
    </div>
  );
}

function formatDay(value: string): string {
  return value ? formatDate(value.slice(0, 10)) : '';
}
