/**
 * The hash router. It owns the current location in React state, reads `#/…` from the
 * address bar and keeps the two in step:
 * - in-app links are plain `href="#/…"` anchors; `navigate()` is there for code;
 * - leaving a screen that holds unsaved data asks first (ConfirmLeave). A hashchange we did not
 *   start (a link, the back button, a typed address) is put back with replaceState while the
 *   user decides, and repeated if they agree;
 * - guards may block a route; an unknown path shows the not-found screen;
 * - each screen is a lazy chunk, shown with 'Nalagam...' while it loads.
 */
import {
  Component,
  createContext,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import { sl } from '../../../common/i18n/sl';
import { useLeaveConfirmation } from '../../components/confirm-leave/unsaved-changes';
import { Loading } from '../../components/loading/loading';
import { BlockedScreen } from '../routes/blocked';
import { NotFoundScreen } from '../routes/not-found';
import { ChunkFailedScreen } from '../routes/chunk-failed';
import { firstBlock, type Blocked, type RouteAccess } from './guards';
import { parseHash, type Location } from './match';
import { matchRoute, type CompiledRoute, type RouteMatch } from './routes';

export interface RouterState {
  location: Location;
  match: RouteMatch | null;
  blocked: Blocked | null;
  /**
   * Goes to `to` ('/paths/3' or '#/paths/3'), asking first when unsaved data would be lost.
   * Resolves false when the user chose to stay.
   */
  navigate(to: string, options?: { replace?: boolean }): Promise<boolean>;
}

const RouterContext = createContext<RouterState | null>(null);

export function useRouter(): RouterState {
  const state = useContext(RouterContext);
  if (!state) throw new Error('useRouter needs a <HashRouter>');
  return state;
}

export function useLocation(): Location {
  return useRouter().location;
}

export interface HashRouterProps {
  routes: readonly CompiledRoute[];
  access: RouteAccess;
  children: ReactNode;
}

export function HashRouter({ routes, access, children }: HashRouterProps) {
  const leave = useLeaveConfirmation();
  const [location, setLocation] = useState<Location>(() => parseHash(window.location.hash));
  const locationRef = useRef(location);
  locationRef.current = location;
  /** href of a change we started or the user confirmed: let it through without asking. */
  const allowedRef = useRef<string | null>(null);

  useEffect(() => {
    function onHashChange() {
      const next = parseHash(window.location.hash);
      const current = locationRef.current;
      if (next.href === current.href) return;
      // A query-only change stays on the same screen: nothing is lost.
      if (allowedRef.current === next.href || next.path === current.path || !leave.hasUnsavedChanges()) {
        allowedRef.current = null;
        locationRef.current = next;
        setLocation(next);
        return;
      }
      window.history.replaceState(window.history.state, '', `#${current.href}`);
      void leave.confirmLeave().then((ok) => {
        if (!ok) return;
        allowedRef.current = next.href;
        window.location.hash = next.href;
      });
    }
    window.addEventListener('hashchange', onHashChange);
    onHashChange(); // the address may have changed before this effect ran
    return () => window.removeEventListener('hashchange', onHashChange);
  }, [leave]);

  const navigate = useCallback(
    async (to: string, options: { replace?: boolean } = {}) => {
      const target = parseHash(to.startsWith('#') ? to : `#${to}`);
      const current = locationRef.current;
      if (target.href === current.href) return true;
      if (target.path !== current.path && !(await leave.confirmLeave())) return false;
      if (options.replace) {
        // replaceState fires no hashchange: update the state ourselves.
        window.history.replaceState(window.history.state, '', `#${target.href}`);
        locationRef.current = target;
        setLocation(target);
      } else {
        allowedRef.current = target.href;
        window.location.hash = target.href;
      }
      return true;
    },
    [leave],
  );

  const match = useMemo(() => matchRoute(routes, location.path), [routes, location.path]);
  const blocked = useMemo(
    () => (match ? firstBlock(match.route.guards, { access, params: match.params, query: location.query }) : null),
    [match, access, location.query],
  );

  useEffect(() => {
    const title = match ? match.route.title : sl.router.notFoundTitle;
    document.title = title === sl.common.appName ? title : `${title} – ${sl.common.appName}`;
  }, [match]);

  // After a screen change, start at the top and move focus to the new heading so keyboard and
  // screen-reader users know the page changed (not on first load: the browser handles that).
  const firstPath = useRef(location.path);
  useEffect(() => {
    if (location.path === firstPath.current) return;
    firstPath.current = '';
    window.scrollTo?.(0, 0);
    // The new heading if the screen is already there; else <main>, and Page moves focus to its
    // heading when a lazy screen arrives.
    const main = document.getElementById('main');
    const heading = main?.querySelector<HTMLElement>('[data-page-title]');
    (heading ?? main)?.focus({ preventScroll: true });
  }, [location.path]);

  const value = useMemo<RouterState>(() => ({ location, match, blocked, navigate }), [location, match, blocked, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/** Renders the screen of the current route (or not-found / blocked). */
export function RouteOutlet() {
  const { location, match, blocked } = useRouter();
  if (!match) return <NotFoundScreen path={location.path} />;
  if (blocked) return <BlockedScreen blocked={blocked} />;
  const { Screen } = match.route;
  return (
    <ChunkErrorBoundary key={location.path}>
      <Suspense fallback={<Loading />}>
        <Screen params={match.params} query={location.query} />
      </Suspense>
    </ChunkErrorBoundary>
  );
}

/** A screen chunk that cannot load (offline before it was cached, a deploy removed it). */
class ChunkErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('screen failed to load', error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <ChunkFailedScreen /> : this.props.children;
  }
}
