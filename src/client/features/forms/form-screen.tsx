/**
 * One form ('/forms/{formId}'): a phone-friendly checklist of the form kind's indicators
 * in its groups, each with its picture, its value (presence, count, percent, choice, date, text),
 * a note, an optional location (current position or a tap on the map) and photos; the live score
 * with its explanation; required-field validation in Slovenian; the unsaved-changes guard; saving
 * through the outbox (so it works offline). Readers see it read-only; editors may archive it, or
 * one of its indicators (which then leaves the form and its score).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { sl, slPhone, slReview, slReviewFarmer, slScreens } from '../../../common/i18n/sl';
import { reviewStateOf } from '../../../common/review';
import type { FormValues, ValidationError } from '../../../common/scheme/scoring';
import type { IndicatorDefinition, AppConfig, FormKind } from '../../../common/schemas/config';
import { formKindById } from '../../../common/scheme/kind-lookup';
import { Button } from '../../components/button/button';
import { useUnsavedChanges } from '../../components/confirm-leave/unsaved-changes';
import { EmptyState } from '../../components/empty-state/empty-state';
import { BackIcon, FormIcon, LockIcon } from '../../components/icons/icons';
import { Modal } from '../../components/modal/modal';
import { Page } from '../../components/page/page';
import { ScoreBadge } from '../../components/score-badge/score-badge';
import { ScoreExplanation } from '../../components/score-badge/score-explanation';
import { ScreenState } from '../../components/screen-state/screen-state';
import type { StoredRecord } from '../../lib/db/database';
import { readRow } from '../../lib/db/model';
import type { LocalEdit, SavedEdit, SaveOptions } from '../../lib/db/outbox';
import type { ResizeEnv } from '../../lib/image/resize';
import { currentPosition } from '../../lib/location/current-position';
import { useValueAfterPaint } from '../../lib/use-after-paint';
import {
  archivedKeys,
  blockingErrors,
  draftValues,
  hasAnswers,
  initialDraft,
  isDirty,
  liveScore,
  missingAnswers,
  planSave,
  rowsByKey,
  savedDraft,
  type FormDraft,
  type IndicatorDraft,
} from './form-draft';
import { focusField, fieldId } from './answer-fields';
import { IndicatorList } from './indicator-list';
import { useKeptDraft } from './use-kept-draft';
import { routeHref } from '../../lib/links';

const NO_ERRORS: ReadonlyMap<string, string> = new Map();

export interface FormScreenProps {
  config: AppConfig;
  form: StoredRecord | null;
  /** Indicators rows of this form. */
  indicators: StoredRecord[];
  /** Whose form it is, for editors and readers (a farmer's own forms do not say). */
  farmerName?: string | null;
  pathName: string | null;
  pathId: number | null;
  seasonName: string | null;
  /**
   * Why the form cannot be changed here, or null: the user's role (readers), it is an earlier
   * season's (farmers), or its review state leaves it out of the farmer's hands (farmerMayEdit).
   */
  readOnly: 'role' | 'pastSeason' | 'review' | null;
  canArchive: boolean;
  online: boolean;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  error: string | null;
  fromDevice: boolean;
  hasData: boolean;
  onRetry?: () => void;
  saveEdits: (edits: LocalEdit[], options?: SaveOptions) => Promise<SavedEdit[]>;
  onArchive: () => Promise<void>;
  /** Editors: archive one indicator row of the form, after a confirmation. */
  onArchiveIndicator?: (recordId: number) => Promise<void>;
  /** A map to pick a point on; calls onPick with [lon, lat] (app/routes wires features/map). */
  renderPointPicker?: (initial: [number, number] | null, onPick: (lonLat: [number, number]) => void) => ReactNode;
  /** Current position; defaults to the browser's geolocation. */
  getPosition?: () => Promise<[number, number]>;
  /** Browser image APIs for resizing photos (default: the browser's). */
  resizeEnv?: ResizeEnv;
  /** Keeps the editor (and an edit in progress) when the form's id changes under it (offline id → server id). */
  editorKey?: string;
  /** Editors: the form's change history (app/routes combines features/audit), asked for when opened. */
  history?: ReactNode;
  /** The indicator to open the form at and highlight (a returned form's review_indicator). */
  focusIndicator?: string | null;
  /**
   * The review of the form (app/routes combines features/review): what goes above the checklist
   * and below the form, given the editor's live state.
   */
  renderReview?: (context: ReviewContext) => ReviewSlots;
}

