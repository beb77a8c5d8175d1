/**
 * The hash router. It owns the current location in React state, reads `#/…` from the
 * address bar and keeps the two in step:
 * - in-app links are plain anchors whose href comes from lib/links (`routeHref`); `navigate()`
 *   is there for code;
 * - leaving a screen that holds unsaved data asks first (ConfirmLeave). A hashchange we did not
 *   start (a link, the back button, a typed address) is put back with replaceState while the
 *   user decides, and repeated if they agree;
 * - guards may block a route; an unknown path shows the not-found screen;
 * - each screen is a lazy chunk, shown with 'Nalagam...' while it loads;
 * - it owns the record ids in the address (record-params.ts): a route's record parameter is
 *   resolved through lib/db/identity before the screen renders, and once the record is delivered
 *   the address is replaced with its server id (replaceState: no new history entry) while the
 *   screen stays mounted, so nothing the user typed is lost.
 */
import { Component, createContext, Suspense, useCallback, useContext, useEffect, useMemo, useRef, useState, type ErrorInfo, type ReactNode } from 'react';
import { sl } from '../../../common/i18n/sl';
import { useLeaveConfirmation } from '../../components/confirm-leave/unsaved-changes';
import { Loading } from '../../components/loading/loading';
import { BlockedScreen } from '../routes/blocked';
import { NotFoundScreen } from '../routes/not-found';
import { ChunkFailedScreen } from '../routes/chunk-failed';
import { firstBlock, type Blocked, type RouteAccess } from './guards';
import { buildHref } from '../../lib/links';
import { matchRoute, parseHash, type Location } from './match';
import { followParams, useDeliveredIds } from './record-params';
import type { CompiledRoute, RouteMatch } from './routes';
import { loadedScreen } from './screen-loaders';

export interface RouterState {
  location: Location;
  /** The matched route, its record parameters resolved to the ids the records have now. */
  match: RouteMatch | null;
  /** False while a record parameter's offline id is being looked up on the device. */
  idsResolved: boolean;
  /**
   * Which screen is open: changes when the user goes elsewhere, not when the address follows a
   * delivered record to its server id (the screen keeps its state).
   */
  screenKey: string;
  blocked: Blocked | null;
  /**
   * Goes to `to` ('/paths/3' or '#/paths/3'), asking first when unsaved data would be lost.
   * Resolves false when the user chose to stay.
   */
  navigate(to: string, options?: { replace?: boolean }): Promise<boolean>;
}

/** The router's state for the screens below it (a test renders one screen under its own value). */
export const RouterContext = createContext<RouterState | null>(null);

const NO_RECORDS: readonly string[] = [];

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
  /** The screen an address shows: its route's shared screen key, else the address's own path. */
  const screenKeyOf = useCallback((at: Location) => matchRoute(routes, at.path)?.route.screenKey ?? at.path, [routes]);
  const [{ location, screenKey }, setShown] = useState(() => {
    const first = parseHash(window.location.hash);
    return { location: first, screenKey: screenKeyOf(first) };
  });
  const locationRef = useRef(location);
  locationRef.current = location;
  /** Shows `next`, as the screen of its address or (`sameScreen`) as the open screen's new address. */
  const setLocation = useCallback(
    (next: Location, sameScreen = false) => {
      setShown((shown) => ({ location: next, screenKey: sameScreen ? shown.screenKey : screenKeyOf(next) }));
    },
    [screenKeyOf],
  );
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
  }, [leave, setLocation]);

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
    [leave, setLocation],
  );

  const matched = useMemo(() => matchRoute(routes, location.path), [routes, location.path]);
  const recordNames = matched?.route.records ?? NO_RECORDS;
  const delivered = useDeliveredIds(matched ? recordNames.map((name) => matched.params[name] ?? '') : NO_RECORDS);
  const match = useMemo(() => {
    if (!matched || !delivered) return matched;
    const params = followParams(matched.params, recordNames, delivered);
    return params === matched.params ? matched : { ...matched, params };
  }, [matched, recordNames, delivered]);
  // The address follows the record: the server id replaces the offline id, on the same screen.
  // Only while the address is still the one shown: one the user has gone to since (its hashchange
  // not handled yet) stands, and the router shows it next.
  useEffect(() => {
    if (!match || match === matched) return;
    if (parseHash(window.location.hash).href !== location.href) return;
    const path = buildHref(match.route.pattern, match.params).slice(1);
    const next = parseHash(`#${path}${location.search ? `?${location.search}` : ''}`);
    window.history.replaceState(window.history.state, '', `#${next.href}`);
    locationRef.current = next;
    setLocation(next, true);
  }, [match, matched, location.href, location.search, setLocation]);
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
  const firstScreen = useRef(screenKey);
  useEffect(() => {
    if (screenKey === firstScreen.current) return;
    firstScreen.current = '';
    window.scrollTo?.(0, 0);
    // The new heading if the screen is already there; else <main>, and Page moves focus to its
    // heading when a lazy screen arrives.
    const main = document.getElementById('main');
    const heading = main?.querySelector<HTMLElement>('[data-page-title]');
    (heading ?? main)?.focus({ preventScroll: true });
  }, [screenKey]);

  const value = useMemo<RouterState>(
    () => ({ location, match, idsResolved: delivered !== null, screenKey, blocked, navigate }),
    [location, match, delivered, screenKey, blocked, navigate],
  );
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/** Renders the screen of the current route (or not-found / blocked). */
export function RouteOutlet() {
  const { location, match, idsResolved, screenKey, blocked } = useRouter();
  // Chosen once per screen: switching from the lazy wrapper to the loaded component under a
  // mounted screen would remount it and lose what it holds.
  const lazyScreen = match?.route.Screen;
  const Screen = useMemo(() => (lazyScreen ? (loadedScreen(lazyScreen) ?? lazyScreen) : null), [lazyScreen]);
  if (!match || !Screen) return <NotFoundScreen path={location.path} />;
  if (blocked) return <BlockedScreen blocked={blocked} />;
  if (!idsResolved) return <Loading />;
  return (
    <ChunkErrorBoundary key={screenKey} fallback={<ChunkFailedScreen />}>
      <Suspense fallback={<Loading />}>
        <Screen params={match.params} query={location.query} />
      </Suspense>
    </ChunkErrorBoundary>
  );
}

/** Code loaded on demand that cannot load (offline before it was cached, a deploy removed it): `fallback` instead. */
export class ChunkErrorBoundary extends Component<{ children: ReactNode; fallback: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('code failed to load', error, info.componentStack);
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
