/**
 * One form (seed §2 '/forms/{formId}'): a phone-friendly checklist of the form kind's indicators
 * in its groups, each with its picture, its value (presence, count, percent, choice, date, text),
 * a note, an optional location (current position or a tap on the map) and photos; the live score
 * with its explanation; required-field validation in Slovenian; the unsaved-changes guard; saving
 * through the outbox (so it works offline). Readers see it read-only; editors may archive it, or
 * one of its indicators (which then leaves the form and its score).
 */
import { useMemo, useState, type ReactNode } from 'react';
import { formatDate } from '../../../common/format';
import { sl, slScreens } from '../../../common/i18n/sl';
import type { IndicatorDefinition, AppConfig, FormKind } from '../../../common/schemas/config';
import type { HistoryEntry } from '../../../common/schemas/wire';
import { ArchiveButton } from '../../components/archive-button/archive-button';
import { Button } from '../../components/button/button';
import { useUnsavedChanges } from '../../components/confirm-leave/unsaved-changes';
import { EmptyState } from '../../components/empty-state/empty-state';
import { BackIcon, FormIcon, LockIcon, MapIcon } from '../../components/icons/icons';
import { Modal } from '../../components/modal/modal';
import { Page } from '../../components/page/page';
import { ScoreBadge } from '../../components/score-badge/score-badge';
import { ScoreExplanation } from '../../components/score-badge/score-explanation';
import { ScreenState } from '../../components/screen-state/screen-state';
import type { StoredRecord } from '../../lib/db/database';
import type { SavedEdit } from '../../lib/db/outbox';
import type { ResizeEnv } from '../../lib/image/resize';
import { archivedKeys, blockingErrors, initialDraft, isDirty, liveScore, planSave, rowsByKey, type EditStep, type FormDraft, type IndicatorDraft } from './form-draft';
import { IndicatorPhotos } from './indicator-photos';

export interface FormScreenProps {
  config: AppConfig;
  form: StoredRecord | null;
  /** Indicators rows of this form. */
  indicators: StoredRecord[];
  pathName: string | null;
  pathId: number | null;
  seasonName: string | null;
  readOnly: boolean;
  canArchive: boolean;
  online: boolean;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  error: string | null;
  fromDevice: boolean;
  hasData: boolean;
  onRetry?: () => void;
  saveEdits: (steps: EditStep[]) => Promise<SavedEdit[]>;
  onArchive: () => Promise<void>;
  /** Editors: archive one indicator row of the form (seed §4), after a confirmation. */
  onArchiveIndicator?: (recordId: number) => Promise<void>;
  /** A map to pick a point on; calls onPick with [lon, lat] (app/routes wires features/map). */
  renderPointPicker?: (initial: [number, number] | null, onPick: (lonLat: [number, number]) => void) => ReactNode;
  /** Current position; defaults to the browser's geolocation. */
  getPosition?: () => Promise<[number, number]>;
  /** Browser image APIs for resizing photos (default: the browser's). */
  resizeEnv?: ResizeEnv;
  /** Keeps the editor (and an edit in progress) when the form's id changes under it (offline id → server id). */
  editorKey?: string;
  /** Editors: the server's change history of the form (DESIGN §8). */
  history?: HistoryEntry[] | null;
}

function browserPosition(): Promise<[number, number]> {
  return new Promise((resolve, reject) => {
    if (!navigator.geolocation) return reject(new Error('no geolocation'));
    navigator.geolocation.getCurrentPosition(
      (p) => resolve([Math.round(p.coords.longitude * 1e6) / 1e6, Math.round(p.coords.latitude * 1e6) / 1e6]),
      reject,
      { enableHighAccuracy: true, timeout: 20_000, maximumAge: 10_000 },
    );
  });
}

