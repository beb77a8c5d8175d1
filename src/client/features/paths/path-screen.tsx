/**
 * One path ('/paths/{pathId}'): the map with the path, the walk recorder, this season's
 * duration-path with its forms, adding a form (a kind of config.json → forms), and the path's
 * results from earlier seasons. The map, the recorder and the earlier results come from other
 * features, so app/routes passes them in as slots.
 */
import { useState, type ReactNode } from 'react';
import { formatDate, formatDateTime } from '../../../common/format';
import { sl, slPhone, slScreens } from '../../../common/i18n/sl';
import { formKindById } from '../../../common/scheme/kind-lookup';
import { Button } from '../../components/button/button';
import { EmptyState } from '../../components/empty-state/empty-state';
import { BackIcon, ChevronRightIcon, PathIcon, PlusIcon } from '../../components/icons/icons';
import { ArchiveButton } from '../../components/archive-button/archive-button';
import { Page } from '../../components/page/page';
import { ScoreBadge } from '../../components/score-badge/score-badge';
import { ScreenState } from '../../components/screen-state/screen-state';
import type { PathRow } from './path-rows';
import { formatLength, PathStatusChip } from './paths-screen';
import { routeHref } from '../../lib/links';

export interface PathFormItem {
  id: number;
  kindTitle: string;
  score: number | null;
  completed: boolean;
  updatedAt: string;
  /** The form's review state (and the adviser's reason when returned), as app/routes renders it from features/review. */
  review?: ReactNode;
}

/** A form of the path with its review state under it. */
function PathFormRow({ form }: { form: PathFormItem }) {
  return (
    <li>
      <a className="row-link" href={routeHref('form', { formId: form.id })} data-testid={`path-form-${form.id}`}>
        <span className="row-link__main">
          <span className="row-link__title">{form.kindTitle}</span>
          <span className="muted small">
            {form.completed ? slScreens.forms.completed : slScreens.forms.draft} · {formatDate(form.updatedAt)}
          </span>
          {form.review}
        </span>
        <ScoreBadge score={form.score} size="small" />
        <ChevronRightIcon size={20} aria-hidden="true" />
      </a>
    </li>
  );
}

export interface PathScreenProps {
  row: PathRow | null;
  seasonName: string | null;
  forms: PathFormItem[];
  formKinds: Array<{ id: number; title: string }>;
  canEdit: boolean;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  error: string | null;
  fromDevice: boolean;
  hasData: boolean;
  onRetry?: () => void;
  /** Creates a form of the kind in this season's duration-path; resolves with its id. */
  onAddForm: (kindId: number) => Promise<number>;
  onOpenForm: (formId: number) => void;
  map?: ReactNode;
  recorder?: ReactNode;
  previous?: ReactNode;
  /** Editors: archive the path, after a confirmation. */
  onArchive?: () => Promise<void>;
}

