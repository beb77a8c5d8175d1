/**
 * One form ('/forms/{formId}'): features/forms' checklist over the season rows of
 * features/season (or the device copy for an earlier season), saved through the outbox
 * (features/sync), with features/map for picking an indicator's location on the map.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import { sl } from '../../../common/i18n/sl';
import { dayInSlovenia, farmerMayEdit, type ReviewState } from '../../../common/review';
import { formKindById } from '../../../common/scheme/form-kinds';
import { readRow, toProperties } from '../../lib/db/model';
import { refKeysFor } from '../../lib/db/refs';
import { FormScreen, useStoredForm, type ReviewContext, type ReviewSlots } from '../../features/forms';
import { RecordHistory } from '../../features/audit';
import { ReviewDecision } from '../../features/review-queue';
import { selectAttentionItems } from '../../features/sync';
import { useAppSelector } from '../hooks';
import { FarmerMoves, PaymentCard, ReviewSummary, ReviewThread, reviewedForm, seasonDeadlines, storedValues, threadOf } from '../../features/review';
import type { ScreenProps } from '../router/routes';
import { useReloadSeason, useSaveEdits, useSeasonView } from './screen-data';
import { routeHref } from '../../lib/links';
import { useRouter } from '../router/router';
import { moveEdit } from '../../lib/db/review-edit';

// The map library loads with the picker, not with the form (form-point-picker.tsx).
const PointPicker = lazy(() => import(/* webpackChunkName: "form-point-picker" */ './form-point-picker'));