function ValueInput({ def, value, readOnly, onChange, errorId }: { def: IndicatorDefinition; value: unknown; readOnly: boolean; onChange: (v: unknown) => void; errorId?: string }) {
  const t = slScreens.forms;
  const label = def.name;
  switch (def.valueKind) {
    case 'presence':
      return (
        <div className="choice-row" role="radiogroup" aria-label={label} aria-describedby={errorId}>
          {[
            { v: true, text: t.yes },
            { v: false, text: t.no },
          ].map((o) => {
            const on = value === o.v || value === String(o.v);
            return (
              <button
                key={String(o.v)}
                type="button"
                role="radio"
                aria-checked={on}
                className={on ? `choice choice--on choice--${o.v ? 'yes' : 'no'}` : 'choice'}
                disabled={readOnly}
                onClick={() => onChange(on ? '' : o.v)}
              >
                {o.text}
              </button>
            );
          })}
        </div>
      );
    case 'count':
    case 'percent':
      return (
        <label className="field field--inline">
          <span className="visually-hidden">{label}</span>
          <input
            type="number"
            inputMode={def.valueKind === 'count' ? 'numeric' : 'decimal'}
            min={0}
            max={def.valueKind === 'percent' ? 100 : def.max}
            step={def.valueKind === 'count' ? 1 : 'any'}
            value={typeof value === 'string' || typeof value === 'number' ? value : ''}
            readOnly={readOnly}
            aria-describedby={errorId}
            onChange={(e) => onChange(e.target.value)}
          />
          <span className="field__unit">{def.valueKind === 'percent' ? '%' : (def.unit ?? '')}</span>
        </label>
      );
    case 'choice':
      return (
        <div className="choice-list" role="radiogroup" aria-label={label} aria-describedby={errorId}>
          {(def.choices ?? []).map((c) => {
            const on = value === c.value;
            return (
              <button key={c.value} type="button" role="radio" aria-checked={on} className={on ? 'choice choice--on' : 'choice'} disabled={readOnly} onClick={() => onChange(on ? '' : c.value)}>
                {c.label}
              </button>
            );
          })}
        </div>
      );
    case 'date':
      return (
        <label className="field field--inline">
          <span className="visually-hidden">{label}</span>
          <input type="date" value={typeof value === 'string' ? value : ''} readOnly={readOnly} aria-describedby={errorId} onChange={(e) => onChange(e.target.value)} />
        </label>
      );
    case 'text':
    default:
      return (
        <label className="field">
          <span className="visually-hidden">{label}</span>
          <textarea rows={3} value={typeof value === 'string' ? value : ''} readOnly={readOnly} aria-describedby={errorId} onChange={(e) => onChange(e.target.value)} />
        </label>
      );
  }
}

interface IndicatorCardProps {
  config: AppConfig;
  def: IndicatorDefinition;
  draft: IndicatorDraft;
  recordId: number | null;
  error?: string;
  readOnly: boolean;
  online: boolean;
  onChange: (patch: Partial<IndicatorDraft>) => void;
  onPickOnMap?: () => void;
  /** Editors: archive this indicator's stored row. */
  onArchive?: () => Promise<void>;
  getPosition: () => Promise<[number, number]>;
  resizeEnv?: ResizeEnv;
}

