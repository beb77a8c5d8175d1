/**
 * The header: logo (to home), About and Download buttons, and the connection state of
 * docs/architecture.md, Sync rules (no-wifi icon when offline, the number of edits waiting to be sent). It takes plain
 * props; the app layout feeds it from the sync feature's selectors.
 */
import { sl } from '../../../common/i18n/sl';
import { Button } from '../button/button';
import { CommentInfoIcon, DownloadIcon, LogoIcon, NoWifiIcon, WifiIcon } from '../icons/icons';
import { routeHref } from '../../lib/links';

export interface HeaderProps {
  online: boolean;
  /** Edits stored locally and not yet acknowledged by the server. */
  pendingEdits: number;
  /** Edits the server refused (failed or in conflict), waiting for the user's decision. */
  needsDecision?: number;
  /** Current route path, to mark the About/Download button of the open screen. */
  currentPath?: string;
  /** Opens the sync panel (waiting, failed and conflicting edits). */
  onStatusClick?: () => void;
}

export function Header({ online, pendingEdits, needsDecision = 0, currentPath, onStatusClick }: HeaderProps) {
  const statusText = online ? sl.header.online : sl.header.offline;
  const pendingText = [pendingEdits > 0 ? sl.header.pendingEdits(pendingEdits) : '', needsDecision > 0 ? sl.header.needsDecision(needsDecision) : '']
    .filter(Boolean)
    .join(', ');
  const status = (
    <>
      {online ? <WifiIcon size={22} /> : <NoWifiIcon size={22} />}
      <span className="conn-status__text">{statusText}</span>
      {pendingEdits > 0 ? (
        <span className="conn-status__badge" aria-hidden="true">
          {pendingEdits > 999 ? '999+' : pendingEdits}
        </span>
      ) : null}
      {/* Not sent and not going to be without the user: marked apart from the edits still on their way. */}
      {needsDecision > 0 ? (
        <span className="conn-status__alert" aria-hidden="true">
          !
        </span>
      ) : null}
      {pendingText ? <span className="visually-hidden">{pendingText}</span> : null}
    </>
  );
  const statusClass = `conn-status ${online ? 'conn-status--online' : 'conn-status--offline'}${needsDecision > 0 ? ' conn-status--attention' : ''}`;

  return (
    <header className="app-header">
      <a className="app-header__brand" href={routeHref('home')} aria-label={sl.header.home}>
        <LogoIcon size={40} />
        <span className="app-header__name">{sl.common.appName}</span>
      </a>
      <div className="app-header__actions">
        {/* role=status: screen readers hear when the connection drops or edits pile up.
            data-live-state: the home's picture for the next start hides it (lib/home-snapshot.ts). */}
        <div role="status" aria-live="polite" className="app-header__status" data-live-state>
          {onStatusClick ? (
            <button type="button" className={statusClass} onClick={onStatusClick} title={sl.header.syncTooltip} data-testid="conn-status">
              {status}
            </button>
          ) : (
            <span className={statusClass} title={pendingText || statusText} data-testid="conn-status">
              {status}
            </span>
          )}
        </div>
        <Button
          href={routeHref('about')}
          kind="ghost"
          icon={CommentInfoIcon}
          tooltip={sl.header.about}
          active={currentPath === '/about'}
          className="app-header__button"
        />
        <Button
          href={routeHref('download')}
          kind="ghost"
          icon={DownloadIcon}
          tooltip={sl.header.downloadTooltip}
          text={<span className="hide-on-phone">{sl.header.download}</span>}
          active={currentPath?.startsWith('/download')}
          className="app-header__button"
        />
      </div>
    </header>
  );
}
