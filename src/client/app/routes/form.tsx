/**
 * One form ('/forms/{formId}'): features/forms' checklist over the season rows of
 * features/season (or the device copy for an earlier season), saved through the outbox
 * (features/sync), with features/review's review around it (an adviser's decision from
 * features/review-queue), features/audit's history, and features/map for picking an indicator's
 * location on the map.
 */
import { lazy, Suspense } from 'react';
import { sl } from '../../../common/i18n/sl';
import { archiveEdit } from '../../lib/db/archive-edit';
import { FormScreen, useFormView } from '../../features/forms';
import { RecordHistory } from '../../features/audit';
import { ReviewDecision } from '../../features/review-queue';
import { selectAttentionItems } from '../../features/sync';
import { useAppSelector } from '../hooks';
import { formReviewSlots, reviewedForm } from '../../features/review';
import type { ScreenProps } from '../router/routes';
import { useReloadSeason, useSaveEdits, useSeasonView } from './screen-data';
import { routeHref } from '../../lib/links';
import { useRouter } from '../router/router';

// The map library loads with the picker, not with the form (form-point-picker.tsx).
const PointPicker = lazy(() => import(/* webpackChunkName: "form-point-picker" */ './form-point-picker'));

export default function FormRoute({ params }: ScreenProps) {
  const { navigate } = useRouter();
  const view = useSeasonView();
  const reload = useReloadSeason();
  const saveEdits = useSaveEdits();
  const screen = useFormView(view, Number(params.formId), reviewedForm);
  const attention = useAppSelector(selectAttentionItems);
  const { config } = view;
  if (!config || !screen) return null;
  const { form, pathId } = screen;
  const editor = view.role === 'editor';
  return (
    <FormScreen
      config={config}
      {...screen.props}
      canArchive={editor}
      online={view.online}
      error={view.error}
      fromDevice={view.fromDevice}
      onRetry={reload}
      saveEdits={saveEdits}
      onArchive={async () => {
        if (!form) return;
        await saveEdits([archiveEdit(config, 'forms', form.id)]);
        await navigate(pathId !== null ? routeHref('path', { pathId }) : routeHref('forms'));
      }}
      onArchiveIndicator={
        editor
          ? async (recordId) => {
              // One archive edit through the outbox; the server rescores the form without it
              // (server form-score.ts), the screen drops it from the live score at once.
              await saveEdits([archiveEdit(config, 'indicators', recordId)]);
            }
          : undefined
      }
      renderPointPicker={(initial, onPick) => (
        <Suspense fallback={<p role="status">{sl.common.loading}</p>}>
          <PointPicker view={view} pathId={pathId} initial={initial} onPick={onPick} />
        </Suspense>
      )}
      renderReview={formReviewSlots({
        ...screen,
        config,
        rows: view,
        saveEdits,
        decision: editor
          ? ({ form: row, season, today }) => (
              <ReviewDecision
                config={config}
                form={row}
                role={view.role}
                saveEdits={saveEdits}
                outbox={{ pending: view.pending, attention }}
                online={view.online}
                season={season}
                today={today}
              />
            )
          : undefined,
      })}
      history={editor && form ? <RecordHistory projectId={config.projectId} recordId={form.id} online={view.online} /> : undefined}
    />
  );
}
