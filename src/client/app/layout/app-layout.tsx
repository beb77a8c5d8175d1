/**
 * The shared layout (docs/architecture.md, Screens and routes): header, main navigation, the current screen, the notification
 * area and the update notice — plus what other features hang on the frame: the sign-in banner
 * and sign-out dialog (auth), the location-denied warning (location), the bar of a walk under way (lib/walk-status, published by
 * features/map's recorder) and the sync panel the header's connection indicator opens (sync).
 * Features meet here and in routes/ only (docs/architecture.md, Layers).
 */
import { Suspense, useState } from 'react';
import { sl, slSync } from '../../../common/i18n/sl';
import { Header } from '../../components/header/header';
import { Modal } from '../../components/modal/modal';
import { UpdateDialog } from '../../features/app-update';
import { SignInBanner, SignOutDialog } from '../../features/auth';
import { NotificationArea } from '../../features/notifications';
import { LocationWarning } from '../../features/location';
import { SyncPanel, drainRequested } from '../../features/sync';
import { useWaitingCount } from '../../features/review-queue';
import { selectConfig } from '../../lib/config/config-slice';
import type { AppConfig } from '../../../common/schemas/config';
import { useRouteAccess } from '../bootstrap/route-access';
import { useAppDispatch, useAppSelector } from '../hooks';
import { ChunkErrorBoundary, RouteOutlet, useLocation } from '../router/router';
import { ChunkFailedScreen } from '../routes/chunk-failed';
import { Loading } from '../../components/loading/loading';
import { MainNav } from './bottom-nav';
import { useConnectionInfo } from './connection';
import { WalkBar } from './walk-bar';

export function AppLayout() {
  const location = useLocation();
  const dispatch = useAppDispatch();
  const { online, reachable, pendingEdits, needsDecision } = useConnectionInfo();
  const [syncPanelOpen, setSyncPanelOpen] = useState(false);
  const { role } = useRouteAccess();
  const config = useAppSelector(selectConfig) as AppConfig | null;
  // Advisers see how many forms wait for them; read again after each delivered edit (its bulk call
  // invalidates the records' cache tag) and when the server is back.
  const reviewCount = useWaitingCount(config, online, role === 'editor' || role === 'reader');
  return (
    <div className="app-shell">
      {/* A button, not an anchor: '#main' would be read as a route by the hash router. */}
      <button type="button" className="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        {sl.app.skipToContent}
      </button>
      <Header
        online={online}
        pendingEdits={pendingEdits}
        needsDecision={needsDecision}
        currentPath={location.path}
        onStatusClick={() => setSyncPanelOpen(true)}
      />
      <SignInBanner reachable={reachable} />
      <LocationWarning />
      <WalkBar currentPath={location.path} />
      <MainNav currentPath={location.path} role={role} reviewCount={reviewCount} />
      <main id="main" className="app-main" tabIndex={-1}>
        <RouteOutlet />
      </main>
      <NotificationArea />
      {syncPanelOpen ? (
        <Modal title={slSync.sync.panelTitle} className="sync-panel-modal" onClose={() => setSyncPanelOpen(false)}>
          <ChunkErrorBoundary fallback={<ChunkFailedScreen />}>
            <Suspense fallback={<Loading />}>
              <SyncPanel />
            </Suspense>
          </ChunkErrorBoundary>
        </Modal>
      ) : null}
      <SignOutDialog onSyncFirst={() => dispatch(drainRequested({ force: true }))} />
      <UpdateDialog />
    </div>
  );
}
