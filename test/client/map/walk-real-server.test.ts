/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * A recorded walk reaches the server: recorded offline (scripted fixes through the recorder),
 * saved through the outbox, then drained by the sync layer into the real server (buildApp, demo
 * project) as the farmer who owns the path. The server's path then has the simplified line as its
 * geometry, the summary and raw fixes in `walk`, and the distance in `length_m`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { drainOnce, rtkQueryTransport } from '../../../src/client/features/sync';
import { saveWalk } from '../../../src/client/features/map/recording/save-walk';
import { addFix, createRecorder, finish, markHidden, start, summarize, type Fix } from '../../../src/client/features/map/recording/track-recorder';
import { readOutbox } from '../../../src/client/lib/db';
import { USERS } from '../../server/helpers/build-test-app';
import { farmerRows } from '../../server/helpers/demo-ids';
import { openTestDb, settleStores } from '../data-layer/helpers';
import { startRealServer, type RealServer } from '../data-layer/real-server';

jest.setTimeout(60_000);

let server: RealServer;
beforeAll(async () => {
  server = await startRealServer();
});
afterEach(settleStores);
afterAll(async () => {
  await server.t.close();
});

const LAT = 46.8;
const M_LON = 1 / (111_320 * Math.cos((LAT * Math.PI) / 180));
const T0 = Date.UTC(2026, 5, 1, 8, 0, 0);
const fixAt = (east: number, s: number, accuracy = 6): Fix => ({ lon: 16.2 + east * M_LON, lat: LAT + (s % 2) * 0.000002, accuracy, timestamp: T0 + s * 1000 });

describe('walk → outbox → server', () => {
  it("saves the simplified walk as the farmer's path geometry once the outbox drains", async () => {
    const { config } = server;
    const own = await farmerRows(server.t.app, server.t.tables, USERS.farmer1);
    const pathId = own.paths[0]!;
    const db = openTestDb();

    // Recorded offline: 100 m, the page hidden once (a gap), one GPS jump.
    let state = start(createRecorder(), T0);
    for (let s = 0; s <= 50; s += 2) state = addFix(state, fixAt(s, s));
    state = markHidden(state);
    state = addFix(state, fixAt(400, 52));
    for (let s = 54; s <= 100; s += 2) state = addFix(state, fixAt(s + 10, s));
    state = addFix(state, fixAt(900, 101));
    state = finish(state, T0 + 101_000);
    const result = summarize(state, T0 + 101_000);
    expect(result.summary.gaps).toBe(1);
    // The lone 400 m fix after the gap and the 900 m one at the end.
    expect(result.summary.rejectedJumps).toBe(2);
    const table = {
      projectId: config.projectId,
      tableId: config.tables.paths.id,
      columns: { walk: config.tables.paths.columns.walk, length_m: config.tables.paths.columns.length_m },
    };
    await saveWalk(db, table, pathId, result, state.raw, T0);
    expect(await readOutbox(db)).toHaveLength(1);

    // Back online: the sync layer drains the outbox into the server.
    const store = server.storeFor(db, USERS.farmer1);
    const outcome = await drainOnce({ db, transport: rtkQueryTransport(store.dispatch) });
    expect(outcome.kind).toBe('done');
    expect(await readOutbox(db)).toHaveLength(0);

    const row = await server.t.app.db.selectFrom('records').select(['properties', 'geometry']).where('id', '=', pathId).executeTakeFirstOrThrow();
    const geometry = JSON.parse(String(row.geometry));
    expect(geometry).toEqual(result.geometry);
    expect(geometry.type).toBe('MultiLineString');
    const properties = JSON.parse(row.properties) as Record<string, unknown>;
    const walk = properties[String(config.tables.paths.columns.walk)] as { summary: { gaps: number }; raw: unknown[] };
    expect(walk.summary.gaps).toBe(1);
    expect(walk.raw).toHaveLength(state.raw.length);
    expect(properties[String(config.tables.paths.columns.length_m)]).toBeCloseTo(result.summary.distanceM, 0);
    // The rest of the path (its name, its area) is untouched: updates merge properties.
    expect(own.areas).toContain(properties[String(config.tables.paths.columns.parent)]);
  });
});
