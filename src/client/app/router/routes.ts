/**
 * The routes (docs/architecture.md, Screens and routes), in match order. Each screen is its own lazily loaded chunk (the magic
 * comment names it, so `npm run bench` reports `client.chunk_route_<name>_gz_kb`). Screens live in
 * app/routes/, one file each; they are the only place that combines features.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { sl, slAudit, slReviewQueue, slSetup } from '../../../common/i18n/sl';
import { compilePattern, type CompiledPattern, type Params, type Query } from './match';
import { ROUTE_PATHS, type RouteName } from '../../lib/links';
import { registerScreenLoader, type ScreenLoader } from './screen-loaders';
import { editorsOnly, farmerRecordRequired, readersCannotCreate, readersCannotEdit, staffOnly, type RouteGuard } from './guards';

export interface ScreenProps {
  params: Params;
  query: Query;
}

export interface RouteDefinition {
  name: RouteName;
  pattern: string;
  /** Document title of the screen (the app name is appended). */
  title: string;
  load: () => Promise<{ default: ComponentType<ScreenProps> }>;
  guards?: readonly RouteGuard[];
  /**
   * Parameters that hold a record's id: the router resolves them through lib/db/identity (an
   * offline id becomes the server id once delivered) and writes the result into the address.
   */
  records?: readonly string[];
  /**
   * Routes with the same screen key share one mounted screen: a set-up list and the editor of one
   * of its records, so that moving between them keeps what the screen holds (a "saved" note); leaving
   * with unsaved changes still asks. Without it each address is its own screen.
   */
  screenKey?: string;
}

export interface CompiledRoute extends RouteDefinition {
  compiled: CompiledPattern;
  Screen: LazyExoticComponent<ComponentType<ScreenProps>>;
}

const dataScreen = [farmerRecordRequired] as const;

const loadSetupSeasons = () => import(/* webpackChunkName: "route-setup-seasons" */ '../routes/setup-seasons');
const loadSetupFarmers = () => import(/* webpackChunkName: "route-setup-farmers" */ '../routes/setup-farmers');
const loadSetupAreas = () => import(/* webpackChunkName: "route-setup-areas" */ '../routes/setup-areas');
const loadSetupPaths = () => import(/* webpackChunkName: "route-setup-paths" */ '../routes/setup-paths');

