/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The drain's bulk calls are RTK Query mutations run untracked: no reducer keeps their arguments
 * or answers. Their action entries leave both out — the HTTP exchange logged beside them holds the
 * request and the answer, which a replay answers from — so a 500-operation call's operations are
 * written once, not again in each of its two actions. The log still replays to the same state.
 */
import { afterEach, expect, test } from '@jest/globals';
import { ActionLogRecorder, MemoryLogSink, replayActionLog, withActionLogHandler, type LogEntry } from '../../../src/client/features/qa';
import { rtkQueryTransport } from '../../../src/client/features/sync/transport';
import { makeStore } from '../../../src/client/app/store';
import { FakeBulkServer, makeTestStore, openTestDb, settleStores, until } from '../data-layer/helpers';

afterEach(settleStores);

const operations = [
  { opId: 'op-1', kind: 'insert' as const, tableId: 6, properties: { '65': 'prvi' }, localId: 11 },
  { opId: 'op-2', kind: 'insert' as const, tableId: 6, properties: { '65': 'drugi' }, localId: 12 },
];

test("an untracked mutation's actions leave its arguments and answer to its exchange; the log replays", async () => {
  const server = new FakeBulkServer();
  // A whole Response (the stand-in's answers cannot be cloned, and the log reads a clone).
  const serverFetch: typeof fetch = async (input, init) => {
    const answer = await server.fetch(input, init);
    return new Response(await answer.text(), { status: answer.status, headers: { 'content-type': 'application/json' } });
  };
  const sink = new MemoryLogSink(1000);
  const recorder = new ActionLogRecorder({ sink });
  const store = withActionLogHandler(recorder, () => makeTestStore(openTestDb(), recorder.wrapFetch(serverFetch)));

  const answer = await rtkQueryTransport(store.dispatch).bulk('Records', 1, operations);
  expect(answer).toMatchObject({
    data: {
      results: [
        { opId: 'op-1', status: 'applied' },
        { opId: 'op-2', status: 'applied' },
      ],
    },
  });
  // The exchange is logged once its answer's copy has been read, a few turns after the call.
  let entries: LogEntry[] = [];
  await until(async () => {
    await recorder.flush();
    entries = await sink.readAll();
    return entries.some((entry) => entry.kind === 'net' && entry.url === '/api/Records/1/bulk');
  }, 'the exchange logged');

  const mutation = entries.filter((entry) => entry.kind === 'action' && entry.type.startsWith('api/executeMutation/'));
  expect(mutation.map((entry) => entry.kind === 'action' && entry.type)).toEqual(['api/executeMutation/pending', 'api/executeMutation/fulfilled']);
  for (const entry of mutation) {
    const text = JSON.stringify(entry);
    expect(text).not.toContain('op-1');
    expect(text).toContain('bulkRecords');
  }
  const exchange = entries.find((entry) => entry.kind === 'net' && entry.url === '/api/Records/1/bulk');
  expect(JSON.stringify(exchange && exchange.kind === 'net' && exchange.requestBody)).toContain('op-1');
  expect(JSON.stringify(exchange && exchange.kind === 'net' && exchange.responseBody)).toContain('op-2');

  const replay = await replayActionLog({ entries }, { createStore: () => makeStore(undefined, { extra: { db: openTestDb() } }) });
  expect(replay.divergence).toBeNull();
});
