/**
 * The designed states every data screen shares (docs/architecture.md, Look and feel): loading ('Nalagam...') while nothing
 * is loaded yet, an error with a retry, and a note when the data comes from the device because the
 * server is out of reach. A reload that runs while data is shown keeps the screen (and any form
 * the user is filling in) where it is.
 */
import type { ReactNode } from 'react';
import { sl, slScreens } from '../../../common/i18n/sl';
import { Button } from '../button/button';
import { EmptyState } from '../empty-state/empty-state';
import { ErrorIcon, NoWifiIcon, SyncIcon } from '../icons/icons';
import { Loading } from '../loading/loading';

export interface ScreenStateProps {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  /** Whether any data is loaded (then a reload does not hide it). */
  hasData: boolean;
  error?: string | null;
  /** True when the rows come from the device (offline, or the server did not answer). */
  fromDevice?: boolean;
  onRetry?: () => void;
  children: ReactNode;
}

export function OfflineNote({ text = slScreens.states.offline }: { text?: string }) {
  return (
    <p className="offline-note" role="note" data-testid="offline-note">
      <NoWifiIcon size={20} aria-hidden="true" /> <span>{text}</span>
    </p>
  );
}

export function ScreenState({ status, hasData, error, fromDevice, onRetry, children }: ScreenStateProps) {
  if (status === 'failed' && !hasData) {
    return (
      <EmptyState icon={ErrorIcon} tone="warning" action={onRetry ? <Button icon={SyncIcon} text={sl.common.retry} onClick={onRetry} /> : undefined}>
        <p role="alert">{error ?? slScreens.states.error}</p>
      </EmptyState>
    );
  }
  if (!hasData && (status === 'loading' || status === 'idle')) return <Loading />;
  return (
    <>
      {fromDevice ? <OfflineNote /> : null}
      {status === 'failed' && error ? (
        <p className="screen-error" role="alert">
          {error}
        </p>
      ) : null}
      {children}
    </>
  );
}