export const routeDefinitions: readonly RouteDefinition[] = [
  {
    name: 'home',
    pattern: ROUTE_PATHS['home'],
    title: sl.screens.home.title,
    load: () => import(/* webpackChunkName: "route-home" */ '../routes/home'),
    guards: dataScreen,
  },
  {
    name: 'about',
    pattern: ROUTE_PATHS['about'],
    title: sl.screens.about.title,
    load: () => import(/* webpackChunkName: "route-about" */ '../routes/about'),
  },
  {
    name: 'results',
    pattern: ROUTE_PATHS['results'],
    title: sl.screens.results.title,
    load: () => import(/* webpackChunkName: "route-results" */ '../routes/results'),
    guards: dataScreen,
  },
  {
    name: 'paths',
    pattern: ROUTE_PATHS['paths'],
    title: sl.screens.paths.title,
    load: () => import(/* webpackChunkName: "route-paths" */ '../routes/paths'),
    guards: dataScreen,
  },
  {
    // Before '/paths/{pathId}', which would read 'new' as an id.
    name: 'path-new',
    pattern: ROUTE_PATHS['path-new'],
    title: slSetup.paths.newForFarmer,
    load: () => import(/* webpackChunkName: "route-path-new" */ '../routes/path-new'),
    guards: [farmerRecordRequired, readersCannotCreate],
  },
  {
    name: 'path',
    pattern: ROUTE_PATHS['path'],
    title: sl.screens.path.title,
    load: () => import(/* webpackChunkName: "route-path" */ '../routes/path'),
    guards: [farmerRecordRequired, readersCannotEdit],
    records: ['pathId'],
  },
  {
    name: 'forms',
    pattern: ROUTE_PATHS['forms'],
    title: sl.screens.forms.title,
    load: () => import(/* webpackChunkName: "route-forms" */ '../routes/forms'),
    guards: dataScreen,
  },
  {
    name: 'form',
    pattern: ROUTE_PATHS['form'],
    title: sl.screens.form.title,
    load: () => import(/* webpackChunkName: "route-form" */ '../routes/form'),
    guards: [farmerRecordRequired, readersCannotEdit],
    records: ['formId'],
  },
  {
    // The advisers' review queue: editors decide, readers look, farmers are kept out.
    name: 'review',
    pattern: ROUTE_PATHS['review'],
    title: slReviewQueue.title,
    load: () => import(/* webpackChunkName: "route-review" */ '../routes/review'),
    guards: [staffOnly],
  },
  {
    name: 'download',
    pattern: ROUTE_PATHS['download'],
    title: sl.screens.download.title,
    load: () => import(/* webpackChunkName: "route-download" */ '../routes/download'),
  },
  {
    name: 'download-new',
    pattern: ROUTE_PATHS['download-new'],
    title: sl.screens.downloadNew.title,
    load: () => import(/* webpackChunkName: "route-download-new" */ '../routes/download-new'),
    guards: dataScreen,
  },
  {
    name: 'setup',
    pattern: ROUTE_PATHS['setup'],
    title: slSetup.hub.title,
    load: () => import(/* webpackChunkName: "route-setup" */ '../routes/setup'),
    guards: [staffOnly],
  },
  {
    name: 'setup-seasons',
    pattern: ROUTE_PATHS['setup-seasons'],
    title: slSetup.seasons.title,
    load: loadSetupSeasons,
    guards: [staffOnly],
    screenKey: 'setup-seasons',
  },
  {
    // One record's editor ('new' for a new one), on the list's screen.
    name: 'setup-season',
    pattern: ROUTE_PATHS['setup-season'],
    title: slSetup.seasons.title,
    load: loadSetupSeasons,
    guards: [staffOnly],
    records: ['recordId'],
    screenKey: 'setup-seasons',
  },
  {
    name: 'setup-farmers',
    pattern: ROUTE_PATHS['setup-farmers'],
    title: slSetup.farmers.title,
    load: loadSetupFarmers,
    guards: [staffOnly],
    screenKey: 'setup-farmers',
  },
  {
    // One record's editor ('new' for a new one), on the list's screen.
    name: 'setup-farmer',
    pattern: ROUTE_PATHS['setup-farmer'],
    title: slSetup.farmers.title,
    load: loadSetupFarmers,
    guards: [staffOnly],
    records: ['recordId'],
    screenKey: 'setup-farmers',
  },
  {
    name: 'setup-areas',
    pattern: ROUTE_PATHS['setup-areas'],
    title: slSetup.areas.title,
    load: loadSetupAreas,
    guards: [staffOnly],
    screenKey: 'setup-areas',
  },
  {
    // One record's editor ('new' for a new one), on the list's screen.
    name: 'setup-area',
    pattern: ROUTE_PATHS['setup-area'],
    title: slSetup.areas.title,
    load: loadSetupAreas,
    guards: [staffOnly],
    records: ['recordId'],
    screenKey: 'setup-areas',
  },
  {
    name: 'setup-paths',
    pattern: ROUTE_PATHS['setup-paths'],
    title: slSetup.paths.title,
    load: loadSetupPaths,
    guards: [staffOnly],
    screenKey: 'setup-paths',
  },
  {
    // One record's editor ('new' for a new one), on the list's screen.
    name: 'setup-path',
    pattern: ROUTE_PATHS['setup-path'],
    title: slSetup.paths.title,
    load: loadSetupPaths,
    guards: [staffOnly],
    records: ['recordId'],
    screenKey: 'setup-paths',
  },
  {
    name: 'setup-import',
    pattern: ROUTE_PATHS['setup-import'],
    title: slSetup.import.title,
    load: () => import(/* webpackChunkName: "route-setup-import" */ '../routes/setup-import'),
    guards: [editorsOnly],
  },
  {
    name: 'setup-audit',
    pattern: ROUTE_PATHS['setup-audit'],
    title: slAudit.title,
    load: () => import(/* webpackChunkName: "route-setup-audit" */ '../routes/setup-audit'),
    guards: [editorsOnly],
  },
];

/**
 * Compiles the table once; React.lazy wrappers load nothing until a screen renders or is asked
 * for ahead (preloadScreen). Routes that load the same module get the same wrapper, so a screen
 * shared by two routes (screenKey) stays mounted between them.
 */
export function compileRoutes(definitions: readonly RouteDefinition[]): CompiledRoute[] {
  const screens = new Map<RouteDefinition['load'], CompiledRoute['Screen']>();
  const screenOf = (load: RouteDefinition['load']) => {
    let screen = screens.get(load);
    if (!screen) {
      let pending: ReturnType<ScreenLoader<ScreenProps>['start']> | null = null;
      const loader: ScreenLoader<ScreenProps> = {
        loaded: null,
        start: () =>
          (pending ??= load().then(
            (module) => {
              loader.loaded = module.default;
              return module;
            },
            (error: unknown) => {
              // A failed download may be tried again (the chunk-failed screen offers a reload).
              pending = null;
              throw error;
            },
          )),
      };
      screens.set(load, (screen = lazy(loader.start)));
      registerScreenLoader(screen, loader);
    }
    return screen;
  };
  return definitions.map((def) => ({ ...def, compiled: compilePattern(def.pattern), Screen: screenOf(def.load) }));
}

export interface RouteMatch {
  route: CompiledRoute;
  params: Params;
}
