/**
 * Home ('/'): the current season with its window and, per meadow, its paths with this
 * season's status and score, and the sync state. Editors and readers get the farmers panel
 * (search, season progress) beside it on a desk and above it on a phone. Pure props: app/routes
 * feeds the season rows (features/season), the sync state (features/sync) and the farmers panel.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { formatDateTime, formatDay } from '../../../common/format';
import { sl, slPhone, slScreens, slSetup } from '../../../common/i18n/sl';
import { ArchiveButton } from '../../components/archive-button/archive-button';
import { Button } from '../../components/button/button';
import { EmptyState } from '../../components/empty-state/empty-state';
import { ChevronRightIcon, FlowerIcon, NoWifiIcon, PlusIcon, SyncIcon, WifiIcon } from '../../components/icons/icons';
import { Page } from '../../components/page/page';
import { ScoreBadge } from '../../components/score-badge/score-badge';
import { ScreenState } from '../../components/screen-state/screen-state';
import { routeHref } from '../../lib/links';
import { safeLocalStorage } from '../../lib/local-storage';
import { whenIdle } from '../../lib/idle';
import { homeSeasonTitle, type HomeSeason } from './home-season';
import {
  APP_ROOT_ID,
  clearHomeSnapshot,
  onHomeSnapshotWritten,
  pictureOf,
  readHomeSnapshot,
  writeHomeSnapshot,
  type HomeSnapshot,
} from '../../lib/home-snapshot';

type HomePathStatus = 'not-walked' | 'walked' | 'form-done';

interface HomePath {
  id: number;
  name: string;
  lengthM: number | null;
  status: HomePathStatus;
  score: number | null;
}

interface HomeArea {
  id: number;
  name: string;
  paths: HomePath[];
}

/** A meadow as shown: from the season's rows, or from a picture (whose paths' status may be unknown). */
type ShownArea = Omit<HomeArea, 'paths'> & { paths: Array<Omit<HomePath, 'status'> & { status: HomePathStatus | null }>; newPathHref?: string | null };

export interface HomeScreenProps {
  role: 'editor' | 'reader' | 'farmer' | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  error: string | null;
  fromDevice: boolean;
  season: HomeSeason | null;
  areas: HomeArea[];
  /** Name of the farmer whose meadows are shown (editors/readers choose one). */
  farmerName: string | null;
  hasFarmer: boolean;
  sync: { online: boolean; pending: number; lastSyncAt: string | null };
  /** Editors and readers: the farmers panel. */
  farmersPanel?: ReactNode;
  /**
   * Farmers: what needs them in the review (features/review's to-do), after the meadows: on a
   * phone the paths are what a farmer in the field opens the app for, and come in view first.
   */
  todo?: ReactNode;
  onRetry?: () => void;
  /** Editors: archive a meadow with its paths, after a confirmation. */
  onArchiveArea?: (areaId: number) => Promise<void>;
  /** Who may add a transect on a meadow (farmers on their own, editors): the "Nova pot" link of each meadow. */
  newPathHref?: (areaId: number) => string;
  /**
   * Project and user whose home this is (null while unknown): a farmer's home is kept as a
   * picture on the device and shown at once on the next start, until the season is read
   * (home-snapshot.ts).
   */
  snapshotKey?: string | null;
  /** Where the picture is kept (tests give their own); localStorage by default. */
  snapshotStorage?: Storage | null;
}

function StatusChip({ status }: { status: HomePathStatus }) {
  return (
    <span className={`status-chip status-chip--${status}`} data-status={status}>
      {slScreens.status[status]}
    </span>
  );
}

/**
 * A path's status and score where a picture does not know them yet (lib/home-snapshot.ts): their
 * place is kept (as a path without a score: most of a season's), so the rows do not move when the
 * season's own rows fill them in.
 */
function UnknownStatus() {
  return (
    <span className="status-chip picture-stale" aria-hidden="true">
      {slScreens.status['not-walked']}
    </span>
  );
}

function UnknownScore() {
  return (
    <span className="picture-stale" aria-hidden="true">
      <ScoreBadge score={null} size="small" />
    </span>
  );
}

