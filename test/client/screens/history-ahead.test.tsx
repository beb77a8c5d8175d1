/**
 * A farmer's earlier seasons are read onto the device ahead of need: once the season came from
 * the server, without the results or a path's earlier seasons being opened, the device holds every
 * season of the farmer's paths (so both open from the device, online at once and offline whole).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { makeStore } from '../../../src/client/app/store';
import { seasonLoaded } from '../../../src/client/features/season';
import { reachabilityProbed } from '../../../src/client/features/sync';
import { configLoaded } from '../../../src/client/lib/config';
import { tableRows, type OfflineDb } from '../../../src/client/lib/db';
import type { SearchRequest } from '../../../src/common/filter';
import { openTestDb, response, until } from '../data-layer/helpers';
import { config, season, seasonData } from './fixtures';

const T = config.tables;
const dbs: OfflineDb[] = [];
afterEach(async () => {
  for (const db of dbs.splice(0)) {
    db.close();
    await db.delete();
  }
});

/** The server's rows of the fixture farmer, every season; answers POST …/search by table. */
function server(s: ReturnType<typeof season>) {
  const byTable = new Map<number, unknown[]>([
    [T.durations.id, s.durations],
    [T.durationPaths.id, s.allDurationPaths],
    [T.forms.id, [s.formDone, s.formOld]],
    [T.indicators.id, [...s.indicators, ...s.oldIndicators]],
  ]);
  const asked: number[] = [];
  const fetchFn = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    const { tableId } = JSON.parse(String(init?.body)) as SearchRequest;
    asked.push(tableId);
    const records = byTable.get(tableId) ?? [];
    return response({ body: { records, totalCount: records.length } });
  }) as typeof fetch;
  return { fetchFn, asked };
}

describe("a farmer's earlier seasons, read ahead", () => {
  it('are on the device once the season came from the server, though nothing opened them', async () => {
    const s = season();
    const db = openTestDb();
    dbs.push(db);
    const { fetchFn, asked } = server(s);
    const store = makeStore(undefined, { extra: { db, api: { baseUrl: 'http://server.test', fetchFn }, installedVisit: true } });
    store.dispatch(configLoaded({ config, source: 'network' }));
    store.dispatch(reachabilityProbed({ reachable: true, at: '2026-06-15T10:00:00.000Z' }));
    store.dispatch(seasonLoaded(seasonData(s, { loadedAt: '2026-06-15T10:00:00.000Z' })));
    const storedForms = async () => (await tableRows(db, T.forms.id).toArray()).map((r) => r.feature.id);
    await until(async () => (await storedForms()).includes(s.formOld.id), "last season's form on the device");
    await until(async () => (await tableRows(db, T.indicators.id).count()) === s.indicators.length + s.oldIndicators.length, 'its answers');
    expect((await storedForms()).sort()).toEqual([s.formDone.id, s.formOld.id].sort());
    expect(asked).toEqual([T.durations.id, T.durationPaths.id, T.forms.id, T.indicators.id]);
  });
});
