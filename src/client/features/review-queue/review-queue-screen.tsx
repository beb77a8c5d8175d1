/**
 * "Pregled": the forms waiting for advisers (submitted or appealed), oldest submission first, read
 * from the server (use-review-queue.ts) and filtered by farmer, meadow, form kind and state. Each
 * row opens the form's own screen (indicators, photos, map, explained score, last season), where
 * the decision panel is. Editors tick forms and approve them at once ("Potrdi izbrane"): each is
 * one outbox edit made by `saveMoves`, the decision panel's own save; the report says how many the
 * server accepted and lists the refused ones with the reason. Readers see the list without actions.
 * Online only. A table on wide screens, a card per form on phones (the shared `data-table` styles).
 */
import { useId, useMemo, useState, type ReactNode } from 'react';
import { formatDateTime } from '../../../common/format';
import { slReview, slReviewQueue } from '../../../common/i18n/sl';
import { AWAITING_REVIEW, dayInSlovenia } from '../../../common/review';
import type { AppConfig } from '../../../common/schemas/config';
import { Button } from '../../components/button/button';
import { ChevronRightIcon, SuccessIcon } from '../../components/icons/icons';
import { Loading } from '../../components/loading/loading';
import { ScoreBadge } from '../../components/score-badge/score-badge';
import { OfflineNote } from '../../components/screen-state/screen-state';
import { useOfflineDb } from '../../app/hooks';
import { refreshRows } from '../../lib/db/local-data';
import { saveMoves, type MovesSaved, type SaveEdits } from './review-move';
import { filterRows, optionsOf, queueRows, type QueueRow } from './review-queue-model';
import { useMoveOutcomes, type OutboxView } from './use-move-outcomes';
import { useReviewQueue, type QueueQuery } from './use-review-queue';

export interface ReviewQueueScreenProps {
  config: AppConfig;
  online: boolean;
  /** Editors approve; readers look. */
  role: 'editor' | 'reader' | 'farmer' | null;
  /** The outbox save of the route (app/routes/screen-data.ts `useSaveEdits`). */
  saveEdits: SaveEdits;
  /** The outbox as features/sync mirrors it: the report follows the saved approvals by it. */
  outbox: OutboxView;
  /** The address of a form's screen. */
  formHref: (formId: number) => string;
  /** 'YYYY-MM-DD' in Slovenia; defaults to today. */
  today?: string;
}

interface Filters {
  farmerId: string;
  areaId: string;
  kindId: string;
  state: QueueQuery['state'];
}

const NO_FILTERS: Filters = { farmerId: '', areaId: '', kindId: '', state: 'waiting' };
const NO_MOVES: MovesSaved['saved'] = [];

interface Report extends MovesSaved {
  total: number;
  /** What each approved form is called, kept from the list as it was (its row leaves the list). */
  names: Map<number, string>;
}

const rowName = (r: QueueRow) => [r.farmerName, r.areaName, r.pathName, r.kindTitle].filter(Boolean).join(', ');

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}