/** What the review pieces need of the form being edited. */
interface ReviewContext {
  /** Unsaved changes on the screen. */
  dirty: boolean;
  /** The live answers (the payment preview follows them). */
  values: FormValues;
  /** Scrolls to an indicator, highlights it and moves focus to its answer. */
  showIndicator: (key: string) => void;
}

interface ReviewSlots {
  top?: ReactNode;
  bottom?: ReactNode;
}

/** The kind's indicators in its groups, without the archived ones (a group left empty goes too). */
function groupsOf(
  kind: FormKind,
  archived: ReadonlySet<string>,
): Array<{ key: string; title: string; description?: string; indicators: IndicatorDefinition[] }> {
  const shown = kind.indicators.filter((d) => !archived.has(d.key));
  if (!kind.groups?.length) return [{ key: 'all', title: kind.title, indicators: shown }];
  const result: Array<{ key: string; title: string; description?: string; indicators: IndicatorDefinition[] }> = kind.groups.map((g) => ({
    ...g,
    indicators: shown.filter((d) => d.group === g.key),
  }));
  // Indicators whose group is not listed still show, at the end.
  const listed = new Set(result.flatMap((g) => g.indicators.map((d) => d.key)));
  const rest = shown.filter((d) => !listed.has(d.key));
  if (rest.length) result.push({ key: '_rest', title: kind.title, indicators: rest });
  return result.filter((g) => g.indicators.length > 0);
}