function IndicatorCard({ config, def, draft, recordId, error, readOnly, online, onChange, onPickOnMap, onArchive, getPosition, resizeEnv }: IndicatorCardProps) {
  const t = slScreens.forms;
  const [locError, setLocError] = useState<string | null>(null);
  const errorId = error ? `err-${def.key}` : undefined;
  const filled = draft.value !== '' && draft.value !== undefined && draft.value !== null;
  const extras = draft.note !== '' || draft.location !== null || draft.photos.length > 0;
  return (
    <li className={['indicator', filled ? 'indicator--filled' : '', error ? 'indicator--error' : ''].join(' ')} data-testid={`indicator-${def.key}`}>
      <div className="indicator__head">
        {def.image ? <img className="indicator__img" src={def.image} alt="" width={64} height={64} loading="lazy" /> : null}
        <div className="indicator__names">
          <span className="indicator__name">
            {def.name}
            {def.required ? <span className="required" aria-label="obvezno"> *</span> : null}
          </span>
          {def.latin ? <i className="indicator__latin">{def.latin}</i> : null}
        </div>
      </div>
      <ValueInput def={def} value={draft.value} readOnly={readOnly} onChange={(value) => onChange({ value })} errorId={errorId} />
      {error ? (
        <p className="field__error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
      <details className={extras ? 'indicator__more indicator__more--has' : 'indicator__more'}>
        <summary>
          {t.more} · {t.note} · {t.location} · {t.photos}
        </summary>
        <p className="indicator__desc">{def.description}</p>
        <label className="field">
          <span className="field__label">{t.note}</span>
          <input type="text" value={draft.note} readOnly={readOnly} onChange={(e) => onChange({ note: e.target.value })} />
        </label>
        <div className="location">
          <span className="field__label">{t.location}</span>
          {draft.location ? <p data-testid="location-value">{t.locationSet(draft.location[1].toFixed(5).replace('.', ','), draft.location[0].toFixed(5).replace('.', ','))}</p> : null}
          {!readOnly ? (
            <div className="location__actions">
              <Button
                size="small"
                kind="secondary"
                text={t.useMyLocation}
                onClick={() => {
                  setLocError(null);
                  getPosition()
                    .then((location) => onChange({ location }))
                    .catch(() => setLocError(t.locationFailed));
                }}
              />
              {onPickOnMap ? <Button size="small" kind="secondary" icon={MapIcon} text={t.pickOnMap} onClick={onPickOnMap} /> : null}
              {draft.location ? <Button size="small" kind="ghost" text={t.removeLocation} onClick={() => onChange({ location: null })} /> : null}
            </div>
          ) : null}
          {locError ? <p role="alert">{locError}</p> : null}
        </div>
        <IndicatorPhotos
          config={config}
          indicatorName={def.name}
          recordId={recordId}
          photos={draft.photos}
          online={online}
          readOnly={readOnly}
          onAdd={(photo) => onChange({ photos: [...draft.photos, photo] })}
          onRemove={(id) => onChange({ photos: draft.photos.filter((p) => p.tempId !== id) })}
          resizeEnv={resizeEnv}
        />
      </details>
      {onArchive && !readOnly && recordId !== null ? (
        <div className="indicator__archive">
          <ArchiveButton text={slScreens.archive.indicator} title={slScreens.archive.indicatorTitle} confirm={slScreens.archive.indicatorConfirm(def.name)} onArchive={onArchive} />
        </div>
      ) : null}
    </li>
  );
}

/** The kind's indicators in its groups, without the archived ones (a group left empty goes too). */
function groupsOf(kind: FormKind, archived: ReadonlySet<string>): Array<{ key: string; title: string; description?: string; indicators: IndicatorDefinition[] }> {
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
  const { config, kind, form, readOnly } = props;
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
  const [explainOpen, setExplainOpen] = useState(() => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(min-width: 900px)').matches);
  const dirty = !readOnly && isDirty(draft, base);
  useUnsavedChanges(dirty);
  // Indicators archived by an editor: those of the stored rows, and those archived on this screen
  // (shown gone at once, before the rows are read again).
  const [archivedHere, setArchivedHere] = useState<ReadonlySet<string>>(() => new Set());
  const archived = useMemo(() => new Set([...archivedKeys(config, props.indicators), ...archivedHere]), [config, props.indicators, archivedHere]);
  const score = liveScore(kind, draft);
  const errors = blockingErrors(kind, draft).filter((e) => !archived.has(e.key));
  const errorByKey = new Map(errors.map((e) => [e.key, e.message]));
  const byKey = rowsByKey(config, props.indicators);
  const getPosition = props.getPosition ?? browserPosition;

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
      return;
    }
    setSaving(true);
    setMessage(null);
    try {
      await props.saveEdits(planSave({ config, kind, form, rows: props.indicators, draft, initial: base }));
      // What was saved is the new baseline; new photos now live on the device.
      const saved = { ...draft, indicators: Object.fromEntries(Object.entries(draft.indicators).map(([k, v]) => [k, { ...v, photos: [] }])) };
      setBase(saved);
      setDraft(saved);
      setShowErrors(false);
      setMessage({ kind: 'ok', text: props.online ? slScreens.states.savedOnline : slScreens.states.saved });
    } catch (error) {
      setMessage({ kind: 'error', text: typeof error === 'string' ? error : slScreens.states.saveFailed });
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="desk-layout desk-layout--form">
      <div className="desk-layout__main">
        {readOnly ? (
          <p className="read-only-note" role="note">
            <LockIcon size={20} aria-hidden="true" /> {slScreens.states.readOnly}
          </p>
        ) : null}
        {groupsOf(kind, archived).map((group) => (
          <section key={group.key} className="indicator-group" aria-labelledby={`group-${group.key}`}>
            <h2 id={`group-${group.key}`}>{group.title}</h2>
            {group.description ? <p className="muted">{group.description}</p> : null}
            <ul className="indicator-list">
              {group.indicators.map((def) => (
                <IndicatorCard
                  key={def.key}
                  config={config}
                  def={def}
                  draft={draft.indicators[def.key]!}
                  recordId={byKey.get(def.key)?.id ?? null}
                  error={showErrors ? errorByKey.get(def.key) : undefined}
                  readOnly={readOnly}
                  online={props.online}
                  onChange={(p) => patch(def.key, p)}
                  onPickOnMap={props.renderPointPicker ? () => setPicking(def.key) : undefined}
                  onArchive={props.onArchiveIndicator && byKey.has(def.key) ? () => archiveIndicator(def.key, byKey.get(def.key)!.id) : undefined}
                  getPosition={getPosition}
                  resizeEnv={props.resizeEnv}
                />
              ))}
            </ul>
          </section>
        ))}
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
      </div>
      <aside className="desk-layout__side">
        <div className="score-panel card" aria-live="polite" data-testid="live-score">
          <h2>{t.liveScore}</h2>
          <ScoreBadge score={score.score} size="large" />
          <details className="score-panel__explain" open={explainOpen} onToggle={(e) => setExplainOpen((e.target as HTMLDetailsElement).open)}>
            <summary>{t.explain}</summary>
            <ScoreExplanation result={score} />
          </details>
        </div>
        {showErrors && errors.length ? (
          <div className="card form-errors" role="alert" data-testid="form-errors">
            <p>
              <strong>{t.errorsTitle}</strong>
            </p>
            <ul>
              {errors.map((e) => (
                <li key={e.key}>
                  <a href={`#/forms/${form.id}`} onClick={(ev) => { ev.preventDefault(); document.querySelector(`[data-testid="indicator-${e.key}"]`)?.scrollIntoView?.({ block: 'center' }); }}>
                    {e.message}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {message && !(message.kind === 'error' && showErrors && errors.length) ? (
          <p className={message.kind === 'ok' ? 'save-message save-message--ok' : 'save-message save-message--error'} role={message.kind === 'ok' ? 'status' : 'alert'}>
            {message.text}
          </p>
        ) : null}
        {!readOnly ? (
          <div className="form-actions">
            <Button type="button" block size="large" text={saving ? t.saving : t.save} disabled={saving} onClick={() => void save()} />
            {props.canArchive ? <Button type="button" block kind="danger" text={t.archive} onClick={() => setArchiving(true)} /> : null}
          </div>
        ) : null}
        {props.history ? (
          <details className="card history">
            <summary>{t.history}</summary>
            {props.history.length === 0 ? (
              <p className="muted">{t.historyEmpty}</p>
            ) : (
              <ol className="history__list" data-testid="form-history">
                {[...props.history].reverse().map((h) => (
                  <li key={h.id}>
                    {t.historyEntry(h.changedBy ?? t.unknownUser, formatDate(h.changedAt))}: {t.historyActions[h.action]}
                  </li>
                ))}
              </ol>
            )}
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

export function kindOfForm(config: AppConfig, form: StoredRecord | null): FormKind | undefined {
  if (!form) return undefined;
  const id = form.properties[String(config.tables.forms.columns.form_id)];
  return Object.values(config.forms).find((k) => k.id === id);
}

export function FormScreen(props: FormScreenProps) {
  const { form, config } = props;
  const kind = kindOfForm(config, form);
  const back = props.pathId !== null ? <Button href={`#/paths/${props.pathId}`} kind="ghost" icon={BackIcon} text={props.pathName ?? sl.nav.paths} /> : <Button href="#/forms" kind="ghost" icon={BackIcon} text={sl.nav.forms} />;
  const title = kind ? kind.title : sl.screens.form.title;
  const lead = [props.pathName, props.seasonName].filter(Boolean).join(' · ') || undefined;
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
