/**
 * Run by the first entry the HTML runs (early-fetch.ts, before `early` and the app): when a user
 * is signed in, it sends the season's first requests while the rest of the JavaScript downloads —
 * config.json, the roles, the user's farmer record and the durations; then a farmer's areas,
 * paths and season links; then the forms under those links; then their indicators and comments. The loading
 * chain sends the same requests (features/season/season-requests.ts) and gets these answers
 * through `earlyFetch` (early-fetch.ts, lib/api/early-answers.ts) instead of waiting a round trip
 * for each. Anything unexpected (an expired token, an error, a page that is not the whole answer)
 * just stops the early reads: the chain then asks itself.
 */
import { CONFIG_URL, looksLikeConfig } from '../../lib/config/load-config';
import { askEarly, startEarlyAnswers } from '../../lib/api/early-answers';
import { authorizationHeader } from '../../lib/api/credentials';
import { recordsSearchPath, rolesPath, searchPage } from '../../lib/api/paths';
import { readTokens, readUser } from '../../lib/auth/local-identity';
// The season feature's request builders alone: its index would bring the store and Dexie into
// this entry, which must be small enough to run long before the app's scripts have arrived.
// eslint-disable-next-line no-restricted-imports
import {
  commentsRequest,
  durationsRequest,
  farmerAheadRequests,
  formsRequest,
  indicatorsRequest,
  localDate,
  ownFarmerRequest,
  searchOf,
  type RowsRequest,
} from '../../features/season/season-requests';
import type { WireRecord } from '../../../common/schemas/wire';

/** A search answer that holds every row of the search (one page). */
function wholeAnswer(value: unknown): WireRecord[] | null {
  const page = value as { records?: unknown; totalCount?: unknown } | null;
  if (!page || !Array.isArray(page.records) || typeof page.totalCount !== 'number') return null;
  return page.records.length >= page.totalCount ? (page.records as WireRecord[]) : null;
}

function isRoles(value: unknown): value is { editor: boolean; reader: boolean } {
  const roles = value as { editor?: unknown; reader?: unknown } | null;
  return typeof roles?.editor === 'boolean' && typeof roles.reader === 'boolean';
}

/** Sends the early requests (see above); resolves when the last one is sent. */
export async function startEarlyReads(fetchFn: typeof fetch, storage: Storage | null, now: () => number): Promise<void> {
  const user = readUser(storage);
  const { token } = readTokens(storage);
  if (!user || !token) return;
  startEarlyAnswers();
  const config = await askEarly(fetchFn, CONFIG_URL, { headers: { accept: 'application/json' } });
  if (!looksLikeConfig(config)) return;
  const headers = { Accept: 'application/json', Authorization: authorizationHeader({ kind: 'bearer', token })! };
  const search = (request: RowsRequest) =>
    askEarly(fetchFn, recordsSearchPath(config.projectId), {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(searchPage(searchOf(config, request), 1, request.perPage)),
    });
  const [roles, own, durations] = await Promise.all([
    askEarly(fetchFn, rolesPath(config.projectId), { headers }),
    search(ownFarmerRequest(config, user.email)),
    search(durationsRequest()),
  ]);
  const ownRows = wholeAnswer(own);
  const durationRows = wholeAnswer(durations);
  if (!isRoles(roles) || !ownRows || !durationRows) return;
  const ahead = farmerAheadRequests(config, roles, ownRows, durationRows, user.email, localDate(now()));
  if (!ahead) return;
  void search(ahead.areas);
  void search(ahead.paths);
  const links = ahead.links && wholeAnswer(await search(ahead.links));
  if (!links?.length) return;
  const forms = wholeAnswer(
    await search(
      formsRequest(
        config,
        links.map((row) => row.id),
      ),
    ),
  );
  if (!forms?.length) return;
  const formIds = forms.map((row) => row.id).sort((a, b) => a - b);
  void search(indicatorsRequest(config, formIds));
  // The forms' threads, asked beside the indicators as the chain asks them (a cached config.json from before the table has none).
  if ((config.tables as Partial<typeof config.tables>).comments) void search(commentsRequest(config, formIds));
}
