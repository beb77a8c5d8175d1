/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The farmer's side of the review against the real server: a form filled, submitted and replied to
 * offline is stored in the outbox as the screens store it (a form update with review_state, a
 * comment insert), the server accepts it once online, and the next season load shows the form
 * submitted and the reply in its thread with the farmer as author.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { browserOnlineChanged, drainOnce, rtkQueryTransport } from '../../../src/client/features/sync';
import { loadSeason } from '../../../src/client/features/season';
import { saveEdit } from '../../../src/client/lib/db';
import { readRow, toProperties } from '../../../src/client/lib/db/model';
import { refKeysFor } from '../../../src/client/lib/db/refs';
import { FORM_KINDS } from '../../../src/common/scheme/form-kinds';
import type { IndicatorDefinition } from '../../../src/common/schemas/config';
import { USERS } from '../../server/helpers/build-test-app';
import { durationIds } from '../../server/helpers/demo-ids';
import { PROJECT_ID, openTestDb, settleStores } from '../data-layer/helpers';
import { startRealServer, type RealServer } from '../data-layer/real-server';

jest.setTimeout(30_000);

let server: RealServer;
const JUNE_2026 = Date.parse('2026-06-15T10:00:00');

beforeAll(async () => {
  server = await startRealServer();
  // The demo's 2026 season ends its submissions on 31 Dec 2026 by the server's clock: moved far
  // ahead, so the test does not depend on the day it runs.
  const { durations } = server.t.tables;
  for (const id of await durationIds(server.t.app, server.t.tables)) {
    const got = await server.t.as(USERS.editor, { method: 'GET', url: `/api/Records/${PROJECT_ID}/${durations.id}/${id}` });
    const record = got.json<{ version: number; properties: Record<string, unknown> }>();
    if (record.properties[String(durations.columns.name)] !== 'Sezona 2026') continue;
    const put = await server.t.as(USERS.editor, {
      method: 'PUT',
      url: `/api/Records/${PROJECT_ID}/${durations.id}/${id}`,
      payload: { version: record.version, properties: { [durations.columns.submit_until]: '2099-12-31', [durations.columns.review_until]: '2100-01-31' } },
    });
    expect(put.statusCode).toBe(200);
  }
});
afterEach(settleStores);
afterAll(async () => {
  await server.t.close();
});

function answerOf(def: IndicatorDefinition): unknown {
  switch (def.valueKind) {
    case 'presence':
      return def.key === 'salvia-pratensis';
    case 'choice':
      return def.choices![0]!.value;
    case 'count':
    case 'percent':
      return 0;
    case 'date':
      return '2026-06-20';
    default:
      return 'da';
  }
}

describe('the review loop from the farmer’s device', () => {
  it('a form filled, submitted and replied to offline reaches the server; the next load shows it submitted with the reply', async () => {
    const config = server.config;
    const db = openTestDb();
    const store = server.storeFor(db, USERS.farmer1, { now: () => JUNE_2026 });
    const first = await store.dispatch(loadSeason({ email: USERS.farmer1, config })).unwrap();
    expect(first.durationPaths.length).toBeGreaterThan(0);
    store.dispatch(browserOnlineChanged(false));

    const kind = FORM_KINDS.travnik;
    const form = await saveEdit(db, {
      kind: 'insert',
      projectId: config.projectId,
      tableId: config.tables.forms.id,
      properties: toProperties(config, 'forms', {
        parent: first.durationPaths[0]!.id,
        form_id: kind.id,
        completed: true,
        score: 7,
        rule_version: kind.scoring.version,
      }),
      refs: refKeysFor(config, 'forms'),
    });
    for (const def of kind.indicators.filter((d) => d.required || d.key === 'salvia-pratensis')) {
      await saveEdit(db, {
        kind: 'insert',
        projectId: config.projectId,
        tableId: config.tables.indicators.id,
        properties: toProperties(config, 'indicators', { parent: form.id, key: def.key, value: answerOf(def) }),
        refs: refKeysFor(config, 'indicators'),
      });
    }
    // What the form screen stores: the move, then a reply.
    await saveEdit(db, {
      kind: 'update',
      projectId: config.projectId,
      tableId: config.tables.forms.id,
      id: form.id,
      properties: toProperties(config, 'forms', { review_state: 'submitted', review_reason: null }),
      refs: refKeysFor(config, 'forms'),
    });
    await saveEdit(db, {
      kind: 'insert',
      projectId: config.projectId,
      tableId: config.tables.comments.id,
      properties: toProperties(config, 'comments', { parent: form.id, text: 'Kadulja raste ob začetku poti.', indicator: 'salvia-pratensis' }),
      refs: refKeysFor(config, 'comments'),
    });

    // Offline the device shows it submitted, with the reply waiting.
    const offline = await store.dispatch(loadSeason({ email: USERS.farmer1, config })).unwrap();
    const offlineForm = offline.forms.find((f) => f.id === form.id)!;
    expect(readRow(config, 'forms', offlineForm).review_state).toBe('submitted');
    expect(offline.comments.map((c) => readRow(config, 'comments', c).text)).toEqual(['Kadulja raste ob začetku poti.']);

    store.dispatch(browserOnlineChanged(true));
    const drained = await drainOnce({ db, transport: rtkQueryTransport(store.dispatch) });
    expect(drained).toMatchObject({ kind: 'done' });
    expect(await db.outbox.count()).toBe(0);

    const online = await store.dispatch(loadSeason({ email: USERS.farmer1, config })).unwrap();
    expect(online.source).toBe('server');
    const submitted = online.forms.map((f) => readRow(config, 'forms', f)).find((f) => f.review_state === 'submitted')!;
    expect(submitted).toMatchObject({ review_state: 'submitted', reviewed_by: USERS.farmer1 });
    expect(submitted.id).toBeGreaterThanOrEqual(10_000_000);
    const thread = online.comments.map((c) => readRow(config, 'comments', c)).filter((c) => c.parent === submitted.id);
    expect(thread).toHaveLength(1);
    expect(thread[0]).toMatchObject({ text: 'Kadulja raste ob začetku poti.', indicator: 'salvia-pratensis', author: USERS.farmer1 });
    expect(thread[0]!.id).toBeGreaterThanOrEqual(10_000_000);
  });
});
