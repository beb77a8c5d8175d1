/**
 * The real Fastify server (buildApp, in-memory SQLite, demo project) on an ephemeral port,
 * and client stores that talk to it over real HTTP as a given demo user, with hooks to drop a
 * request before it reaches the server or its response after the server committed, and to hold
 * a request or an answer.
 */
import { buildTestApp, TEST_USER_HEADER, USERS, type TestApp } from '../../server/helpers/build-test-app';
import type { AppConfig } from '../../../src/common/schemas/config';
import type { OfflineDb } from '../../../src/client/lib/db';
import type { AppExtra } from '../../../src/client/app/store-types';
import { makeTestStore } from './helpers';

type Fault = 'drop-before' | 'drop-after' | undefined;

export interface RealServer {
  t: TestApp;
  config: AppConfig;
  /** Decides per request (url, method, body) whether to inject a fault. */
  fault: (url: string, init: RequestInit | undefined) => Fault;
  /** Holds a request until the returned promise settles (to interleave two flows at a known point). */
  gate: (url: string, init: RequestInit | undefined) => Promise<void> | undefined;
  /** Holds an answer the server has given from the client until the returned promise settles (an answer older than what the client does meanwhile). */
  holdAnswer: (url: string, init: RequestInit | undefined) => Promise<void> | undefined;
  requests: Array<{ url: string; method: string }>;
  storeFor(db: OfflineDb, email: string, extra?: Partial<AppExtra>): ReturnType<typeof makeTestStore>;
}

export async function startRealServer(): Promise<RealServer> {
  const t = await buildTestApp();
  const configResponse = await fetch(`${t.origin}/config.json`);
  const config = (await configResponse.json()) as AppConfig;
  const server: RealServer = {
    t,
    config,
    fault: () => undefined,
    gate: () => undefined,
    holdAnswer: () => undefined,
    requests: [],
    storeFor(db, email, extra = {}) {
      const fetchAs: typeof fetch = async (input, init) => {
        const url = String(input);
        server.requests.push({ url, method: init?.method ?? 'GET' });
        await server.gate(url, init);
        const fault = server.fault(url, init);
        if (fault === 'drop-before') throw new TypeError('fetch failed (connection dropped before the server got it)');
        const headers = new Headers(init?.headers);
        headers.set(TEST_USER_HEADER, email);
        const answer = await fetch(input, { ...init, headers });
        if (fault === 'drop-after') {
          await answer.arrayBuffer(); // the server committed and answered; the answer is lost
          throw new TypeError('fetch failed (connection dropped after the server answered)');
        }
        const holding = server.holdAnswer(url, init);
        if (!holding) return answer;
        const body = await answer.arrayBuffer(); // the whole answer, given before the hold
        await holding;
        return new Response(body, { status: answer.status, headers: answer.headers });
      };
      return makeTestStore(db, fetchAs, extra, t.origin);
    },
  };
  return server;
}

/**
 * Runs `check` while the editor has archived row `id` of `table`, and restores the row afterwards
 * whatever `check` did: a file's tests share one server, and the others read its rows as they were.
 */
export async function whileArchived(server: RealServer, table: keyof AppConfig['tables'], id: number, check: () => Promise<void>): Promise<void> {
  const archive = async (archived: boolean) => {
    const answer = await server.t.as(USERS.editor, {
      method: 'POST',
      url: `/api/Records/${server.config.projectId}/archive`,
      payload: { tableId: server.config.tables[table].id, ids: [id], archived },
    });
    if (answer.statusCode !== 200) throw new Error(`archiving ${table} ${id} (${archived}) answered ${answer.statusCode}`);
  };
  await archive(true);
  try {
    await check();
  } finally {
    await archive(false);
  }
}

/**
 * Holds the server's answers to every search from now on until `release` (the reads are sent and
 * answered; their answers reach the client once released). `asked` settles at the first one held.
 * The caller puts `server.holdAnswer` back when done.
 */
export function holdSearchAnswers(server: RealServer): { release: () => void; asked: Promise<void> } {
  let release!: () => void;
  let asked!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const first = new Promise<void>((resolve) => (asked = resolve));
  server.holdAnswer = (url) => {
    if (!url.includes('/search')) return undefined;
    asked();
    return released;
  };
  return { release, asked: first };
}
