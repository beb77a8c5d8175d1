/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The start-up's early reads against the real server (demo project): the season chain takes the
 * answers the early entry asked for instead of asking again (the requests are byte-for-byte the
 * same), loads the same season as without them, and keeps a row the outbox delivered after the
 * early ask (the early answer is older than the chain's read).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { startEarlyReads, type ReadsWorker } from '../../src/client/app/bootstrap/early-reads';
import { readUnderLinks, type WorkerReads } from '../../src/client/app/bootstrap/worker-reads';
import { askEarly, earlyAnswersAskedAt, earlyRequestsLeft, endEarlyAnswers, startEarlyAnswers, withEarlyAnswers } from '../../src/client/lib/api/early-answers';
import { loadSeason } from '../../src/client/features/season';
import { drainOnce, rtkQueryTransport } from '../../src/client/features/sync';
import { saveEdit } from '../../src/client/lib/db';
import { TEST_USER_HEADER, USERS } from '../server/helpers/build-test-app';
import { makeTestStore, openTestDb, settleStores, until } from './data-layer/helpers';
import { CONFIG_STORAGE_KEY, CONFIG_URL } from '../../src/client/lib/config/load-config';
import { demoFormsAsDrafts } from '../server/helpers/demo-ids';
import { startRealServer, type RealServer } from './data-layer/real-server';
import { homeSnapshotKey, readHomeSnapshot, writeHomeSnapshot } from '../../src/client/lib/home-snapshot';
import { pathsByArea } from '../../src/client/features/paths';
import { homeSeasonOf } from '../../src/client/features/home/home-season';

// A budget for a loaded shared machine (real IndexedDB emulation, a real server); nothing here asserts time.
jest.setTimeout(30_000);

let server: RealServer;
const JUNE_2025 = Date.parse('2025-06-15T10:00:00');
const TOKEN = 'token-of-the-signed-in-user';

beforeAll(async () => {
  server = await startRealServer();
  // The demo's 2025 forms are approved, so locked for their farmer; a test here changes one as the farmer.
  await demoFormsAsDrafts(server.t.app, server.t.tables);
});
beforeEach(endEarlyAnswers);
afterEach(settleStores);
afterAll(async () => {
  await server.t.close();
});

/** localStorage as the sign-in leaves it: the user and the access token. */
function signedIn(email: string): Storage {
  const items = new Map<string, string>([
    ['user', JSON.stringify({ sub: `sub-${email}`, email })],
    ['token', TOKEN],
  ]);
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
    key: (i: number) => [...items.keys()][i] ?? null,
    get length() {
      return items.size;
    },
  };
}

/** The browser's fetch as the page has it (same-origin paths), logging every request the server gets. */
function pageFetch(email: string, sent: string[]): typeof fetch {
  return async (input, init) => {
    sent.push(`${init?.method ?? 'GET'} ${String(input)} ${typeof init?.body === 'string' ? init.body : ''}`);
    const headers = new Headers(init?.headers);
    headers.set(TEST_USER_HEADER, email);
    return fetch(`${server.t.origin}${String(input)}`, { ...init, headers });
  };
}

function storeWithEarlyAnswers(email: string, sent: string[], db = openTestDb()) {
  return makeTestStore(db, withEarlyAnswers(pageFetch(email, sent)), {
    now: () => JUNE_2025,
    api: { baseUrl: '', fetchFn: withEarlyAnswers(pageFetch(email, sent)), credentials: () => ({ kind: 'bearer', token: TOKEN }) },
  });
}

const ids = (rows: Array<{ id: number }>) => rows.map((row) => row.id).sort((a, b) => a - b);