export function ReviewQueueScreen({ config, online, role, saveEdits, outbox, formHref, today }: ReviewQueueScreenProps) {
  const t = slReviewQueue;
  const id = useId();
  const db = useOfflineDb();
  const editor = role === 'editor';
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<Report | null>(null);
  const query: QueueQuery = { state: filters.state, kindId: filters.kindId ? Number(filters.kindId) : null };
  const data = useReviewQueue(config, online, query);
  const allRows = useMemo(() => (data.status === 'ready' ? queueRows(config, data.chain) : null), [config, data]);
  const rows = useMemo(
    () =>
      allRows
        ? filterRows(allRows, { farmerId: filters.farmerId ? Number(filters.farmerId) : null, areaId: filters.areaId ? Number(filters.areaId) : null })
        : null,
    [allRows, filters.farmerId, filters.areaId],
  );
  const farmers = useMemo(() => optionsOf(allRows ?? [], (r) => ({ id: r.farmerId, name: r.farmerName })), [allRows]);
  const areas = useMemo(
    () =>
      optionsOf(
        (allRows ?? []).filter((r) => !filters.farmerId || r.farmerId === Number(filters.farmerId)),
        (r) => ({ id: r.areaId, name: r.areaName }),
      ),
    [allRows, filters.farmerId],
  );
  const kinds = useMemo(() => Object.values(config.forms).sort((a, b) => a.title.localeCompare(b.title, 'sl')), [config.forms]);
  const outcomes = useMoveOutcomes(config.tables.forms.id, report?.saved ?? NO_MOVES, outbox);

  // Approvals saved here and not yet answered: their rows say so and cannot be ticked again.
  const waitingIds = new Set((report?.saved ?? []).filter((m) => (outcomes.get(m.opId)?.kind ?? 'waiting') === 'waiting').map((m) => m.formId));
  const set = (name: keyof Filters) => (value: string) => {
    setFilters((f) => ({ ...f, [name]: value, ...(name === 'farmerId' ? { areaId: '' } : {}) }));
    setSelected(new Set());
  };
  const shownSelected = (rows ?? []).filter((r) => selected.has(r.form.id) && !waitingIds.has(r.form.id));
  const toggle = (formId: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(formId)) next.delete(formId);
      else next.add(formId);
      return next;
    });
  const tickable = (rows ?? []).filter((r) => !waitingIds.has(r.form.id)).length;
  const allTicked = tickable > 0 && shownSelected.length === tickable;
  const toggleAll = () => setSelected(allTicked ? new Set() : new Set((rows ?? []).filter((r) => !waitingIds.has(r.form.id)).map((r) => r.form.id)));

  const onApprove = async () => {
    const chosen = shownSelected;
    if (!chosen.length || busy) return;
    setBusy(true);
    try {
      // The server's copies on the device: the outbox sends each move on the version it holds.
      await refreshRows(
        db,
        chosen.map((r) => r.record),
        { projectId: config.projectId, tableId: config.tables.forms.id },
      );
      const result = await saveMoves(
        saveEdits,
        config,
        chosen.map((r) => ({ form: r.form, move: { to: 'approved' } })),
        today ?? dayInSlovenia(new Date()),
      );
      setReport({ ...result, total: chosen.length, names: new Map(chosen.map((r) => [r.form.id, rowName(r)])) });
      setSelected(new Set());
    } catch (error) {
      setReport({ refused: [], saved: [], failed: error instanceof Error ? error.message : t.decision.saveFailed, total: chosen.length, names: new Map() });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="review-queue">
      <section className="card review-queue__filters" aria-labelledby={`${id}-filters`}>
        <h2 id={`${id}-filters`}>{t.filters}</h2>
        <div className="review-queue__fields">
          <Field id={`${id}-farmer`} label={t.farmer}>
            <select id={`${id}-farmer`} value={filters.farmerId} onChange={(e) => set('farmerId')(e.target.value)}>
              <option value="">{t.allFarmers}</option>
              {farmers.map((f) => (
                <option key={f.id} value={String(f.id)}>
                  {f.name}
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${id}-area`} label={t.area}>
            <select id={`${id}-area`} value={filters.areaId} onChange={(e) => set('areaId')(e.target.value)}>
              <option value="">{t.allAreas}</option>
              {areas.map((a) => (
                <option key={a.id} value={String(a.id)}>
                  {a.name}
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${id}-kind`} label={t.kind}>
            <select id={`${id}-kind`} value={filters.kindId} onChange={(e) => set('kindId')(e.target.value)}>
              <option value="">{t.allKinds}</option>
              {kinds.map((k) => (
                <option key={k.id} value={String(k.id)}>
                  {k.title}
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${id}-state`} label={t.state}>
            <select id={`${id}-state`} value={filters.state} onChange={(e) => set('state')(e.target.value)}>
              <option value="waiting">{t.allWaiting}</option>
              {AWAITING_REVIEW.map((s) => (
                <option key={s} value={s}>
                  {slReview.state[s]}
                </option>
              ))}
            </select>
          </Field>
        </div>
      </section>

      {report ? <BulkReport report={report} outcomes={outcomes} /> : null}

      {!online ? (
        <OfflineNote text={t.onlineOnly} />
      ) : data.status === 'failed' ? (
        <p className="screen-error" role="alert">
          {data.error ?? t.failed}
        </p>
      ) : !rows || !allRows ? (
        <Loading />
      ) : allRows.length === 0 && filters.state === 'waiting' && !filters.kindId ? (
        <p role="status" className="review-queue__empty">
          <SuccessIcon size={22} aria-hidden="true" /> {t.empty}
        </p>
      ) : rows.length === 0 ? (
        <p role="status" className="review-queue__empty">
          {t.emptyFiltered}
        </p>
      ) : (
        <>
          <div className="review-queue__bar">
            <p role="status" className="review-queue__total">
              {t.total(rows.length)}
            </p>
            {editor ? (
              <>
                <label className="review-queue__check review-queue__all">
                  <input type="checkbox" checked={allTicked} onChange={toggleAll} />
                  <span>{t.selectAll}</span>
                </label>
                <Button
                  icon={SuccessIcon}
                  text={t.approveSelected(shownSelected.length)}
                  disabled={!shownSelected.length || busy}
                  onClick={() => void onApprove()}
                />
              </>
            ) : (
              <p className="review-hint">{t.readOnly}</p>
            )}
          </div>
          <table className="data-table review-queue__table" aria-busy={data.fetching}>
            <caption className="visually-hidden">{t.title}</caption>
            <thead>
              <tr>
                {editor ? (
                  <th scope="col">
                    <span className="visually-hidden">{t.choose}</span>
                  </th>
                ) : null}
                <th scope="col">{t.farmer}</th>
                <th scope="col">{t.area}</th>
                <th scope="col">{t.path}</th>
                <th scope="col">{t.kind}</th>
                <th scope="col">{t.state}</th>
                <th scope="col">{t.submittedAt}</th>
                <th scope="col">{t.score}</th>
                <th scope="col">
                  <span className="visually-hidden">{t.open}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.form.id} data-testid="review-row" data-form-id={r.form.id}>
                  {editor ? (
                    <td className="review-queue__select" data-label={t.choose}>
                      <label className="review-queue__check">
                        <input
                          type="checkbox"
                          checked={selected.has(r.form.id) && !waitingIds.has(r.form.id)}
                          disabled={waitingIds.has(r.form.id)}
                          aria-label={t.select(rowName(r))}
                          onChange={() => toggle(r.form.id)}
                        />
                      </label>
                    </td>
                  ) : null}
                  <th scope="row" data-label={t.farmer}>
                    {r.farmerName || t.unknown}
                  </th>
                  <td data-label={t.area}>{r.areaName || t.unknown}</td>
                  <td data-label={t.path}>{r.pathName || t.unknown}</td>
                  <td data-label={t.kind}>{r.kindTitle || t.unknown}</td>
                  <td data-label={t.state}>
                    <span className={`review-state review-state--${r.state}`}>{slReview.state[r.state]}</span>
                    {waitingIds.has(r.form.id) ? <span className="review-queue__waiting">{t.approvalWaiting}</span> : null}
                  </td>
                  <td data-label={t.submittedAt}>{r.submittedAt ? <time dateTime={r.submittedAt}>{formatDateTime(r.submittedAt)}</time> : t.unknown}</td>
                  <td data-label={t.score}>
                    <ScoreBadge score={r.score} size="small" noneText={t.noScore} />
                  </td>
                  <td className="review-queue__open">
                    <a className="table-link" href={formHref(r.form.id)} aria-label={`${t.open}: ${rowName(r)}`}>
                      {t.open}
                      <ChevronRightIcon size={18} aria-hidden="true" />
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}

function BulkReport({ report, outcomes }: { report: Report; outcomes: ReturnType<typeof useMoveOutcomes> }) {
  const t = slReviewQueue.bulk;
  const sent = report.saved.filter((m) => outcomes.get(m.opId)?.kind === 'sent').length;
  const waiting = report.saved.filter((m) => (outcomes.get(m.opId)?.kind ?? 'waiting') === 'waiting').length;
  const refused = [
    ...report.refused,
    ...report.saved.flatMap((m) => {
      const outcome = outcomes.get(m.opId);
      if (outcome?.kind === 'refused') return [{ formId: m.formId, reason: outcome.reason }];
      if (outcome?.kind === 'conflict') return [{ formId: m.formId, reason: slReviewQueue.decision.conflict }];
      return [];
    }),
  ];
  const name = (formId: number) => report.names.get(formId) ?? `#${formId}`;
  return (
    <section className="card review-queue__report" data-testid="bulk-report" data-read={report.saved.every((m) => outcomes.has(m.opId))} aria-live="polite">
      {report.saved.length ? <p>{t.saved(report.saved.length)}</p> : null}
      <p data-testid="bulk-sent">{t.sent(sent, report.total)}</p>
      {waiting ? <p>{t.waiting(waiting)}</p> : null}
      {report.failed ? <p role="alert">{`${t.notSaved(report.total - report.refused.length)} ${report.failed}`}</p> : null}
      {refused.length ? (
        <>
          <p>{t.refused(refused.length)}</p>
          <ul data-testid="bulk-refused">
            {refused.map((r) => (
              <li key={r.formId}>
                <strong>{name(r.formId)}</strong>: {r.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
