/**
 * The shared layout (docs/architecture.md, Screens and routes): header, main navigation, the current screen, the notification
 * area and the update notice — plus what other features hang on the frame: the sign-in banner
 * and sign-out dialog (auth), the location-denied warning (location) and the sync panel the header's connection indicator opens (sync).
 * Features meet here and in routes/ only (docs/architecture.md, Layers).
 */
import { useState } from 'react';
import { sl, slSync } from '../../../common/i18n/sl';
import { Header } from '../../components/header/header';
import { Modal } from '../../components/modal/modal';
import { UpdateDialog } from '../../features/app-update';
import { SignInBanner, SignOutDialog } from '../../features/auth';
import { NotificationArea } from '../../features/notifications';
import { LocationWarning } from '../../features/location';
import { SyncPanel, drainRequested } from '../../features/sync';
import { useRouteAccess } from '../bootstrap/route-access';
import { useAppDispatch } from '../hooks';
import { RouteOutlet, useLocation } from '../router/router';
import { MainNav } from './bottom-nav';
import { useConnectionInfo } from './connection';

export function AppLayout() {
  const location = useLocation();
  const dispatch = useAppDispatch();
  const { online, reachable, pendingEdits, needsDecision } = useConnectionInfo();
  const [syncPanelOpen, setSyncPanelOpen] = useState(false);
  const { role } = useRouteAccess();
  return (
    <div className="app-shell">
      {/* A button, not an anchor: '#main' would be read as a route by the hash router. */}
      <button type="button" className="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        {sl.app.skipToContent}
      </button>
      <Header online={online} pendingEdits={pendingEdits} needsDecision={needsDecision} currentPath={location.path} onStatusClick={() => setSyncPanelOpen(true)} />
      <SignInBanner reachable={reachable} />
      <LocationWarning />
      <MainNav currentPath={location.path} role={role} />
      <main id="main" className="app-main" tabIndex={-1}>
        <RouteOutlet />
      </main>
      <NotificationArea />
      {syncPanelOpen ? (
        <Modal title={slSync.sync.panelTitle} className="sync-panel-modal" onClose={() => setSyncPanelOpen(false)}>
          <SyncPanel />
        </Modal>
      ) : null}
      <SignOutDialog onSyncFirst={() => dispatch(drainRequested({ force: true }))} />
      <UpdateDialog />
    </div>
  );
}
