/**
 * Every business constant in one place, each under one name (docs/architecture.md, Constants).
 * Client and server import them from here; nothing else hard-codes these numbers.
 */

/** API version. */
export const API_VERSION = 1;
/** Base path of the API: empty, i.e. same origin. */
export const API_BASE_PATH = '';

/** Page size for paths, forms, indicators, durations. */
export const PAGE_SIZE = 10000;
/** Page size for farmers. */
export const FARMERS_PAGE_SIZE = 1000;

/** Location permission poll. */
export const LOCATION_POLL_MS = 30_000;
/** Server reachability probe, GET /api/Test. */
export const REACHABILITY_POLL_MS = 10_000;
/**
 * A first visit installs the service worker once the first screen has its season, and at the
 * latest this long after the page's load (app/bootstrap/first-screen.ts).
 */
export const FIRST_SCREEN_WAIT_MS = 10_000;
/** Refresh the token when it expires within this many seconds. */
export const TOKEN_REFRESH_MARGIN_S = 30;
/**
 * Identity provider session check interval.
 * @public A product constant (docs/architecture.md, Constants), kept though nothing reads it yet.
 */
export const SESSION_CHECK_MS = 5_000;
/** Identity client message timeout. */
export const IDENTITY_MESSAGE_TIMEOUT_MS = 10_000;
/** Login state entries expire after this long. */
export const LOGIN_STATE_TTL_MS = 60 * 60 * 1000;

/** Notification default timeouts; null = stays until closed. */
export const NOTICE_TIMEOUT_MS = { info: 3_000, success: 2_000, error: null } as const;

/**
 * Mobile layout breakpoint.
 * @public A product constant (docs/architecture.md, Constants), kept though nothing reads it yet.
 */
export const MOBILE_BREAKPOINT_PX = 480;

/** Offline database name. */
export const OFFLINE_DB_NAME = 'Moj_travnik_0.2';
/**
 * Default chunk size for bulk changes of the offline store and bulk sync calls. A bulk call's
 * answer is written on the device in one transaction and part of each call's cost on both sides
 * is per call, not per operation: 500 drains a long queue faster than 200 (bench/README.md, "Sync
 * in the browser"), and its answer (about 200 kB of JSON) is still compressed on the server's
 * event loop.
 */
export const MODIFY_CHUNK_SIZE = 500;
/**
 * A new feature created offline gets a random local id below this (10 million); the server's ids
 * start at it, so the two never collide (the rule: common/record-id.ts).
 */
export const LOCAL_ID_BOUND = 10_000_000;

/** Score classes: above 66 good, above 33 medium, else bad. */
export const SCORE_GOOD_ABOVE = 66;
export const SCORE_MEDIUM_ABOVE = 33;

/** File size formatter: 1024 steps, 2 decimals by default. */
export const FILE_SIZE_STEP = 1024;
export const FILE_SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;
export const FILE_SIZE_DECIMALS = 2;

/**
 * How long a device keeps a row a server read no longer listed, as a hidden tombstone, before a
 * later read may drop it (10 minutes): a read sent before, still on its way, must not bring the
 * row back (lib/db/local-data.ts, refreshRows). Longer than a read takes on a slow line.
 */
export const TOMBSTONE_KEEP_MS = 10 * 60_000;

/** Outbox retry back-off: 1 s doubling to 60 s, with jitter (docs/architecture.md, Sync rules). */
export const SYNC_BACKOFF_START_MS = 1_000;
export const SYNC_BACKOFF_MAX_MS = 60_000;

/**
 * How far a transect may leave its meadow before saving asks for confirmation (metres). Drawn
 * lines follow a meadow's edge loosely and GPS drifts a few metres, so a small margin is not a
 * mistake; more than this usually is (a line drawn on the neighbour's field).
 */
export const PATH_OUTSIDE_AREA_MARGIN_M = 10;

/**
 * The meadows of the scheme, from a garden-sized strip to a large hay meadow: an outline outside
 * this range (hectares) is most likely drawn at the wrong zoom or on the wrong spot, so saving it
 * asks first (the adviser may still save it). GERK parcels of Slovenian grassland are mostly
 * 0.1–5 ha; the largest single meadows of the scheme's regions reach some tens of hectares.
 */
export const MEADOW_PLAUSIBLE_MIN_HA = 0.05;
export const MEADOW_PLAUSIBLE_MAX_HA = 50;

/** The editors' audit trail: entries per page by default and at most (the CSV has no limit). */
export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_MAX_PAGE_SIZE = 200;

/**
 * Counters of the request limits and the sign-in throttle in Redis (REDIS_URL, docs/deploy.md):
 * a Redis command waits at most this long before the node counts in its own memory instead (a
 * request must never hang on a slow Redis), and a lost connection is tried again at most this far
 * apart, so a node is back on the shared counts within a second or two of Redis returning.
 */
export const LIMIT_REDIS_COMMAND_TIMEOUT_MS = 500;
export const LIMIT_REDIS_RECONNECT_MAX_MS = 1_000;
/** Keys counted in a node's own memory per kind of counter: a flood of addresses must not grow it without bound. */
export const LIMIT_MEMORY_MAX_KEYS = 10_000;
