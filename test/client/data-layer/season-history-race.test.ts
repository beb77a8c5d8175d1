/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * A path's earlier seasons (features/results, the path screen) read the path's season links while
 * the outbox delivers the links the season chain has just made. The history's answer, given
 * before the server had the links and stored after their delivery, must not take them off the
 * device: the farmer, offline next, adds a form under such a link, and the season read from the
 * device must show the form and its link (not a new link of its own, with the form left out and
 * shown as one of an earlier season, read-only).
 */
import { afterAll, afterEach, beforeAll, expect, it, jest } from '@jest/globals';
import { loadSeason } from '../../../src/client/features/season';
import { loadSeasonHistory } from '../../../src/client/features/results/use-season-history';
import { browserOnlineChanged, drainOnce, rtkQueryTransport } from '../../../src/client/features/sync';
import { readRows, refKeysFor, resolveIds, saveEdit } from '../../../src/client/lib/db';
import { readRow } from '../../../src/client/lib/db/model';
import { isLocalId } from '../../../src/common/record-id';
import { USERS } from '../../server/helpers/build-test-app';
import { farmerRows, type FarmerRows } from '../../server/helpers/demo-ids';
import { PROJECT_ID, openTestDb, settleStores } from './helpers';
import { startRealServer, type RealServer } from './real-server';

jest.setTimeout(30_000);

let server: RealServer;
let own: FarmerRows;
const JUNE_2032 = Date.parse('2032-06-15T10:00:00');

beforeAll(async () => {
  server = await startRealServer();
  own = await farmerRows(server.t.app, server.t.tables, USERS.farmer1);
  // A season of its own, without links: the season chain makes them.
  const d = server.config.tables.durations;
  const created = await server.t.as(USERS.editor, {
    method: 'POST',
    url: '/api/Records/1',
    payload: { tableId: d.id, properties: { [d.columns.name]: 'Sezona 2032', [d.columns.filter_start]: '2032-01-01', [d.columns.filter_end]: '2032-12-31' } },
  });
  expect(created.statusCode).toBeLessThan(300);
});
afterEach(async () => {
  server.holdAnswer = () => undefined;
  await settleStores();
});
afterAll(async () => {
  await server.t.close();
});

it('a path history read answered before the season links were delivered and stored after keeps them, and a form added offline under one shows in the season', async () => {
  const { durationPaths, forms } = server.config.tables;
  const pathId = own.paths[0]!;
  // The server answers the history's read of the path's links at once; the answer reaches the
  // device only when released (sent before the drain, taken in after it).
  let releaseAnswer!: () => void;
  let answerHeld!: () => void;
  const held = new Promise<void>((resolve) => (answerHeld = resolve));
  let holdNext = false;
  server.holdAnswer = (url, init) => {
    if (!holdNext || !url.includes('/search') || !String(init?.body ?? '').includes(`"tableId":${durationPaths.id},`)) return undefined;
    holdNext = false;
    answerHeld();
    return new Promise<void>((resolve) => (releaseAnswer = resolve));
  };
  const db = openTestDb();
  const store = server.storeFor(db, USERS.farmer1, { now: () => JUNE_2032 });
  const season = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
  const made = season.durationPaths.find((d) => readRow(server.config, 'durationPaths', d).path_id === pathId)!;
  expect(isLocalId(made.id)).toBe(true);

  holdNext = true;
  const history = loadSeasonHistory(store.dispatch, db, server.config, [pathId], true);
  await held;
  expect(await drainOnce({ db, transport: rtkQueryTransport(store.dispatch) })).toMatchObject({ kind: 'done', sent: own.paths.length });
  const link = { id: (await resolveIds(db, 'record', [made.id])).get(made.id)! };
  expect(isLocalId(link.id)).toBe(false);
  releaseAnswer();
  const shown = await history;
  expect(shown.data.durationPaths.map((d) => d.id)).toContain(link.id);
  expect((await readRows(db, durationPaths.id)).map((d) => d.id)).toContain(link.id);

  // Offline: a form under the link the path screen shows, then the season from the device.
  store.dispatch(browserOnlineChanged(false));
  const form = await saveEdit(db, {
    kind: 'insert',
    projectId: PROJECT_ID,
    tableId: forms.id,
    properties: { [forms.columns.parent]: link.id, [forms.columns.form_id]: 1 },
    refs: refKeysFor(server.config, 'forms'),
  });
  const offline = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
  expect(offline.source).toBe('device');
  expect(offline.durationPaths.map((d) => d.id)).toContain(link.id);
  expect(offline.durationPaths).toHaveLength(own.paths.length);
  expect(offline.forms.map((f) => f.id)).toEqual([form.id]);
  expect(await db.outbox.count()).toBe(1); // the form; no second link for the path
});