describe('early reads', () => {
  it('are taken by the season chain, which asks the server only for what they did not ask', async () => {
    const sent: string[] = [];
    await startEarlyReads(pageFetch(USERS.farmer1, sent), signedIn(USERS.farmer1), () => JUNE_2025);
    const asked = [...sent];
    const tables = server.config.tables;
    // config.json, the roles, the farmer, the durations, then areas, paths, links, then forms, then indicators and comments.
    expect(asked).toHaveLength(10);
    expect(asked.filter((request) => request.includes(`"tableId":${tables.forms.id}`))).toHaveLength(1);
    expect(asked.filter((request) => request.includes(`"tableId":${tables.indicators.id}`))).toHaveLength(1);
    expect(asked.filter((request) => request.includes(`"tableId":${tables.comments.id}`))).toHaveLength(1);

    const store = storeWithEarlyAnswers(USERS.farmer1, sent);
    const data = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    // Every request of the chain was asked early: none went to the server again.
    expect(sent.slice(asked.length)).toEqual([]);
    expect(earlyRequestsLeft()).toBe(0); // config.json was not the chain's to take: forgotten at its end

    // The same season as a load without early reads.
    const plain = await server
      .storeFor(openTestDb(), USERS.farmer1, { now: () => JUNE_2025 })
      .dispatch(loadSeason({ email: USERS.farmer1, config: server.config }))
      .unwrap();
    expect(data.source).toBe('server');
    for (const list of ['farmers', 'areas', 'paths', 'durationPaths', 'forms', 'indicators', 'comments'] as const)
      expect(ids(data[list])).toEqual(ids(plain[list]));
    expect(data.forms.length).toBeGreaterThan(0);
  });

  it('do not bring back a row the outbox delivered after they were asked', async () => {
    const db = openTestDb();
    const setup = server.storeFor(db, USERS.farmer1, { now: () => JUNE_2025 });
    const before = await setup.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    const form = before.forms[0]!;
    const note = String(server.config.tables.forms.columns.note);

    // The early entry asks (the forms as they are now), then a queued edit of a form is delivered.
    const sent: string[] = [];
    await startEarlyReads(pageFetch(USERS.farmer1, sent), signedIn(USERS.farmer1), () => JUNE_2025);
    await saveEdit(db, {
      kind: 'update',
      projectId: server.config.projectId,
      tableId: form.tableId,
      id: form.id,
      properties: { [note]: 'popravljeno po zgodnjem branju' },
    });
    expect(await drainOnce({ db, transport: rtkQueryTransport(setup.dispatch) })).toMatchObject({ kind: 'done', sent: 1 });

    const store = storeWithEarlyAnswers(USERS.farmer1, sent, db);
    const data = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    expect(sent.filter((request) => request.includes(`"tableId":${form.tableId}`))).toHaveLength(1); // the early answer was taken
    const shown = data.forms.find((row) => row.id === form.id)!;
    expect(shown.properties[note]).toBe('popravljeno po zgodnjem branju');
    expect(shown.version).toBe(form.version + 1);
  });

  it('are sent from the device’s copy of config.json without waiting for its answer', async () => {
    const sent: string[] = [];
    const storage = signedIn(USERS.farmer1);
    storage.setItem(CONFIG_STORAGE_KEY, JSON.stringify(server.config));
    let releaseConfig!: () => void;
    const configHeld = new Promise<void>((resolve) => (releaseConfig = resolve));
    const fetchFn = pageFetch(USERS.farmer1, sent);
    const holdingConfig: typeof fetch = async (input, init) => {
      if (String(input) === CONFIG_URL) await configHeld;
      return fetchFn(input, init);
    };
    const reading = startEarlyReads(holdingConfig, storage, () => JUNE_2025);
    // Roles, the farmer and the durations, then areas, paths and links: all before config.json is answered.
    await until(() => sent.filter((request) => request.includes('/search')).length >= 5, 'the season’s searches sent while config.json waits');
    expect(sent.some((request) => request.includes('/roles'))).toBe(true);
    releaseConfig();
    await reading;

    const store = storeWithEarlyAnswers(USERS.farmer1, sent);
    const before = sent.length;
    await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    expect(sent.slice(before)).toEqual([]);
  });

  it('hand the forms and what is under them to a worker, whose answers the chain takes as the page’s own', async () => {
    const sent: string[] = [];
    const fetchFn = pageFetch(USERS.farmer1, sent);
    let worked: Promise<void> | null = null;
    // The worker's own code in this process; its messages come a task later, as a worker's do.
    const worker: ReadsWorker = {
      onmessage: null,
      postMessage(reads: WorkerReads) {
        worked = readUnderLinks(reads, (data) => setTimeout(() => worker.onmessage?.(new MessageEvent('message', { data }))), fetchFn);
      },
      terminate: () => undefined,
    };
    await startEarlyReads(
      fetchFn,
      signedIn(USERS.farmer1),
      () => JUNE_2025,
      () => worker,
    );
    expect(worked).not.toBeNull();
    await worked;
    // config.json, the roles, the farmer, the durations, areas, paths, links; then the worker's forms, indicators and comments.
    expect(sent).toHaveLength(10);
    const asked = sent.length;

    const store = storeWithEarlyAnswers(USERS.farmer1, sent);
    const data = await store.dispatch(loadSeason({ email: USERS.farmer1, config: server.config })).unwrap();
    expect(sent.slice(asked)).toEqual([]);
    expect(data.indicators.length).toBeGreaterThan(0);
    expect(earlyRequestsLeft()).toBe(0);
  });

  it('stop a worker they did not hand anything to', async () => {
    const sent: string[] = [];
    let stopped = false;
    const worker: ReadsWorker = { onmessage: null, postMessage: () => undefined, terminate: () => void (stopped = true) };
    await startEarlyReads(
      pageFetch(USERS.stranger, sent),
      signedIn(USERS.stranger),
      () => JUNE_2025,
      () => worker,
    );
    expect(stopped).toBe(true);
  });

  it("keep a first visit's picture of the farmer's home, the meadows and paths as home lists them, unless the device has one", async () => {
    const storage = signedIn(USERS.farmer1);
    const key = homeSnapshotKey(server.config.projectId, USERS.farmer1);
    await startEarlyReads(pageFetch(USERS.farmer1, []), storage, () => JUNE_2025);
    await until(() => readHomeSnapshot(storage, key) !== null, 'the picture kept');
    const picture = readHomeSnapshot(storage, key)!;

    const data = await server
      .storeFor(openTestDb(), USERS.farmer1, { now: () => JUNE_2025 })
      .dispatch(loadSeason({ email: USERS.farmer1, config: server.config }))
      .unwrap();
    const home = pathsByArea(data, server.config);
    expect(picture.areas.map((area) => [area.id, area.name, area.paths.map((path) => [path.id, path.name, path.lengthM])])).toEqual(
      home.map((area) => [area.id, area.name, area.paths.map((path) => [path.id, path.name, path.lengthM])]),
    );
    expect(picture.areas.flatMap((area) => area.paths).length).toBeGreaterThan(0);
    // The forms come later: no status or score yet.
    expect(picture.areas.flatMap((area) => area.paths.map((path) => [path.status, path.score]))).toEqual(
      picture.areas.flatMap((area) => area.paths.map(() => [null, null])),
    );
    expect(picture.season).toEqual(homeSeasonOf(server.config, data.duration!));
    expect(picture.html).toBe('');

    // A device with this user's picture keeps its own.
    const kept = { ...picture, html: '<p>doma</p>' };
    writeHomeSnapshot(storage, kept);
    endEarlyAnswers();
    const sent: string[] = [];
    await startEarlyReads(pageFetch(USERS.farmer1, sent), storage, () => JUNE_2025);
    await until(() => sent.filter((request) => request.includes('/search')).length >= 5, 'the areas and paths asked again');
    await settleStores();
    expect(readHomeSnapshot(storage, key)).toEqual(kept);
  });

  it('ask nothing without a signed-in user, and nothing past the first answers for a user without a farmer record', async () => {
    const sent: string[] = [];
    const tokenOnly = signedIn(USERS.farmer1);
    tokenOnly.removeItem('user');
    await startEarlyReads(pageFetch(USERS.farmer1, sent), tokenOnly, () => JUNE_2025);
    expect(sent).toEqual([]);

    await startEarlyReads(pageFetch(USERS.stranger, sent), signedIn(USERS.stranger), () => JUNE_2025);
    expect(sent.some((request) => request.includes(`"tableId":${server.config.tables.areas.id}`))).toBe(false);
  });
});

