/**
 * Run by the first entry the HTML runs (early-fetch.ts, before `early` and the app): when a user
 * is signed in, it sends the season's first requests while the rest of the JavaScript downloads —
 * config.json, and built from the device's copy of it (or from its answer, without one) the
 * roles, the user's farmer record and the durations; then a farmer's areas, paths and season
 * links (the areas and paths also make a first visit's picture of home, first-visit-home.ts);
 * then the forms under those links; then their indicators and comments, these last two waves
 * from a worker (worker-reads.ts), so that the page's main thread, busy with the app's scripts by
 * then, does not hold them up. The loading chain sends the same requests (features/season/season-requests.ts) and gets these answers
 * through `earlyFetch` (early-fetch.ts, lib/api/early-answers.ts) instead of waiting a round trip
 * for each. Anything unexpected (an expired token, an error, a page that is not the whole answer)
 * just stops the early reads: the chain then asks itself.
 */
import { CONFIG_URL, looksLikeConfig, readLastGoodConfig } from '../../lib/config/load-config';
import { askEarly, expectEarly, startEarlyAnswers, type EarlyAnswer, type EarlyRequest } from '../../lib/api/early-answers';
import { authorizationHeader } from '../../lib/api/credentials';
import { recordsSearchPath, rolesPath, searchPage } from '../../lib/api/paths';
import { readTokens, readUser } from '../../lib/auth/local-identity';
// The season feature's request builders alone: its index would bring the store and Dexie into
// this entry, which must be small enough to run long before the app's scripts have arrived.
// eslint-disable-next-line no-restricted-imports
import {
  commentsRequest,
  currentDuration,
  durationsRequest,
  farmerAheadRequests,
  formsRequest,
  indicatorsRequest,
  localDate,
  ownFarmerRequest,
  searchOf,
  type RowsRequest,
} from '../../features/season/season-requests';
import { keepFirstVisitHome } from './first-visit-home';
import { wholeAnswer, type WorkerReads, type WorkerReport } from './worker-reads';

function isRoles(value: unknown): value is { editor: boolean; reader: boolean } {
  const roles = value as { editor?: unknown; reader?: unknown } | null;
  return typeof roles?.editor === 'boolean' && typeof roles.reader === 'boolean';
}

/** A worker that takes the last two waves (worker-reads.ts), as the page has it (only its messaging). */
export type ReadsWorker = Pick<Worker, 'postMessage' | 'terminate'> & { onmessage: ((event: MessageEvent<WorkerReport>) => void) | null };

/** The ids in the bodies the worker fills in: a search for this id list alone is never sent. */
const FORM_IDS_PLACEHOLDER = [-1];

/**
 * Hands the forms and what is under them to the worker: the places for their answers are kept
 * here (expectEarly), so the app's requests wait for the worker's answers as for the page's own.
 */
function handOff(worker: ReadsWorker, reads: WorkerReads): void {
  const handIns = new Map<string, (answer: EarlyAnswer | null) => void>();
  const expect = (request: EarlyRequest) => handIns.set(JSON.stringify(request), expectEarly(request));
  expect(reads.forms);
  worker.onmessage = ({ data }) => {
    if (data.kind === 'asked') expect(data.request);
    else handIns.get(JSON.stringify(data.request))?.(data.answer);
  };
  worker.postMessage(reads);
}

/**
 * Sends the early requests (see above); resolves when the last one the page sends is sent.
 * `startWorker`: a worker for the last two waves (early-reads-worker.ts), started at once so that
 * its script is in by then; without one (or when the templates do not fit) the page sends them.
 */
export async function startEarlyReads(
  fetchFn: typeof fetch,
  storage: Storage | null,
  now: () => number,
  startWorker?: () => ReadsWorker | null,
): Promise<void> {
  const user = readUser(storage);
  const { token } = readTokens(storage);
  if (!user || !token) return;
  const worker = startWorker?.() ?? null;
  try {
    if (await readSeason(fetchFn, storage, now, user.email, token, worker)) return;
  } catch {
    // Nothing early then: the chain asks itself.
  }
  worker?.terminate();
}

/** The early reads themselves; true when the worker took the last waves. */
async function readSeason(
  fetchFn: typeof fetch,
  storage: Storage | null,
  now: () => number,
  email: string,
  token: string,
  worker: ReadsWorker | null,
): Promise<boolean> {
  startEarlyAnswers();
  const configAsked = askEarly(fetchFn, CONFIG_URL, { headers: { accept: 'application/json' } });
  // The app starts with the device's last good copy (app/bootstrap/start-up.ts), and so do its
  // requests: built from that copy they leave without waiting for config.json, which shares the
  // line with the scripts. Without a copy, the server's.
  const config = readLastGoodConfig(storage) ?? (await configAsked);
  if (!looksLikeConfig(config)) return false;
  const headers = { Accept: 'application/json', Authorization: authorizationHeader({ kind: 'bearer', token })! };
  const searchRequest = (request: RowsRequest): EarlyRequest => ({
    url: recordsSearchPath(config.projectId),
    init: {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(searchPage(searchOf(config, request), 1, request.perPage)),
    },
  });
  const search = (request: RowsRequest) => {
    const { url, init } = searchRequest(request);
    return askEarly(fetchFn, url, init);
  };
  const [roles, own, durations] = await Promise.all([
    askEarly(fetchFn, rolesPath(config.projectId), { headers }),
    search(ownFarmerRequest(config, email)),
    search(durationsRequest()),
  ]);
  const ownRows = wholeAnswer(own);
  const durationRows = wholeAnswer(durations);
  if (!isRoles(roles) || !ownRows || !durationRows) return false;
  const today = localDate(now());
  const ahead = farmerAheadRequests(config, roles, ownRows, durationRows, email, today);
  if (!ahead) return false;
  const areasAsked = search(ahead.areas);
  const pathsAsked = search(ahead.paths);
  void Promise.all([areasAsked, pathsAsked]).then(([areas, paths]) => {
    const areaRows = wholeAnswer(areas);
    const pathRows = wholeAnswer(paths);
    if (areaRows && pathRows)
      keepFirstVisitHome(storage, config, email, { duration: currentDuration(durationRows, config, today), areas: areaRows, paths: pathRows });
  });
  const links = ahead.links && wholeAnswer(await search(ahead.links));
  if (!links?.length) return false;
  const formsOf = formsRequest(
    config,
    links.map((row) => row.id),
  );
  // The forms' threads are asked beside the indicators, as the chain asks them (a cached config.json from before the table has none).
  const underForms = (formIds: number[]) => [
    indicatorsRequest(config, formIds),
    ...((config.tables as Partial<typeof config.tables>).comments ? [commentsRequest(config, formIds)] : []),
  ];
  const placeholder = JSON.stringify(FORM_IDS_PLACEHOLDER);
  const templates = underForms(FORM_IDS_PLACEHOLDER).map(searchRequest);
  if (worker && templates.every((template) => template.init.body?.split(placeholder).length === 2)) {
    handOff(worker, { forms: searchRequest(formsOf), underForms: templates, placeholder });
    return true;
  }
  const forms = wholeAnswer(await search(formsOf));
  if (!forms?.length) return false;
  for (const request of underForms(forms.map((row) => row.id).sort((a, b) => a - b))) void search(request);
  return false;
}
