/**
 * While a walk is recorded, every screen but its path's shows a bar with the walked distance and
 * the way back to the path: the farmer marks the plants on the form while the walk goes on
 * (features/map's walk session), and finishes it on the path's screen.
 */
import { sl } from '../../../common/i18n/sl';
import { formatDistance } from '../../../common/format';
import { NOT_PICTURED_ATTRIBUTE } from '../../lib/home-snapshot';
import { useWalkStatus } from '../../lib/walk-status';
import { parseHash } from '../router/match';

export function WalkBar({ currentPath }: { currentPath: string }) {
  const walk = useWalkStatus();
  if (!walk) return null;
  // Not on the screen the walk is finished on, which shows it whole.
  if (currentPath === parseHash(walk.returnTo).path) return null;
  const t = sl.walkBar;
  const distance = formatDistance(walk.distanceM);
  return (
    // Not a live region: its distance changes with every few steps. Not in the home's picture for
    // the next start either: a reload interrupts the walk (its path's screen offers to resume it).
    <aside className="walk-bar" aria-label={t.label} data-status={walk.status} {...{ [NOT_PICTURED_ATTRIBUTE]: '' }}>
      <span className="walk-bar__text">{t[walk.status](distance)}</span>
      <a className="walk-bar__back" href={walk.returnTo} aria-label={t.backTo(walk.pathName ?? '')}>
        {t.back}
      </a>
    </aside>
  );
}
