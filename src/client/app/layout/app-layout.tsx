/**
 * The shared layout of seed §2: header, main navigation, the current screen, the notification
 * area and the update notice. Features meet here and in routes/ only (DESIGN §3).
 */
import { sl } from '../../../common/i18n/sl';
import { Header } from '../../components/header/header';
import { UpdateDialog } from '../../features/app-update/update-dialog';
import { NotificationArea } from '../../features/notifications/notification-area';
import { RouteOutlet, useLocation } from '../router/router';
import { MainNav } from './bottom-nav';
import { useConnectionInfo } from './connection';

export interface AppLayoutProps {
  /** Opens the sync panel (H4) from the header's connection indicator. */
  onStatusClick?: () => void;
}

export function AppLayout({ onStatusClick }: AppLayoutProps) {
  const location = useLocation();
  const { online, pendingEdits } = useConnectionInfo();
  return (
    <div className="app-shell">
      {/* A button, not an anchor: '#main' would be read as a route by the hash router. */}
      <button type="button" className="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        {sl.app.skipToContent}
      </button>
      <Header online={online} pendingEdits={pendingEdits} currentPath={location.path} onStatusClick={onStatusClick} />
      <MainNav currentPath={location.path} />
      <main id="main" className="app-main" tabIndex={-1}>
        <RouteOutlet />
      </main>
      <NotificationArea />
      <UpdateDialog />
    </div>
  );
}