function SyncCard({ sync }: { sync: HomeScreenProps['sync'] }) {
  const t = slScreens.home;
  return (
    <div className="card sync-card" data-testid="home-sync">
      <h2>{t.sync}</h2>
      {/* data-live-state: the home's picture for the next start hides these (lib/home-snapshot.ts). */}
      <p className={sync.online ? 'sync-card__conn' : 'sync-card__conn sync-card__conn--offline'} data-live-state>
        {sync.online ? <WifiIcon size={20} aria-hidden="true" /> : <NoWifiIcon size={20} aria-hidden="true" />} {sync.online ? t.online : t.offline}
      </p>
      <p data-live-state>
        <SyncIcon size={20} aria-hidden="true" /> {t.pending(sync.pending)}
      </p>
      <p className="muted" data-live-state>
        {t.lastSync}: {sync.lastSyncAt ? formatDateTime(sync.lastSyncAt) : t.never}
      </p>
    </div>
  );
}

/** At the latest this long after home's paint the picture is taken, idle or not. */
const SNAPSHOT_IDLE_WAIT_MS = 2_000;

/** What of the home screen is kept as the picture of the next start. */
function snapshotOf(key: string, props: HomeScreenProps, html: string): HomeSnapshot {
  return {
    key,
    season: props.season,
    areas: props.areas.map((area) => ({
      id: area.id,
      name: area.name,
      paths: area.paths.map((p) => ({ id: p.id, name: p.name, lengthM: p.lengthM, status: p.status, score: p.score })),
      newPathHref: props.newPathHref?.(area.id) ?? null,
    })),
    html,
  };
}

