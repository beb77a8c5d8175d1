/**
 * "Ponovitev dnevnika" on /about in test builds (a QA engineer imports a log in a test
 * build): pick an exported log, it is replayed into a separate store (browser-replay.ts), and
 * the result is shown — actions replayed, the final state hash against the logged one, the first
 * divergence — with the final state to download. Renders nothing where import is not enabled.
 */
import { useState, type ChangeEvent } from 'react';
import { slQaReplay } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { DownloadIcon } from '../../components/icons/icons';
import { isReplayImportEnabled, replayInApp, type MakeStoreLike } from './browser-replay';
import { parseActionLogFile } from './log-format';
import type { ReplayResult } from './replay';
import { readBlobText } from '../../lib/file/read-blob';

export interface ActionLogImportProps {
  makeStore: MakeStoreLike;
  /** Overrides the build/device switch (tests). */
  enabled?: boolean;
  /** Replaces the browser download of the final state (tests). */
  onDownloadState?: (json: string) => void;
}

function downloadJson(json: string): void {
  const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'moj-travnik-ponovljeno-stanje.json';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

type View = { status: 'idle' } | { status: 'running' } | { status: 'invalid' } | { status: 'done'; result: ReplayResult };

export function ActionLogImport({ makeStore, enabled = isReplayImportEnabled(), onDownloadState = downloadJson }: ActionLogImportProps) {
  const [view, setView] = useState<View>({ status: 'idle' });
  if (!enabled) return null;
  const text = slQaReplay.replay;

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0];
    if (!picked) return;
    setView({ status: 'running' });
    try {
      const file = parseActionLogFile(JSON.parse(await readBlobText(picked)));
      setView({ status: 'done', result: await replayInApp(file, makeStore) });
    } catch {
      setView({ status: 'invalid' });
    }
  };

  return (
    <div className="card" data-testid="action-log-import">
      <h2>{text.title}</h2>
      <p>{text.explain}</p>
      <label>
        {text.choose} <input type="file" accept="application/json,.json" onChange={(event) => void onFile(event)} disabled={view.status === 'running'} />
      </label>
      <div role="status" aria-live="polite">
        {view.status === 'running' && <p>{text.running}</p>}
        {view.status === 'invalid' && <p>{text.invalid}</p>}
        {view.status === 'done' && (
          <>
            <p>
              {text.actions}: {view.result.actions}. {text.finalHash}: <code>{view.result.finalHash}</code> ({text.loggedHash}:{' '}
              <code>{view.result.recordedFinalHash}</code>)
            </p>
            {view.result.divergence ? (
              <p>
                {text.diverged} {view.result.divergence.index} ({text.action} <code>{view.result.divergence.type}</code>): {text.expected}{' '}
                <code>{view.result.divergence.expected}</code>, {text.actual} <code>{view.result.divergence.actual}</code>.
              </p>
            ) : (
              <p>{text.match}</p>
            )}
            <Button
              text={text.downloadState}
              icon={DownloadIcon}
              kind="secondary"
              onClick={() => onDownloadState(JSON.stringify(view.result.finalState, null, 2))}
            />
          </>
        )}
      </div>
    </div>
  );
}
