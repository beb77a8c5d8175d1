/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The replay's network: requests are answered from the log's HTTP exchanges, matched by method,
 * path and body (then by method and path alone), in the order they were logged; anything not
 * in the log fails like a dropped connection, and nothing reaches a real server.
 */
import { describe, expect, it } from '@jest/globals';
import { RecordedFetch, type NetEntry } from '../../../src/client/features/qa';

const net = (seq: number, partial: Partial<NetEntry>): NetEntry => ({
  kind: 'net',
  seq,
  t: seq,
  method: 'POST',
  url: '/api/Records/1/search',
  status: 200,
  responseType: 'json',
  ...partial,
});

describe('RecordedFetch', () => {
  const entries = [
    net(1, { requestBody: { tableId: 2, page: 1 }, responseBody: { records: ['areas'], totalCount: 1 } }),
    net(2, { requestBody: { tableId: 3, page: 1 }, responseBody: { records: ['paths-1'], totalCount: 1 } }),
    net(3, { requestBody: { tableId: 3, page: 1 }, responseBody: { records: ['paths-2'], totalCount: 1 } }),
    net(4, { method: 'GET', url: '/api/Test', responseType: 'text', responseBody: 'OK' }),
    net(5, {
      method: 'POST',
      url: '/api/Records/1/bulk',
      requestBody: { operations: [{ opId: 'a' }] },
      status: 401,
      responseBody: { status: 401, message: 'Unauthorized' },
    }),
    net(6, { method: 'GET', url: '/api/PublicApp/1/roles', status: 0, responseType: 'none', error: 'TypeError: fetch failed' }),
  ];

  it('answers by body, repeated requests in logged order, from any origin', async () => {
    const recorded = new RecordedFetch(entries);
    const ask = async (body: unknown) =>
      (await recorded.fetch('http://anywhere.test/api/Records/1/search', { method: 'POST', body: JSON.stringify(body) })).json();
    await expect(ask({ page: 1, tableId: 3 })).resolves.toEqual({ records: ['paths-1'], totalCount: 1 });
    await expect(ask({ tableId: 3, page: 1 })).resolves.toEqual({ records: ['paths-2'], totalCount: 1 });
    await expect(ask({ tableId: 2, page: 1 })).resolves.toEqual({ records: ['areas'], totalCount: 1 });
    const probe = await recorded.fetch('/api/Test');
    expect(probe.status).toBe(200);
    await expect(probe.text()).resolves.toBe('OK');
    expect(recorded.answered).toBe(4);
  });

  it('falls back to method and path when the body differs (fresh random ids), keeping the status', async () => {
    const recorded = new RecordedFetch(entries);
    const answer = await recorded.fetch('/api/Records/1/bulk', { method: 'POST', body: JSON.stringify({ operations: [{ opId: 'new-random-id' }] }) });
    expect(answer.status).toBe(401);
    await expect(answer.json()).resolves.toMatchObject({ message: 'Unauthorized' });
  });

  it('fails like the network for a logged failure and for anything not in the log', async () => {
    const recorded = new RecordedFetch(entries);
    await expect(recorded.fetch('/api/PublicApp/1/roles')).rejects.toThrow(TypeError);
    await expect(recorded.fetch('/api/Records/1/7', { method: 'PUT', body: '{}' })).rejects.toThrow(/no recorded answer for PUT \/api\/Records\/1\/7/);
    expect(recorded.unanswered).toEqual(['PUT /api/Records/1/7']);
  });
});