export function HomeScreen(props: HomeScreenProps) {
  const t = slScreens.home;
  const storage = props.snapshotStorage === undefined ? safeLocalStorage() : props.snapshotStorage;
  // Read in the first render (synchronously, so the paths are in the very first frame the screen
  // paints), or taken when one is written later (a first visit's, from the early reads); it shows
  // only until the season's own rows are there.
  const [snapshot, setSnapshot] = useState(() => (props.snapshotKey && props.status !== 'ready' ? readHomeSnapshot(storage, props.snapshotKey) : null));
  const waitsForPicture = snapshot === null && props.status !== 'ready' && props.status !== 'failed' && props.snapshotKey ? props.snapshotKey : null;
  useEffect(() => {
    if (!waitsForPicture) return;
    return onHomeSnapshotWritten(() => setSnapshot(readHomeSnapshot(storage, waitsForPicture)));
  }, [waitsForPicture, storage]);
  const pictured =
    snapshot !== null &&
    props.status !== 'ready' &&
    props.status !== 'failed' &&
    props.areas.length === 0 &&
    props.role !== 'editor' &&
    props.role !== 'reader';
  const season = pictured ? snapshot.season : props.season;
  const areas: Array<ShownArea> = pictured ? snapshot.areas : props.areas;
  const newPathHref = (area: ShownArea) => (pictured ? (area.newPathHref ?? null) : (props.newPathHref?.(area.id) ?? null));
  const { role } = props;
  const staff = role === 'editor' || role === 'reader';
  // The picture of this screen for the next start, once it shows the season's own rows. Taken
  // when the page is idle after the paint (it copies the markup and writes storage
  // synchronously: on a first visit that came before the paths' first frame), and only when what
  // it shows changed: the route hands new props on every store update.
  const mainRef = useRef<HTMLDivElement>(null);
  const written = useRef<string | null>(null);
  const hasTodo = Boolean(props.todo);
  useEffect(() => {
    if (!props.snapshotKey || pictured) return;
    if (staff) {
      if (written.current !== '') clearHomeSnapshot(storage);
      written.current = '';
      return;
    }
    if (role !== 'farmer' || props.status !== 'ready') return;
    const key = props.snapshotKey;
    return whenIdle(() => {
      // Compared without the markup: copying it costs more than the comparison.
      const shown = `${hasTodo}${JSON.stringify(snapshotOf(key, props, ''))}`;
      if (shown === written.current) return;
      written.current = shown;
      const root = mainRef.current?.ownerDocument.getElementById(APP_ROOT_ID);
      writeHomeSnapshot(storage, snapshotOf(key, props, root ? pictureOf(root) : ''));
    }, SNAPSHOT_IDLE_WAIT_MS);
  });
  const paths = areas.flatMap((a) => a.paths);
  const done = paths.filter((p) => p.status === 'form-done').length;
  const statusKnown = paths.every((p) => p.status !== null);
  // Editors and readers: choosing a farmer opens that farmer's meadows (on a phone the list of
  // farmers is above them): focus moves to their heading once they are there.
  const areasHeading = useRef<HTMLHeadingElement>(null);
  const shownFarmer = useRef(props.farmerName);
  useEffect(() => {
    if (!staff || props.farmerName === shownFarmer.current || props.status !== 'ready') return;
    shownFarmer.current = props.farmerName;
    if (props.farmerName) areasHeading.current?.focus();
  }, [staff, props.farmerName, props.status]);
  const content =
    staff && !props.hasFarmer ? (
      <EmptyState icon={FlowerIcon}>
        <p>{t.chooseFarmer}</p>
      </EmptyState>
    ) : (
      <>
        <div className="card season-card" data-testid="home-season">
          <h2>{homeSeasonTitle(season)}</h2>
          {season ? (
            <>
              <p>{t.window(formatDay(season.from), formatDay(season.to))}</p>
              {paths.length ? (
                <>
                  <progress max={paths.length} value={done} aria-label={t.progress(done, paths.length)} className={statusKnown ? undefined : 'picture-stale'} />
                  <p className={statusKnown ? 'muted' : 'muted picture-stale'}>{t.progress(done, paths.length)}</p>
                </>
              ) : null}
            </>
          ) : (
            <p>{t.noSeason}</p>
          )}
        </div>
        {staff && props.farmerName ? (
          <p className="viewing-farmer">
            {t.viewingFarmer}: <strong>{props.farmerName}</strong>
          </p>
        ) : null}
        <h2 className="section-title" ref={areasHeading} tabIndex={-1}>
          {staff && props.farmerName ? slPhone.staff.areasOf(props.farmerName) : t.areas}
        </h2>
        {areas.length === 0 ? (
          <EmptyState icon={FlowerIcon}>
            <p>{t.noAreas}</p>
          </EmptyState>
        ) : (
          areas.map((area) => (
            <section className="card area-card" key={area.id} aria-labelledby={`area-${area.id}`} data-testid={`area-${area.id}`}>
              <div className="area-card__head">
                <h3 id={`area-${area.id}`}>{area.name}</h3>
                {props.onArchiveArea ? (
                  <ArchiveButton
                    text={slScreens.archive.area}
                    title={slScreens.archive.areaTitle}
                    confirm={slScreens.archive.areaConfirm}
                    onArchive={() => props.onArchiveArea!(area.id)}
                  />
                ) : null}
              </div>
              {area.paths.length === 0 ? (
                <p className="muted">{t.noPaths}</p>
              ) : (
                <ul className="row-list">
                  {area.paths.map((path) => (
                    <li key={path.id}>
                      <a className="row-link" href={routeHref('path', { pathId: path.id })} data-testid={`home-path-${path.id}`}>
                        <span className="row-link__main">
                          <span className="row-link__title">{path.name}</span>
                          {path.status ? <StatusChip status={path.status} /> : <UnknownStatus />}
                        </span>
                        {path.status ? <ScoreBadge score={path.score} size="small" /> : <UnknownScore />}
                        <ChevronRightIcon size={20} aria-hidden="true" />
                      </a>
                    </li>
                  ))}
                </ul>
              )}
              {/* After the paths: walking one is what the field is for, adding one is rare. */}
              {newPathHref(area) ? <Button href={newPathHref(area)!} kind="secondary" size="small" icon={PlusIcon} text={slSetup.paths.add} /> : null}
            </section>
          ))
        )}
        {props.todo}
      </>
    );
  return (
    // No lead for a farmer: on a phone its two lines would keep the first path below the fold.
    <Page title={sl.screens.home.title} lead={staff ? slPhone.staff.homeLead : undefined} className={staff ? 'page--desk' : undefined}>
      <ScreenState
        status={pictured ? 'ready' : props.status}
        hasData={pictured || props.status === 'ready' || areas.length > 0}
        error={props.error}
        fromDevice={pictured ? !props.sync.online : props.fromDevice}
        onRetry={props.onRetry}
      >
        <div className={staff ? 'desk-layout' : undefined}>
          {staff ? <aside className="desk-layout__side">{props.farmersPanel}</aside> : null}
          {/* data-picture-busy: busy while a picture shows, here and in the picture for the next start (lib/home-snapshot.ts). */}
          <div className="desk-layout__main" ref={mainRef} data-picture-busy="" aria-busy={pictured ? 'true' : undefined}>
            {content}
            <SyncCard sync={props.sync} />
            <div className="quick-actions">
              <Button href={routeHref('paths')} kind="secondary" text={sl.nav.paths} />
              <Button href={routeHref('forms')} kind="secondary" text={sl.nav.forms} />
              <Button href={routeHref('results')} kind="secondary" text={sl.nav.results} />
            </div>
          </div>
        </div>
      </ScreenState>
    </Page>
  );
}
