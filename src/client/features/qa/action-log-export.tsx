/**
 * "Izvozi dnevnik" on /about: flushes the running recorder, reads the ring buffer and downloads
 * it as moj-travnik-dnevnik-<date>.json. The file is already redacted: it holds no
 * tokens, passwords or photos, only their size and hash.
 */
import { useState } from 'react';
import { slQa } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { DownloadIcon } from '../../components/icons/icons';
import { downloadFile } from '../../lib/download-file';
import { ACTION_LOG_FORMAT, ACTION_LOG_VERSION, actionLogFileName, DEFAULT_LOG_CAPACITY, type ActionLogFile } from './log-format';
import { getActiveActionLog } from './middleware';
import { IndexedDbLogSink } from './action-log-db';
import type { LogSink } from './sinks';

interface BuildActionLogFileOptions {
  sink: LogSink;
  now?: Date;
  appVersion?: string;
}

/** The export file of a sink's current contents. */
async function buildActionLogFile({ sink, now = new Date(), appVersion }: BuildActionLogFileOptions): Promise<ActionLogFile> {
  const file: ActionLogFile = {
    format: ACTION_LOG_FORMAT,
    version: ACTION_LOG_VERSION,
    exportedAt: now.toISOString(),
    capacity: sink.capacity,
    entries: await sink.readAll(),
  };
  if (appVersion) file.appVersion = appVersion;
  return file;
}

function download(file: ActionLogFile, name: string): void {
  downloadFile(name, JSON.stringify(file), 'application/json');
}

export interface ActionLogExportProps {
  /** The log to export; defaults to the app's running recorder (or its database). */
  sink?: LogSink;
  appVersion?: string;
  /** Replaces the browser download (tests). */
  onExport?: (file: ActionLogFile, name: string) => void;
}

type Status = 'idle' | 'busy' | 'done' | 'empty' | 'failed';

export function ActionLogExport({ sink, appVersion, onExport = download }: ActionLogExportProps) {
  const [status, setStatus] = useState<Status>('idle');
  const [count, setCount] = useState<number | null>(null);
  const text = slQa.qa;

  const run = async () => {
    setStatus('busy');
    try {
      const recorder = getActiveActionLog();
      if (!sink && recorder) await recorder.flush();
      const source = sink ?? recorder?.sink ?? new IndexedDbLogSink({ capacity: DEFAULT_LOG_CAPACITY });
      const now = new Date();
      const file = await buildActionLogFile({ sink: source, now, appVersion });
      setCount(file.entries.length);
      if (file.entries.length === 0) {
        setStatus('empty');
        return;
      }
      onExport(file, actionLogFileName(now));
      setStatus('done');
    } catch {
      setStatus('failed');
    }
  };

  return (
    <div className="card" data-testid="action-log-export">
      <h2>{text.title}</h2>
      <p>{text.explain}</p>
      <Button
        text={status === 'busy' ? text.exporting : text.export}
        icon={DownloadIcon}
        kind="secondary"
        disabled={status === 'busy'}
        onClick={() => void run()}
      />
      <p role="status" aria-live="polite">
        {status === 'done' && `${text.exported} ${text.entries}: ${count}.`}
        {status === 'empty' && text.empty}
        {status === 'failed' && text.failed}
      </p>
    </div>
  );
}
