/**
 * The farmer's results with the review: per meadow and season, each form's review state and the
 * informative payment preview (the sum over the meadow's paid forms), built from the seasons the
 * results screen reads (features/results' history, passed in by app/routes). An estimate, never a
 * decision.
 */
import { slReview, slReviewFarmer } from '../../../common/i18n/sl';
import type { ReviewState } from '../../../common/review';
import type { AppConfig } from '../../../common/schemas/config';
import { formKindById } from '../../../common/scheme/kind-lookup';
import { paymentPreview } from '../../../common/scheme/payment';
import type { StoredRecord } from '../../lib/db/database';
import { readRow } from '../../lib/db/model';
import { formatEuros } from './payment-card';
import { ReviewBadge } from './review-badge';
import { reviewedForm, storedValues } from './review-rows';
import { routeHref } from '../../lib/links';

export interface MeadowSeasonReview {
  key: string;
  areaName: string;
  seasonName: string;
  seasonStart: string;
  forms: Array<{ id: number; title: string; state: ReviewState; amountEur: number | null; bandName: string | null }>;
  /** The sum of the paid forms' estimates; null when none of the forms is paid by result. */
  amountEur: number | null;
}

export interface SeasonsRows {
  durations: readonly StoredRecord[];
  durationPaths: readonly StoredRecord[];
  forms: readonly StoredRecord[];
  indicators: readonly StoredRecord[];
}

/** The forms of the seasons grouped by meadow and season, newest season first. */
export function buildReviewResults(
  config: AppConfig,
  base: { areas: readonly StoredRecord[]; paths: readonly StoredRecord[] },
  seasons: SeasonsRows,
): MeadowSeasonReview[] {
  const groups = new Map<string, MeadowSeasonReview>();
  for (const record of seasons.forms) {
    if (record.deleted || record.archived) continue;
    const form = readRow(config, 'forms', record);
    const link = seasons.durationPaths.find((d) => d.id === form.parent);
    if (!link || link.archived || link.deleted) continue;
    const { path_id: pathId, duration_id: durationId } = readRow(config, 'durationPaths', link);
    const path = base.paths.find((p) => p.id === pathId);
    const duration = seasons.durations.find((d) => d.id === durationId);
    if (!path || !duration) continue;
    const pathRow = readRow(config, 'paths', path);
    const area = base.areas.find((a) => a.id === pathRow.parent);
    const areaRow = area ? readRow(config, 'areas', area) : null;
    const season = readRow(config, 'durations', duration);
    const kind = formKindById(form.form_id, config.forms);
    const preview = kind ? paymentPreview(kind, storedValues(config, kind, record.id, seasons.indicators), areaRow?.area_ha ?? null) : null;
    const key = `${areaRow?.id ?? 0}:${duration.id}`;
    const group = groups.get(key) ?? {
      key,
      areaName: areaRow?.name ?? '',
      seasonName: season.name ?? '',
      seasonStart: (season.filter_start ?? '').slice(0, 10),
      forms: [],
      amountEur: null,
    };
    group.forms.push({
      id: record.id,
      title: [kind?.title, pathRow.name].filter(Boolean).join(' · '),
      state: reviewedForm(config, record).review_state,
      amountEur: preview?.amountEur ?? null,
      bandName: preview?.band.name ?? null,
    });
    if (preview) group.amountEur = Math.round(((group.amountEur ?? 0) + preview.amountEur) * 100) / 100;
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.seasonStart.localeCompare(a.seasonStart) || a.areaName.localeCompare(b.areaName, 'sl'));
}

export function ReviewResults({ rows }: { rows: readonly MeadowSeasonReview[] }) {
  const t = slReviewFarmer.results;
  return (
    <section className="card review-results" aria-labelledby="review-results-title" data-testid="review-results">
      <h2 id="review-results-title">{t.title}</h2>
      <p className="muted">{t.lead}</p>
      {rows.length === 0 ? (
        <p className="muted">{t.empty}</p>
      ) : (
        rows.map((group) => (
          <section key={group.key} aria-labelledby={`review-results-${group.key}`} data-testid={`review-results-${group.key}`}>
            <h3 id={`review-results-${group.key}`}>
              {group.areaName} · {group.seasonName}
            </h3>
            <ul className="row-list">
              {group.forms.map((f) => (
                <li key={f.id}>
                  <a className="row-link" href={routeHref('form', { formId: f.id })}>
                    <span className="row-link__main">
                      <span className="row-link__title">{f.title}</span>
                      <ReviewBadge state={f.state} size="small" />
                    </span>
                    {f.amountEur !== null ? (
                      <span className="small">
                        {f.bandName ? `${slReview.payment.band(f.bandName)} · ` : ''}
                        {formatEuros(f.amountEur)} €
                      </span>
                    ) : null}
                  </a>
                </li>
              ))}
            </ul>
            {group.amountEur !== null ? (
              <p data-testid="review-results-amount">
                <strong>
                  {t.amount}: {formatEuros(group.amountEur)} €
                </strong>{' '}
                <span className="muted small">({slReviewFarmer.payment.estimate})</span>
              </p>
            ) : null}
          </section>
        ))
      )}
    </section>
  );
}