/** Adds a form of the chosen kind; a kind the path already has this season (`existing` titles) asks first. */
function AddForm({ kinds, existing, onAdd }: { kinds: PathScreenProps['formKinds']; existing: readonly string[]; onAdd: (kindId: number) => Promise<void> }) {
  const t = slScreens.paths;
  const [kind, setKind] = useState<number>(kinds[0]?.id ?? 0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState<string | null>(null);
  const add = () => {
    setAsking(null);
    setBusy(true);
    setError(null);
    onAdd(kind).catch((err: unknown) => {
      setError(typeof err === 'string' ? err : slScreens.states.saveFailed);
      setBusy(false);
    });
  };
  return (
    <form
      className="add-form"
      onSubmit={(e) => {
        e.preventDefault();
        const title = formKindById(kind, kinds)?.title ?? '';
        if (existing.includes(title)) setAsking(title);
        else add();
      }}
    >
      <label className="field">
        <span className="field__label">{t.formKind}</span>
        <select value={kind} onChange={(e) => setKind(Number(e.target.value))}>
          {kinds.map((k) => (
            <option key={k.id} value={k.id}>
              {k.title}
            </option>
          ))}
        </select>
      </label>
      <Button type="submit" icon={PlusIcon} text={t.create} disabled={busy || !kinds.length} />
      {asking ? (
        <div className="add-form__ask" role="alert" data-testid="second-form-question">
          <p>{slPhone.secondForm.question(asking)}</p>
          <Button kind="secondary" text={sl.common.cancel} onClick={() => setAsking(null)} />
          <Button text={slPhone.secondForm.confirm} onClick={add} />
        </div>
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
    </form>
  );
}

export function PathScreen(props: PathScreenProps) {
  const t = slScreens.paths;
  const { row } = props;
  const back = <Button href={routeHref('paths')} kind="ghost" icon={BackIcon} text={sl.nav.paths} />;
  return (
    <Page title={row ? row.name : sl.screens.path.title} lead={row ? row.areaName : undefined} back={back} className="page--desk">
      <ScreenState status={props.status} hasData={props.hasData} error={props.error} fromDevice={props.fromDevice} onRetry={props.onRetry}>
        {!row ? (
          <EmptyState icon={PathIcon}>
            <p>{t.notFound}</p>
          </EmptyState>
        ) : (
          <div className="desk-layout desk-layout--wide-side">
            <div className="desk-layout__main">
              {/* The recorder above the map: on a phone "Začni snemanje" is then in view, also
                  offline with the note that says so, and the walk's controls stay where it was. */}
              {props.canEdit && props.recorder ? (
                <section aria-label={t.record} className="card">
                  <h2>{t.record}</h2>
                  {props.recorder}
                </section>
              ) : null}
              <section aria-label={t.map} className="path-map">
                {props.map}
              </section>
            </div>
            <div className="desk-layout__side">
              <dl className="facts card">
                <dt>{t.length}</dt>
                <dd>{formatLength(row.lengthM)}</dd>
                <dt>{t.lastWalk}</dt>
                <dd>{row.lastWalk ? formatDateTime(row.lastWalk) : t.notWalked}</dd>
                <dt>{t.status}</dt>
                <dd>
                  <PathStatusChip status={row.status} />
                </dd>
                <dt>{slScreens.score.label}</dt>
                <dd>
                  <ScoreBadge score={row.score} />
                </dd>
              </dl>
              <section className="card" aria-labelledby="season-forms" data-testid="season-forms">
                <h2 id="season-forms">
                  {t.seasonForms}
                  {props.seasonName ? ` (${props.seasonName})` : ''}
                </h2>
                {row.durationPathId === null ? (
                  <p className="muted">{t.noSeason}</p>
                ) : (
                  <>
                    {props.forms.length === 0 ? (
                      <p className="muted">{t.noForms}</p>
                    ) : (
                      <ul className="row-list">
                        {props.forms.map((f) => (
                          <PathFormRow key={f.id} form={f} />
                        ))}
                      </ul>
                    )}
                    {props.canEdit ? (
                      <>
                        <h3>{t.addForm}</h3>
                        <AddForm
                          kinds={props.formKinds}
                          existing={props.forms.map((f) => f.kindTitle)}
                          onAdd={async (kind) => props.onOpenForm(await props.onAddForm(kind))}
                        />
                      </>
                    ) : null}
                  </>
                )}
              </section>
              <section className="card" aria-labelledby="previous-seasons">
                <h2 id="previous-seasons">{t.previous}</h2>
                {props.previous}
              </section>
              {props.onArchive ? (
                <ArchiveButton
                  text={slScreens.archive.path}
                  title={slScreens.archive.pathTitle}
                  confirm={slScreens.archive.pathConfirm}
                  onArchive={props.onArchive}
                />
              ) : null}
            </div>
          </div>
        )}
      </ScreenState>
    </Page>
  );
}
