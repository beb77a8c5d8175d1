/**
 * What one form's screen shows, from the season rows (features/season, passed in by app/routes) or,
 * for a form of an earlier season, its device copy (useStoredForm): the form and its indicators,
 * its path and season, its meadow's hectares, its thread's comments, whether the user may change
 * it, and the screen's loading state.
 */
import { useMemo, useState } from 'react';
import { farmerMayEdit, type ReviewState } from '../../../common/review';
import type { AppConfig, FormKind } from '../../../common/schemas/config';
import { formKindById } from '../../../common/scheme/kind-lookup';
import type { StoredRecord } from '../../lib/db/database';
import { readRow } from '../../lib/db/model';
import type { FormScreenProps } from './form-screen';
import { useStoredForm } from './use-stored-form';

export interface FormViewRows {
  config: AppConfig | null;
  role: 'editor' | 'reader' | 'farmer' | null;
  status: FormScreenProps['status'];
  hasData: boolean;
  loadedAt: unknown;
  online: boolean;
  /** Editors and readers: every farmer (the form's is named); a farmer: their own. */
  farmers: readonly StoredRecord[];
  areas: readonly StoredRecord[];
  paths: readonly StoredRecord[];
  duration: StoredRecord | null;
  durationPaths: readonly StoredRecord[];
  forms: readonly StoredRecord[];
  indicators: readonly StoredRecord[];
  comments: readonly StoredRecord[];
}

/** A form's review columns as the screen needs them (features/review `reviewedForm`, passed in by app/routes). */
type ReviewOf = (config: AppConfig, form: StoredRecord) => { review_state: ReviewState; review_indicator: string | null };

export interface FormView {
  /** What FormScreen shows of the rows. */
  props: Pick<
    FormScreenProps,
    'form' | 'indicators' | 'farmerName' | 'pathName' | 'pathId' | 'seasonName' | 'readOnly' | 'status' | 'hasData' | 'editorKey' | 'focusIndicator'
  >;
  form: StoredRecord | null;
  indicators: readonly StoredRecord[];
  pathId: number | null;
  kind: FormKind | undefined;
  /** The form is of this season (farmers change only those). */
  ofThisSeason: boolean;
  /** The hectares of the path's meadow (the payment preview). */
  areaHa: number | null;
  /** The comments the form's thread is read from: the season's, or an earlier form's own. */
  comments: readonly StoredRecord[];
}

export function useFormView(rows: FormViewRows, formId: number, reviewOf: ReviewOf): FormView | null {
  const { config } = rows;
  // The router gives the id the form has now (an offline id until the outbox delivered it), and the
  // season rows follow the same delivery in the same render.
  const inSeason = rows.forms.find((f) => f.id === formId && !f.archived) ?? null;
  // The router keeps this screen mounted when the form's id follows its delivery; so does the
  // editor with the user's unsaved answers (its key is the screen's, not the id of the moment).
  const [editorKey] = useState(() => String(formId));
  const stored = useStoredForm(config, formId, rows.hasData && !inSeason, rows.loadedAt, rows.online);
  const form = inSeason ?? stored.form;
  const indicators = useMemo(
    () => (inSeason && config ? rows.indicators.filter((i) => readRow(config, 'indicators', i).parent === formId) : stored.indicators),
    [inSeason, rows.indicators, stored.indicators, config, formId],
  );
  if (!config) return null;
  const link = form ? [...rows.durationPaths].find((d) => d.id === readRow(config, 'forms', form).parent) : undefined;
  // A form of another season (or of a farmer not chosen): its link, path and season as read with it.
  const placeLink = link ?? stored.link;
  const linkedPathId = placeLink ? readRow(config, 'durationPaths', placeLink).path_id : null;
  const seasonPath = rows.paths.find((p) => p.id === linkedPathId);
  // The way back (and the map) lead to the path only where its screen shows it: a path of the rows.
  const pathId = seasonPath ? seasonPath.id : null;
  const path = seasonPath ?? (stored.path && stored.path.id === linkedPathId ? stored.path : undefined);
  // A link among the season's rows is of the loaded season, even before the rows list the form.
  const duration = inSeason || link ? rows.duration : stored.duration;
  // Farmers edit this season's forms; earlier seasons are read-only for them (editors edit any).
  const ofThisSeason = Boolean(link) || Boolean(inSeason);
  const review = form ? reviewOf(config, form) : null;
  // A farmer changes a form only while it is a draft or returned to them (src/common/review.ts);
  // the server refuses anything else with 409, so it is not offered. Editors may always correct.
  const readOnly =
    rows.role === 'reader' || rows.role === null
      ? 'role'
      : !ofThisSeason && rows.role !== 'editor'
        ? 'pastSeason'
        : rows.role === 'farmer' && review && !farmerMayEdit(review.review_state)
          ? 'review'
          : null;
  const areaId = path ? readRow(config, 'paths', path).parent : null;
  const area = areaId !== null ? rows.areas.find((a) => a.id === areaId) : undefined;
  const meadow = area ?? (areaId !== null && stored.area?.id === areaId ? stored.area : undefined);
  const farmerId = meadow ? readRow(config, 'areas', meadow).user : null;
  const farmer = rows.role === 'editor' || rows.role === 'reader' ? rows.farmers.find((f) => f.id === farmerId) : undefined;
  return {
    props: {
      form,
      indicators,
      farmerName: farmer ? (readRow(config, 'farmers', farmer).name ?? null) : null,
      pathName: path ? (readRow(config, 'paths', path).name ?? '') : null,
      pathId,
      seasonName: duration ? (readRow(config, 'durations', duration).name ?? '') : null,
      readOnly,
      status: !inSeason && rows.hasData && !stored.done ? 'loading' : rows.status,
      hasData: rows.hasData && (Boolean(inSeason) || stored.done),
      editorKey,
      focusIndicator: review?.review_state === 'returned' ? review.review_indicator : null,
    },
    form,
    indicators,
    pathId,
    kind: form ? formKindById(readRow(config, 'forms', form).form_id, config.forms) : undefined,
    ofThisSeason,
    areaHa: area ? readRow(config, 'areas', area).area_ha : null,
    // This season's threads come with the season; an earlier season's form brings its own.
    comments: inSeason ? rows.comments : stored.comments,
  };
}
