/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * A path's seasons (the results screen, the path screen's earlier seasons) online: once a read has
 * brought a path's whole history to the device, the next read shows the device's copy before the
 * server answers (device first: online is never slower than offline), and the server's answer
 * then replaces it. A path whose history was never read whole waits for the server, since the
 * device may hold only the current season of it.
 */
import { afterAll, afterEach, beforeAll, expect, it, jest } from '@jest/globals';
import { loadSeasonHistory, type SeasonHistory } from '../../../src/client/features/results/use-season-history';
import { USERS } from '../../server/helpers/build-test-app';
import { farmerRows, type FarmerRows } from '../../server/helpers/demo-ids';
import { openTestDb, settleStores } from './helpers';
import { holdSearchAnswers, startRealServer, type RealServer } from './real-server';

jest.setTimeout(30_000);

let server: RealServer;
let own: FarmerRows;

beforeAll(async () => {
  server = await startRealServer();
  own = await farmerRows(server.t.app, server.t.tables, USERS.farmer1);
});
afterEach(async () => {
  server.holdAnswer = () => undefined;
  await settleStores();
});
afterAll(async () => {
  await server.t.close();
});

const idsOf = (history: SeasonHistory) => ({
  durationPaths: history.durationPaths.map((r) => r.id).sort((a, b) => a - b),
  forms: history.forms.map((r) => r.id).sort((a, b) => a - b),
  indicators: history.indicators.map((r) => r.id).sort((a, b) => a - b),
});

it("shows a path's history from the device before the server answers once it was read whole, then the server's", async () => {
  const db = openTestDb();
  const store = server.storeFor(db, USERS.farmer1);
  const pathIds = own.paths;
  // The demo's farmer has forms of an earlier season: the history is more than the season chain's.
  expect(own.forms.length).toBeGreaterThan(0);

  // Never read whole: nothing is shown before the server's answer.
  const firstShown: SeasonHistory[] = [];
  const first = await loadSeasonHistory(store.dispatch, db, server.config, pathIds, true, (data) => firstShown.push(data));
  expect(firstShown).toEqual([]);
  expect(first.fromDevice).toBe(false);
  expect(idsOf(first.data)).toEqual({ durationPaths: own.durationPaths, forms: own.forms, indicators: own.indicators });

  // Read whole once: the next read shows the device's copy while the server's answers are held.
  const { release, asked } = holdSearchAnswers(server);
  const shown: SeasonHistory[] = [];
  const second = loadSeasonHistory(store.dispatch, db, server.config, pathIds, true, (data) => shown.push(data));
  await asked;
  expect(shown).toHaveLength(1);
  expect(idsOf(shown[0]!)).toEqual(idsOf(first.data));
  release();
  const answered = await second;
  expect(answered.fromDevice).toBe(false);
  expect(idsOf(answered.data)).toEqual(idsOf(first.data));

  // Whole is per path: one of those paths alone (the path screen's earlier seasons) shows from the
  // device too, though it was read with the others (on the results screen).
  const onePath = [pathIds[0]!];
  const oneShown: SeasonHistory[] = [];
  await loadSeasonHistory(store.dispatch, db, server.config, onePath, true, (data) => oneShown.push(data));
  expect(oneShown).toHaveLength(1);
});

it('waits for the server for a path whose history was not read whole on this device', async () => {
  const db = openTestDb();
  const store = server.storeFor(db, USERS.farmer1);
  const { release, asked } = holdSearchAnswers(server);
  const shown: SeasonHistory[] = [];
  const read = loadSeasonHistory(store.dispatch, db, server.config, own.paths, true, (data) => shown.push(data));
  await asked;
  expect(shown).toEqual([]);
  release();
  await read;
  expect(shown).toEqual([]);
});
