/** Progress of the running download with cancel/resume; shown on both download screens. */
import { useSyncExternalStore } from 'react';
import { slMap } from '../../../../common/i18n/sl';
import { formatFileSize } from '../../../../common/format';
import { Button } from '../../../components/button/button';
import type { DownloadController } from '../download-controller';

export function DownloadProgressPanel({ controller, onResume }: { controller: DownloadController; onResume?: () => void }) {
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  if (state.status === 'idle') return null;
  const p = state.progress;
  const done = p?.done ?? 0;
  const total = p?.total ?? 0;
  return (
    <section aria-label={state.name} className="mt-download__status">
      <p>
        <strong>{state.name}</strong> — {slMap.download.progress.replace('{done}', String(done)).replace('{total}', String(total))}
        {p ? ` (${formatFileSize(p.bytes)})` : null}
      </p>
      <progress className="mt-download__progress" max={Math.max(1, total)} value={done} aria-valuenow={done} aria-valuemax={total} />
      {state.status === 'running' ? <Button kind="secondary" text={slMap.download.cancel} onClick={() => controller.cancel()} /> : null}
      {state.status === 'paused-offline' ? <p role="status">{slMap.download.offlinePaused}</p> : null}
      {state.status === 'cancelled' ? <p role="status">{slMap.download.cancelled}</p> : null}
      {state.status === 'done' ? <p role="status">{slMap.download.done}</p> : null}
      {state.status === 'failed' ? <p role="alert">{slMap.download.failed.replace('{message}', state.error ?? '')}</p> : null}
      {(state.status === 'paused-offline' || state.status === 'cancelled') && onResume ? <Button text={slMap.download.resume} onClick={onResume} /> : null}
    </section>
  );
}
