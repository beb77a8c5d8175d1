/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The advisers' moves against the real server (buildApp, demo project): `saveMoves` — the one save
 * of the decision panel and of "Potrdi izbrane" — queues outbox updates that the drain delivers as
 * ordinary bulk writes. The server accepts the review columns the client sends (the stored
 * reviewed_by/reviewed_at sent back unchanged), sets who and when, and writes the reason into the
 * form's thread; the queue's search finds the waiting forms; a move the server refuses comes back
 * as the item's Slovenian reason, and an unrelated move in the same drain still goes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { drainOnce, rtkQueryTransport } from '../../../src/client/features/sync';
import { moveOutcomes, saveMoves, type SaveEdits } from '../../../src/client/features/review-queue/review-move';
import { recordsApi } from '../../../src/client/lib/api/records';
import { readRows, refreshRows, saveEdit, type OfflineDb } from '../../../src/client/lib/db';
import { readRow, type Form } from '../../../src/client/lib/db/model';
import { and, eq, isIn } from '../../../src/common/filter';
import { fillText, slReview } from '../../../src/common/i18n/sl';
import { dayInSlovenia } from '../../../src/common/review';
import { USERS } from '../../server/helpers/build-test-app';
import { openTestDb, settleStores } from '../data-layer/helpers';
import { startRealServer, type RealServer } from '../data-layer/real-server';

jest.setTimeout(30_000);

let server: RealServer;

beforeAll(async () => {
  server = await startRealServer();
});
afterEach(settleStores);
afterAll(async () => {
  await server.t.close();
});

async function serverForms(): Promise<Array<{ id: number; p: Record<string, unknown> }>> {
  const rows = await server.t.app.db
    .selectFrom('records')
    .select(['id', 'properties'])
    .where('table_id', '=', server.config.tables.forms.id)
    .where('deleted', '=', 0)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, p: JSON.parse(r.properties) as Record<string, unknown> }));
}

async function thread(formId: number): Promise<Array<Record<string, unknown>>> {
  const { comments } = server.config.tables;
  const rows = await server.t.app.db
    .selectFrom('records')
    .select(['properties'])
    .where('table_id', '=', comments.id)
    .where('deleted', '=', 0)
    .orderBy('id')
    .execute();
  return rows.map((r) => JSON.parse(r.properties) as Record<string, unknown>).filter((p) => p[String(comments.columns.parent)] === formId);
}

describe('advisers’ moves through the outbox to the real server', () => {
  it('reopen, return and approve: the server sets who and when, the reason becomes a comment, a refusal comes back in Slovenian', async () => {
    const { config } = server;
    const F = config.tables.forms;
    const key = (name: keyof typeof F.columns) => String(F.columns[name]);
    const db: OfflineDb = openTestDb();
    const store = server.storeFor(db, USERS.editor);
    const saveEdits: SaveEdits = async (edits) => {
      const saved = [];
      for (const edit of edits) saved.push(await saveEdit(db, edit));
      return saved;
    };
    const today = dayInSlovenia(new Date());
    const search = async (filters: Parameters<typeof and>[0]) => {
      const answer = await store.dispatch(
        recordsApi.endpoints.searchRecords.initiate(
          {
            projectId: config.projectId,
            body: { tableId: F.id, page: 1, perPage: 100, filters, sorts: [{ columnId: F.columns.reviewed_at, direction: 'asc' }] },
          },
          { subscribe: false, forceRefetch: true },
        ),
      );
      return answer.data!.records;
    };
    /** The forms as the queue has them: the server's copies, stored on the device before a move. */
    const onDevice = async (ids: number[]): Promise<Form[]> => {
      const records = await search(isIn('id', ids));
      await refreshRows(db, records, { projectId: config.projectId, tableId: F.id });
      const rows = await readRows(db, F.id, (r) => ids.includes(r.id));
      return ids.map((id) =>
        readRow(
          config,
          'forms',
          rows.find((r) => r.id === id)!,
        ),
      );
    };

    // The demo's last season is approved: reopen two of its forms.
    const approved = (await serverForms())
      .filter((f) => f.p[key('review_state')] === 'approved')
      .slice(0, 2)
      .map((f) => f.id);
    expect(approved).toHaveLength(2);
    const [a, b] = await onDevice(approved);
    const reopened = await saveMoves(
      saveEdits,
      config,
      [a!, b!].map((form) => ({ form, move: { to: 'submitted' as const, reason: 'Ponovno preverite oceno.' } })),
      today,
    );
    expect(reopened).toMatchObject({ refused: [], failed: null });
    expect(await drainOnce({ db, transport: rtkQueryTransport(store.dispatch) })).toMatchObject({ kind: 'done' });
    expect([...(await moveOutcomes(db, F.id, reopened.saved)).values()].map((o) => o.kind)).toEqual(['sent', 'sent']);
    for (const id of approved) {
      const p = (await serverForms()).find((f) => f.id === id)!.p;
      expect(p).toMatchObject({ [key('review_state')]: 'submitted', [key('reviewed_by')]: USERS.editor, [key('review_reason')]: 'Ponovno preverite oceno.' });
      expect(typeof p[key('reviewed_at')]).toBe('string');
      expect((await thread(id)).at(-1)).toMatchObject({
        [String(config.tables.comments.columns.text)]: 'Ponovno preverite oceno.',
        [String(config.tables.comments.columns.state)]: 'submitted',
      });
    }

    // The queue's search finds them waiting.
    const waiting = await search(and(isIn(F.columns.review_state, ['submitted', 'appealed']), eq('archived', false)));
    expect(waiting.map((r) => r.id)).toEqual(expect.arrayContaining(approved));

    // A return naming a plant the kind does not have is refused by the server; the approval beside it goes.
    const [a2, b2] = await onDevice(approved);
    const moves = await saveMoves(
      saveEdits,
      config,
      [
        { form: a2!, move: { to: 'returned', reason: 'Popravite.', indicator: 'ni-take-rastline' } },
        { form: b2!, move: { to: 'approved' } },
      ],
      today,
    );
    expect(moves.saved).toHaveLength(2);
    await drainOnce({ db, transport: rtkQueryTransport(store.dispatch) });
    const outcomes = await moveOutcomes(db, F.id, moves.saved);
    expect(outcomes.get(moves.saved[0]!.opId)).toEqual({ kind: 'refused', reason: fillText(slReview.refused.unknownIndicator, { key: 'ni-take-rastline' }) });
    expect(outcomes.get(moves.saved[1]!.opId)).toEqual({ kind: 'sent' });
    const after = await serverForms();
    expect(after.find((f) => f.id === approved[0])!.p[key('review_state')]).toBe('submitted');
    expect(after.find((f) => f.id === approved[1])!.p).toMatchObject({
      [key('review_state')]: 'approved',
      [key('reviewed_by')]: USERS.editor,
      [key('review_reason')]: null,
    });
  });
});