export default function FormRoute({ params }: ScreenProps) {
  const { navigate } = useRouter();
  const formId = Number(params.formId);
  const view = useSeasonView();
  const reload = useReloadSeason();
  const saveEdits = useSaveEdits();
  const { config } = view;
  // The router gives the id the form has now (an offline id until the outbox delivered it), and the
  // season rows follow the same delivery in the same render.
  const inSeason = view.forms.find((f) => f.id === formId && !f.archived) ?? null;
  // The router keeps this screen mounted when the form's id follows its delivery; so does the
  // editor with the user's unsaved answers (its key is the screen's, not the id of the moment).
  const [editorKey] = useState(() => String(formId));
  const stored = useStoredForm(config, formId, view.hasData && !inSeason, view.loadedAt, view.online);
  const form = inSeason ?? stored.form;
  const indicators = useMemo(
    () => (inSeason && config ? view.indicators.filter((i) => readRow(config, 'indicators', i).parent === formId) : stored.indicators),
    [inSeason, view.indicators, stored.indicators, config, formId],
  );
  const editor = view.role === 'editor';
  const attention = useAppSelector(selectAttentionItems);
  if (!config) return null;
  const link = form ? [...view.durationPaths].find((d) => d.id === readRow(config, 'forms', form).parent) : undefined;
  const pathId = link ? readRow(config, 'durationPaths', link).path_id : null;
  const path = view.paths.find((p) => p.id === pathId);
  const seasonName = inSeason && view.duration ? (readRow(config, 'durations', view.duration).name ?? '') : null;
  // Farmers edit this season's forms; earlier seasons are read-only for them (editors edit any).
  const ofThisSeason = Boolean(link) || Boolean(inSeason);
  const review = form ? reviewedForm(config, form) : null;
  const farmer = view.role === 'farmer';
  // A farmer changes a form only while it is a draft or returned to them (src/common/review.ts);
  // the server refuses anything else with 409, so it is not offered. Editors may always correct.
  const readOnly =
    view.role === 'reader' || view.role === null
      ? 'role'
      : !ofThisSeason && !editor
        ? 'pastSeason'
        : farmer && review && !farmerMayEdit(review.review_state)
          ? 'review'
          : null;
  const kind = form ? formKindById(readRow(config, 'forms', form).form_id, config.forms) : undefined;
  const area = path ? view.areas.find((a) => a.id === readRow(config, 'paths', path).parent) : undefined;
  const areaHa = area ? readRow(config, 'areas', area).area_ha : null;
  // This season's threads come with the season; an earlier season's form brings its own.
  const thread = form ? threadOf(config, inSeason ? view.comments : stored.comments, form.id) : [];
  const farmerRow = view.farmers.find((f) => f.id === view.farmerId);
  const today = dayInSlovenia(new Date());
  const onMove = async (to: ReviewState, reason: string | null) => {
    if (!form) return;
    // One update of the form on its stored version (the outbox carries it), built as an adviser's
    // decision is (lib/db/review-edit.ts).
    await saveEdits([moveEdit(config, form.id, { to, reason })]);
  };
  const onReply = async (text: string, indicator: string | null) => {
    if (!form) return null;
    const saved = await saveEdits([
      {
        kind: 'insert',
        projectId: config.projectId,
        tableId: config.tables.comments.id,
        properties: toProperties(config, 'comments', { parent: form.id, text, indicator: indicator ?? undefined }),
        refs: refKeysFor(config, 'comments'),
      },
    ]);
    const record = saved[0]?.record;
    return record ? readRow(config, 'comments', record) : null;
  };
  const renderReview = (context: ReviewContext): ReviewSlots => {
    if (!form || !kind || !review) return {};
    const stored = readRow(config, 'forms', form);
    return {
      // An adviser decides at the top, before the checklist they read to decide.
      top: (
        <>
          <ReviewSummary form={review} kind={kind} onShowIndicator={context.showIndicator} />
          {editor ? (
            <ReviewDecision
              config={config}
              form={stored}
              role={view.role}
              saveEdits={saveEdits}
              outbox={{ pending: view.pending, attention }}
              online={view.online}
              season={seasonDeadlines(config, view.duration)}
              today={today}
            />
          ) : null}
        </>
      ),
      // Below the form, not beside the score: on a phone that is the sticky bar, kept two lines high.
      bottom: (
        <>
          <PaymentCard kind={kind} values={context.values} areaHa={areaHa} />
          {farmer && ofThisSeason ? (
            <FarmerMoves
              form={review}
              kind={kind}
              values={storedValues(config, kind, form.id, indicators)}
              completed={stored.completed === true}
              dirty={context.dirty}
              season={seasonDeadlines(config, view.duration)}
              today={today}
              online={view.online}
              onMove={onMove}
            />
          ) : null}
          <ReviewThread
            comments={thread}
            kind={kind}
            ownEmail={view.email}
            farmerEmail={farmerRow ? readRow(config, 'farmers', farmerRow).email : null}
            online={view.online}
            onReply={farmer || editor ? onReply : undefined}
            onShowIndicator={context.showIndicator}
          />
        </>
      ),
    };
  };
  return (
    <FormScreen
      config={config}
      form={form}
      indicators={indicators}
      pathName={path ? (readRow(config, 'paths', path).name ?? '') : null}
      pathId={pathId}
      seasonName={seasonName}
      readOnly={readOnly}
      canArchive={editor}
      online={view.online}
      status={!inSeason && view.hasData && !stored.done ? 'loading' : view.status}
      error={view.error}
      fromDevice={view.fromDevice}
      hasData={view.hasData && (Boolean(inSeason) || stored.done)}
      onRetry={reload}
      saveEdits={saveEdits}
      onArchive={async () => {
        if (!form) return;
        await saveEdits([{ kind: 'archive', projectId: config.projectId, tableId: config.tables.forms.id, id: form.id }]);
        await navigate(pathId !== null ? routeHref('path', { pathId }) : routeHref('forms'));
      }}
      onArchiveIndicator={
        editor
          ? async (recordId) => {
              // One archive edit through the outbox; the server rescores the form without it
              // (server form-score.ts), the screen drops it from the live score at once.
              await saveEdits([{ kind: 'archive', projectId: config.projectId, tableId: config.tables.indicators.id, id: recordId }]);
            }
          : undefined
      }
      renderPointPicker={(initial, onPick) => (
        <Suspense fallback={<p role="status">{sl.common.loading}</p>}>
          <PointPicker view={view} pathId={pathId} initial={initial} onPick={onPick} />
        </Suspense>
      )}
      editorKey={editorKey}
      focusIndicator={review?.review_state === 'returned' ? review.review_indicator : null}
      renderReview={renderReview}
      history={editor && form ? <RecordHistory projectId={config.projectId} recordId={form.id} online={view.online} /> : undefined}
    />
  );
}
