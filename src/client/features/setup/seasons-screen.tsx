/**
 * Seasons (the `durations` table): the list with the current one marked (today within
 * filter_start..filter_end, the rule the loading chain uses), create, rename, change dates and
 * the review loop's deadlines (submit_until, review_until, appeal_days), and archive. Overlapping
 * windows are refused here and by the server.
 */
import { formatDate } from '../../../common/format';
import { slSetup } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { archiveEdit } from '../../lib/db/archive-edit';
import type { StoredRecord } from '../../lib/db/database';
import { readRow, toProperties, type Duration } from '../../lib/db/model';
import {
  DraftForm,
  RefusedNotes,
  RowActions,
  SaveMessage,
  SetupSection,
  SetupTable,
  TextField,
  prop,
  useAddressedEditor,
  useSetupDraft,
  type SetupScreenProps,
} from './setup-parts';
import { appealDaysOf, isCurrentSeason, seasonProblem, type SeasonDraft } from './setup-rules';

export interface SeasonsScreenProps extends SetupScreenProps {
  /** Today as YYYY-MM-DD in the device's time zone. */
  today: string;
}

const EMPTY: SeasonDraft = { name: '', start: '', end: '', submitUntil: '', reviewUntil: '', appealDays: '' };

export function SeasonsScreen(props: SeasonsScreenProps) {
  const { config, rows, loaded, readOnly, online, save, refused, today, openId, go } = props;
  const { draft, setDraft, error, saved, busy, open, close, submit } = useSetupDraft<SeasonDraft>();
  const live = rows
    .filter((r) => !r.archived)
    .sort((a, b) => prop(config, 'durations', b, 'filter_start').localeCompare(prop(config, 'durations', a, 'filter_start')));
  const current = live.find((r) => isCurrentSeason(readRow(config, 'durations', r), today));
  const name = (row: StoredRecord) => prop(config, 'durations', row, 'name');

  const edit = (row?: StoredRecord) => {
    if (!row) return open(EMPTY);
    const season = readRow(config, 'durations', row);
    open({
      name: name(row),
      start: (season.filter_start ?? '').slice(0, 10),
      end: (season.filter_end ?? '').slice(0, 10),
      submitUntil: (season.submit_until ?? '').slice(0, 10),
      reviewUntil: (season.review_until ?? '').slice(0, 10),
      appealDays: season.appeal_days === null ? '' : String(season.appeal_days),
    });
  };

  useAddressedEditor(props, draft !== null, edit, close);
  /** The season being edited (the id the row has now); null for a new one. */
  const editing = typeof openId === 'number' ? openId : null;

  const store = (d: SeasonDraft) =>
    submit(
      seasonProblem(
        editing === null ? d : { ...d, id: editing },
        rows.map((r) => readRow(config, 'durations', r)),
      ),
      () => {
        const properties = toProperties(config, 'durations', {
          name: d.name.trim(),
          filter_start: d.start,
          filter_end: d.end,
          // Cleared fields clear the deadline (null), so a season can drop one again.
          submit_until: d.submitUntil || null,
          review_until: d.reviewUntil || null,
          appeal_days: appealDaysOf(d.appealDays),
        });
        const base = { projectId: config.projectId, tableId: config.tables.durations.id };
        return save([editing === null ? { ...base, kind: 'insert', properties } : { ...base, kind: 'update', id: editing, properties }]);
      },
    );

  return (
    <div className="setup">
      <p className="setup__rule" data-testid="current-season">
        {slSetup.seasons.currentRule} {current ? <strong>{name(current)}</strong> : slSetup.seasons.noCurrent}
      </p>
      <RefusedNotes refused={refused} />
      <SaveMessage error={draft ? null : error} saved={saved && !draft} online={online} />
      {draft ? (
        <SetupSection
          title={
            editing === null
              ? slSetup.seasons.add
              : prop(
                  config,
                  'durations',
                  rows.find((r) => r.id === editing),
                  'name',
                )
          }
        >
          <DraftForm onSubmit={() => void store(draft)} onCancel={close} busy={busy} error={error} online={online}>
            <TextField label={slSetup.seasons.name} name="name" value={draft.name} onChange={(n) => setDraft({ ...draft, name: n })} />
            <TextField label={slSetup.seasons.start} name="start" type="date" value={draft.start} onChange={(start) => setDraft({ ...draft, start })} />
            <TextField label={slSetup.seasons.end} name="end" type="date" value={draft.end} onChange={(end) => setDraft({ ...draft, end })} />
            <TextField
              label={slSetup.seasons.submitUntil}
              name="submit_until"
              type="date"
              value={draft.submitUntil}
              onChange={(submitUntil) => setDraft({ ...draft, submitUntil })}
            />
            <TextField
              label={slSetup.seasons.reviewUntil}
              name="review_until"
              type="date"
              value={draft.reviewUntil}
              onChange={(reviewUntil) => setDraft({ ...draft, reviewUntil })}
            />
            <TextField
              label={slSetup.seasons.appealDays}
              hint={slSetup.seasons.appealDaysHint}
              name="appeal_days"
              inputMode="numeric"
              value={draft.appealDays}
              onChange={(appealDays) => setDraft({ ...draft, appealDays })}
            />
          </DraftForm>
        </SetupSection>
      ) : null}
      {/* A new season only once the device's are read: its dates are checked against them for overlap. */}
      <SetupSection
        title={slSetup.seasons.title}
        actions={readOnly || draft || !loaded ? null : <Button text={slSetup.seasons.add} onClick={() => go('new')} />}
      >
        {!loaded ? null : live.length === 0 ? (
          <p>{slSetup.common.none}</p>
        ) : (
          <SetupTable
            columns={[slSetup.seasons.name, slSetup.seasons.start, slSetup.seasons.end, slSetup.seasons.deadlines]}
            rows={live}
            testId={(row) => `season-${row.id}`}
            cells={(row) => [
              <>
                {name(row)} {row === current ? <span className="setup__badge">{slSetup.seasons.current}</span> : null}
              </>,
              formatDay(prop(config, 'durations', row, 'filter_start')),
              formatDay(prop(config, 'durations', row, 'filter_end')),
              deadlines(readRow(config, 'durations', row)),
            ]}
            actions={
              readOnly
                ? undefined
                : (row) => (
                    <RowActions
                      onEdit={() => go(row.id)}
                      archiveConfirm={slSetup.seasons.archiveConfirm(name(row))}
                      onArchive={() => save([archiveEdit(config, 'durations', row.id)]).then(() => undefined)}
                    />
                  )
            }
          />
        )}
      </SetupSection>
    </div>
  );
}

/** The season's deadlines in one cell: 'oddaja 31. 12. 2026 · pregled 31. 1. 2027 · pritožba 15 dni'. */
function deadlines(season: Duration): string {
  const s = slSetup.seasons;
  return [
    `${s.submitUntil}: ${season.submit_until ? formatDay(season.submit_until) : s.noDeadline}`,
    `${s.reviewUntil}: ${season.review_until ? formatDay(season.review_until) : s.noDeadline}`,
    `${s.appealDays}: ${season.appeal_days ?? s.noDeadline}`,
  ].join(' · ');
}

function formatDay(value: string): string {
  return value ? formatDate(value.slice(0, 10)) : '';
}
