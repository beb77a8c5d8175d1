/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The loading chain takes the forms' comments (their threads) like the indicators: by parent form,
 * for farmers and editors, stored on the device, and read from there offline.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { browserOnlineChanged } from '../../../src/client/features/sync';
import { loadSeason, selectComments } from '../../../src/client/features/season';
import { readRow } from '../../../src/client/lib/db/model';
import { USERS } from '../../server/helpers/build-test-app';
import { farmerRows, type FarmerRows } from '../../server/helpers/demo-ids';
import { PROJECT_ID, openTestDb, settleStores } from '../data-layer/helpers';
import { startRealServer, type RealServer } from '../data-layer/real-server';

jest.setTimeout(30_000);

let server: RealServer;
let own: FarmerRows;
let commentId: number;
const JUNE_2025 = Date.parse('2025-06-15T10:00:00');

beforeAll(async () => {
  server = await startRealServer();
  own = await farmerRows(server.t.app, server.t.tables, USERS.farmer1);
  const { comments } = server.t.tables;
  const formId = [...own.forms].sort((a, b) => a - b)[0]!;
  const made = await server.t.as(USERS.editor, {
    method: 'POST',
    url: `/api/Records/${PROJECT_ID}`,
    payload: {
      tableId: comments.id,
      properties: { [comments.columns.parent]: formId, [comments.columns.text]: 'Preverite kaduljo.', [comments.columns.indicator]: 'salvia-pratensis' },
    },
  });
  expect(made.statusCode).toBeLessThan(300);
  commentId = made.json<{ id: number }>().id;
});
afterEach(settleStores);
afterAll(async () => {
  await server.t.close();
});

describe('comments in the season chain', () => {
  it('a farmer’s season carries the comments of their forms, and offline the same from the device', async () => {
    const db = openTestDb();
    const store = server.storeFor(db, USERS.farmer1, { now: () => JUNE_2025 });
    const online = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    expect(online.comments.map((c) => c.id)).toEqual([commentId]);
    const comment = readRow(server.config, 'comments', online.comments[0]!);
    expect(comment.text).toBe('Preverite kaduljo.');
    expect(comment.indicator).toBe('salvia-pratensis');
    expect(own.forms).toContain(comment.parent);
    expect(selectComments(store.getState()).map((c) => c.id)).toEqual([commentId]);
    // Asked by parent form, as the indicators are.
    expect(server.requests.some((r) => r.url.includes('/search'))).toBe(true);

    store.dispatch(browserOnlineChanged(false));
    const before = server.requests.length;
    const offline = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    expect(server.requests.length).toBe(before);
    expect(offline.source).toBe('device');
    expect(offline.comments.map((c) => c.id)).toEqual([commentId]);
  });

  it('an editor who chose the farmer gets the same thread', async () => {
    const db = openTestDb();
    const store = server.storeFor(db, USERS.editor, { now: () => JUNE_2025 });
    const data = await store.dispatch(loadSeason({ email: USERS.editor, farmerId: own.farmer, config: server.config })).unwrap();
    expect(data.role).toBe('editor');
    expect(data.comments.map((c) => c.id)).toEqual([commentId]);
  });

  it('another farmer’s season has none of them', async () => {
    const db = openTestDb();
    const store = server.storeFor(db, USERS.farmer2, { now: () => JUNE_2025 });
    const data = await store.dispatch(loadSeason({ email: USERS.farmer2, config: server.config })).unwrap();
    expect(data.comments).toEqual([]);
  });
});