describe('withEarlyAnswers', () => {
  const answer = (status: number, body: string) => new Response(body, { status, headers: { 'content-type': 'application/json' } });

  it('answers an identical request once; a different token, body or a failed early answer goes to the network', async () => {
    const network: string[] = [];
    let status = 200;
    const fetchFn: typeof fetch = async (input, init) => {
      network.push(`${String(input)} ${typeof init?.body === 'string' ? init.body : ''}`);
      return answer(status, JSON.stringify({ n: network.length }));
    };
    const headers = { Authorization: 'Bearer a' };
    startEarlyAnswers();
    expect(await askEarly(fetchFn, '/api/x', { method: 'POST', headers, body: '{"page":1}' })).toEqual({ n: 1 });
    const page = withEarlyAnswers(fetchFn);

    expect(await (await page('/api/x', { method: 'POST', headers: { Authorization: 'Bearer b' }, body: '{"page":1}' })).json()).toEqual({ n: 2 });
    expect(await (await page('/api/x', { method: 'POST', headers, body: '{"page":2}' })).json()).toEqual({ n: 3 });
    expect(await (await page('/api/x', { method: 'POST', headers, body: '{"page":1}' })).json()).toEqual({ n: 1 }); // the early answer
    expect(await (await page('/api/x', { method: 'POST', headers, body: '{"page":1}' })).json()).toEqual({ n: 4 }); // once only

    status = 401;
    expect(await askEarly(fetchFn, '/api/y', { headers })).toBeNull();
    status = 200;
    const retried = await page('/api/y', { headers });
    expect(retried.status).toBe(200);
    expect(network).toHaveLength(6);
    expect(earlyRequestsLeft()).toBe(0);
  });

  it('serves a renewed token of the same user, not a token of another user or issuer', async () => {
    const network: string[] = [];
    const fetchFn: typeof fetch = async (input) => {
      network.push(String(input));
      return answer(200, JSON.stringify({ n: network.length }));
    };
    const jwt = (claims: Record<string, unknown>) => `Bearer e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.signature`;
    const issuer = 'https://travnik.example/auth/realms/moj-travnik';
    startEarlyAnswers();
    await askEarly(fetchFn, '/api/x', { headers: { Authorization: jwt({ iss: issuer, sub: 'kmet-1', exp: 100 }) } });
    await askEarly(fetchFn, '/api/y', { headers: { Authorization: jwt({ iss: issuer, sub: 'kmet-1', exp: 100 }) } });
    await askEarly(fetchFn, '/api/z', { headers: { Authorization: jwt({ iss: issuer, sub: 'kmet-1', exp: 100 }) } });
    const page = withEarlyAnswers(fetchFn);

    // The session renewed the token while the scripts started: same issuer and subject.
    expect(await (await page('/api/x', { headers: { Authorization: jwt({ iss: issuer, sub: 'kmet-1', exp: 400 }) } })).json()).toEqual({ n: 1 });
    expect(await (await page('/api/y', { headers: { Authorization: jwt({ iss: issuer, sub: 'kmet-2', exp: 400 }) } })).json()).toEqual({ n: 4 });
    expect(await (await page('/api/z', { headers: { Authorization: jwt({ iss: 'https://drug.example', sub: 'kmet-1', exp: 400 }) } })).json()).toEqual({
      n: 5,
    });
    expect(network).toEqual(['/api/x', '/api/y', '/api/z', '/api/y', '/api/z']);
  });

  it('asks nothing once the start-up is over: a wave still under way then leaves no answer for a later read', async () => {
    const network: string[] = [];
    const fetchFn: typeof fetch = async (input) => {
      network.push(String(input));
      return answer(200, JSON.stringify({ n: network.length }));
    };
    const headers = { Authorization: 'Bearer a' };
    startEarlyAnswers();
    const first = askEarly(fetchFn, '/api/x', { headers });
    endEarlyAnswers(); // the loading chain ended before taking it
    expect(await first).toEqual({ n: 1 });
    expect(await askEarly(fetchFn, '/api/y', { headers })).toBeNull(); // the next wave
    expect(network).toEqual(['/api/x']);
    expect(earlyRequestsLeft()).toBe(0);
    expect(earlyAnswersAskedAt()).toBeUndefined();
    // A later read of the same thing goes to the server.
    expect(await (await withEarlyAnswers(fetchFn)('/api/x', { headers })).json()).toEqual({ n: 2 });
  });
});