function FormEditor(props: FormScreenProps & { form: StoredRecord; kind: FormKind }) {
  const { config, kind, form } = props;
  const readOnly = props.readOnly !== null;
  const t = slScreens.forms;
  const initial = useMemo(() => initialDraft(config, kind, form, props.indicators), [config, kind, form, props.indicators]);
  const [base, setBase] = useState(initial);
  const [draft, setDraft] = useState<FormDraft>(initial);
  const [seen, setSeen] = useState(initial);
  // The stored rows changed (our save reloaded, a sync, another tab): follow them unless the user
  // is in the middle of an edit, which must never be overwritten.
  if (seen !== initial) {
    setSeen(initial);
    if (!isDirty(draft, base)) {
      setBase(initial);
      setDraft(initial);
    }
  }
  const [showErrors, setShowErrors] = useState(false);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [picking, setPicking] = useState<string | null>(null);
  const [archiving, setArchiving] = useState(false);
  // Open beside the form on a desk; on a phone it would cover the checklist, so it starts closed.
  // The history is asked for when opened, and again at each opening (another user may have changed the form).
  const [historyOpen, setHistoryOpen] = useState(false);
  const [explainOpen, setExplainOpen] = useState(
    () => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(min-width: 900px)').matches,
  );
  const dirty = !readOnly && isDirty(draft, base);
  const kept = useKeptDraft({ formId: form.id, active: !readOnly, draft, base, setDraft });
  // Agreeing to leave loses the answers, as the question says: the device's copy goes too.
  useUnsavedChanges(dirty, () => void kept.forget());
  // Indicators archived by an editor: those of the stored rows, and those archived on this screen
  // (shown gone at once, before the rows are read again).
  const [archivedHere, setArchivedHere] = useState<ReadonlySet<string>>(() => new Set());
  const archived = useMemo(() => new Set([...archivedKeys(config, props.indicators), ...archivedHere]), [config, props.indicators, archivedHere]);
  // The score, its explanation and the review's pieces (payment preview, moves, thread) follow a
  // tap in a render of their own after its frame has painted: the tap's frame redraws the answer
  // tapped, and the elements below are the same objects then, so they are not rendered again.
  const settled = useValueAfterPaint(draft);
  const score = useMemo(() => liveScore(kind, settled), [kind, settled]);
  const answered = hasAnswers(settled);
  const settledValues = useMemo(() => draftValues(kind, settled), [kind, settled]);
  const errors = blockingErrors(kind, draft).filter((e) => !archived.has(e.key));
  // The summary at the top of the form: what blocks a save, or what a save left unanswered.
  const [summary, setSummary] = useState<{ kind: 'error' | 'warning'; items: ValidationError[] } | null>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (summary) summaryRef.current?.focus();
  }, [summary]);
  // On a phone the score/save bar is sticky at the bottom: the page's scroll-padding follows its
  // real height (--form-bar-h, forms.css), so a focused field never ends up under it.
  const sideRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const side = sideRef.current;
    if (!side || typeof ResizeObserver === 'undefined') return undefined;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => root.style.setProperty('--form-bar-h', `${Math.ceil(side.getBoundingClientRect().height)}px`));
    observer.observe(side);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--form-bar-h');
    };
  }, []);
  // The indicator the review is about: the form opens there (a returned form), and the thread's
  // links show it again.
  const [highlight, setHighlight] = useState<string | null>(props.focusIndicator ?? null);
  const showIndicator = useCallback((key: string) => {
    setHighlight(key);
    document.querySelector(`[data-testid="indicator-${key}"]`)?.scrollIntoView?.({ block: 'center' });
    focusField(key);
  }, []);
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !props.focusIndicator) return;
    opened.current = true;
    document.querySelector(`[data-testid="indicator-${props.focusIndicator}"]`)?.scrollIntoView?.({ block: 'center' });
  }, [props.focusIndicator]);
  const { renderReview } = props;
  // Whether the answers on screen are unsaved, as the review's pieces see it: after the paint too.
  const settledDirty = useMemo(() => !readOnly && isDirty(settled, base), [readOnly, settled, base]);
  const review = useMemo(
    () => renderReview?.({ dirty: settledDirty, values: settledValues, showIndicator }) ?? {},
    [renderReview, settledDirty, settledValues, showIndicator],
  );
  const scorePanel = useMemo(
    () => (
      <div className="score-panel card" aria-live="polite" data-testid="live-score">
        <h2>{slScreens.forms.liveScore}</h2>
        {/* The score opens its explanation: on a phone's score/save bar there is no room for a line of its own. */}
        <details className="score-panel__explain" open={explainOpen} onToggle={(e) => setExplainOpen((e.target as HTMLDetailsElement).open)}>
          <summary>
            <ScoreBadge score={answered ? score.score : null} size="large" noneText={slPhone.form.noScoreYet} />
            {/* On a narrow phone only screen readers hear it (the ▸ shows it), so the bar stays one row. */}
            <span className="score-panel__explain-label visually-hidden shown-wide">{slScreens.forms.explain}</span>
          </summary>
          <ScoreExplanation result={score} />
        </details>
      </div>
    ),
    [answered, score, explainOpen],
  );
  const errorByKey = new Map(errors.map((e) => [e.key, e.message]));
  const byKey = useMemo(() => rowsByKey(config, props.indicators), [config, props.indicators]);
  const recordIds = useMemo(() => new Map([...byKey].map(([key, row]) => [key, row.id])), [byKey]);
  const getPosition = props.getPosition ?? currentPosition;

  const patch = (key: string, p: Partial<IndicatorDraft>) => {
    setMessage(null);
    setDraft((d) => ({ ...d, indicators: { ...d.indicators, [key]: { ...d.indicators[key]!, ...p } } }));
  };

  const archiveIndicator = async (key: string, recordId: number) => {
    await props.onArchiveIndicator!(recordId);
    // The row is archived: its answer leaves the draft and its baseline, so the live score drops
    // it and the next save neither re-creates the row nor counts it as an unsaved change.
    const blankAnswer: IndicatorDraft = { value: '', note: '', location: null, photos: [] };
    const clear = (d: FormDraft): FormDraft => ({ ...d, indicators: { ...d.indicators, [key]: blankAnswer } });
    setBase(clear);
    setDraft(clear);
    setArchivedHere((keys) => new Set([...keys, key]));
  };

  const save = async () => {
    setShowErrors(true);
    if (errors.length) {
      setMessage({ kind: 'error', text: t.errorsTitle });
      setSummary({ kind: 'error', items: errors });
      return;
    }
    const missing = draft.completed ? [] : missingAnswers(kind, draft).filter((e) => !archived.has(e.key));
    setSummary(null);
    setSaving(true);
    setMessage(null);
    try {
      // The kept answers go with the save, in its transaction (a tab killed right after it must not
      // bring the saved answers back as unsaved ones, new photos twice).
      await kept.saveWith((keptRow) =>
        props.saveEdits(planSave({ config, kind, form, rows: props.indicators, draft, initial: base }), keptRow ? { forget: [keptRow] } : undefined),
      );
      // What was saved is the new baseline; an answer tapped while the save ran stays, unsaved.
      const saved = savedDraft(draft, draft);
      setBase(saved);
      setDraft((now) => (now === draft ? saved : savedDraft(draft, now)));
      setShowErrors(false);
      setMessage({ kind: 'ok', text: props.online ? slScreens.states.savedOnline : slScreens.states.saved });
      if (missing.length) setSummary({ kind: 'warning', items: missing });
    } catch (error) {
      setMessage({ kind: 'error', text: typeof error === 'string' ? error : slScreens.states.saveFailed });
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="desk-layout desk-layout--form">
      <div className="desk-layout__main">
        {review.top}
        {readOnly ? (
          <p className="read-only-note" role="note" data-testid="read-only-note">
            <LockIcon size={20} aria-hidden="true" />{' '}
            {props.readOnly === 'review' ? (
              <span>
                {slReviewFarmer.review.locked(slReview.state[reviewStateOf(readRow(config, 'forms', form).review_state)])} {slReviewFarmer.review.lockedHint}
              </span>
            ) : props.readOnly === 'pastSeason' ? (
              slScreens.states.readOnlyPastSeason
            ) : (
              slScreens.states.readOnly
            )}
          </p>
        ) : null}
        {kept.restored && dirty ? (
          <div className="card form-restored" role="status" data-testid="form-restored">
            <p>
              <strong>{t.restoredTitle}</strong> {t.restoredHint}
            </p>
            <Button type="button" kind="secondary" size="small" text={t.discardRestored} onClick={kept.discard} />
          </div>
        ) : null}
        {summary && summary.items.length ? (
          <div
            ref={summaryRef}
            tabIndex={-1}
            className={summary.kind === 'error' ? 'card form-errors' : 'card form-errors form-errors--warning'}
            role={summary.kind === 'error' ? 'alert' : 'status'}
            data-testid={summary.kind === 'error' ? 'form-errors' : 'form-missing'}
          >
            <p>
              <strong>{summary.kind === 'error' ? t.errorsTitle : slPhone.form.missingTitle}</strong> <span className="muted">{slPhone.form.summaryHint}</span>
            </p>
            <ul>
              {summary.items.map((e) => (
                <li key={e.key}>
                  <a
                    className="form-errors__link"
                    href={`#${fieldId(e.key)}`}
                    onClick={(ev) => {
                      ev.preventDefault();
                      focusField(e.key);
                    }}
                  >
                    {e.message}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <IndicatorList
          config={config}
          groups={groupsOf(kind, archived)}
          drafts={draft.indicators}
          recordIds={recordIds}
          errors={showErrors ? errorByKey : NO_ERRORS}
          highlight={highlight}
          readOnly={readOnly}
          online={props.online}
          onChange={patch}
          onPickOnMap={props.renderPointPicker ? setPicking : undefined}
          onArchive={props.onArchiveIndicator ? archiveIndicator : undefined}
          getPosition={getPosition}
          resizeEnv={props.resizeEnv}
          allAtOnce={Boolean(props.focusIndicator)}
        />
        <section className="card">
          <label className="field">
            <span className="field__label">{t.formNote}</span>
            <textarea rows={3} value={draft.note} readOnly={readOnly} onChange={(e) => setDraft((d) => ({ ...d, note: e.target.value }))} />
          </label>
          {!readOnly ? (
            <label className="check">
              <input type="checkbox" checked={draft.completed} onChange={(e) => setDraft((d) => ({ ...d, completed: e.target.checked }))} />
              <span>{t.markCompleted}</span>
            </label>
          ) : null}
        </section>
        {/* Archiving is far from saving: never the button beside "Shrani". */}
        {!readOnly && props.canArchive ? (
          <div className="form-archive">
            <Button type="button" kind="danger" text={t.archive} onClick={() => setArchiving(true)} />
          </div>
        ) : null}
        {review.bottom}
      </div>
      <aside className="desk-layout__side" ref={sideRef}>
        {scorePanel}
        {message && !(message.kind === 'error' && summary?.kind === 'error') ? (
          <p
            className={message.kind === 'ok' ? 'save-message save-message--ok' : 'save-message save-message--error'}
            role={message.kind === 'ok' ? 'status' : 'alert'}
          >
            {message.text}
          </p>
        ) : null}
        {!readOnly ? (
          <div className="form-actions">
            <Button type="button" block size="large" text={saving ? t.saving : t.save} disabled={saving} onClick={() => void save()} />
          </div>
        ) : null}
        {props.history ? (
          <details className="card history" open={historyOpen} onToggle={(e) => setHistoryOpen((e.target as HTMLDetailsElement).open)}>
            <summary>{t.history}</summary>
            {historyOpen ? props.history : null}
          </details>
        ) : null}
      </aside>
      {picking && props.renderPointPicker ? (
        <Modal title={`${t.pickOnMap}: ${kind.indicators.find((d) => d.key === picking)?.name ?? ''}`} onClose={() => setPicking(null)} size="large">
          <p>{t.tapMap}</p>
          {props.renderPointPicker(draft.indicators[picking]?.location ?? null, (lonLat) => {
            patch(picking, { location: lonLat });
            setPicking(null);
          })}
        </Modal>
      ) : null}
      {archiving ? (
        <Modal
          title={t.archiveTitle}
          alert
          size="small"
          onClose={() => setArchiving(false)}
          footer={
            <>
              <Button kind="secondary" text={sl.common.cancel} onClick={() => setArchiving(false)} />
              <Button
                kind="danger"
                text={t.archive}
                onClick={() => {
                  setArchiving(false);
                  props.onArchive().catch(() => setMessage({ kind: 'error', text: slScreens.states.saveFailed }));
                }}
              />
            </>
          }
        >
          <p>{t.archiveConfirm}</p>
        </Modal>
      ) : null}
    </div>
  );
}

function kindOfForm(config: AppConfig, form: StoredRecord | null): FormKind | undefined {
  if (!form) return undefined;
  return formKindById(readRow(config, 'forms', form).form_id, config.forms);
}

export function FormScreen(props: FormScreenProps) {
  const { form, config } = props;
  const kind = kindOfForm(config, form);
  const back =
    props.pathId !== null ? (
      <Button href={routeHref('path', { pathId: props.pathId })} kind="ghost" icon={BackIcon} text={props.pathName ?? sl.nav.paths} />
    ) : (
      <Button href={routeHref('forms')} kind="ghost" icon={BackIcon} text={sl.nav.forms} />
    );
  const title = kind ? kind.title : sl.screens.form.title;
  const lead = [props.farmerName, props.pathName, props.seasonName].filter(Boolean).join(' · ') || undefined;
  return (
    <Page title={title} lead={lead} back={back} className="page--desk">
      <ScreenState status={props.status} hasData={props.hasData} error={props.error} fromDevice={props.fromDevice} onRetry={props.onRetry}>
        {!form ? (
          <EmptyState icon={FormIcon}>
            <p>{slScreens.forms.notFound}</p>
          </EmptyState>
        ) : !kind ? (
          <EmptyState icon={FormIcon} tone="warning">
            <p>{slScreens.forms.unknownKind}</p>
          </EmptyState>
        ) : (
          <FormEditor {...props} form={form} kind={kind} key={props.editorKey ?? form.id} />
        )}
      </ScreenState>
    </Page>
  );
}
