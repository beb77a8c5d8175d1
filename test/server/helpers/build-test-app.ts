/**
 * Builds a fresh app on an in-memory database with the demo project for each test file. The
 * test Authenticate trusts the `x-test-user: <email>` header: it exists only here, passed in
 * through buildApp's `authenticate` option, never in production code paths. Real token checks
 * are in test/server/auth.
 *
 * Requests go over real HTTP on 127.0.0.1 (port 0) rather than app.inject: inject loads the
 * ESM-only `cookie` package, which jest's CommonJS require cannot load on Node 20.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { buildApp, type BuildAppOptions } from '../../../src/server/app';
import type { Principal } from '../../../src/server/auth/principal';
import { buildTablesConfig } from '../../../src/server/repositories/project-repository';
import type { TablesConfig } from '../../../src/common/schemas/config';

export const TEST_USER_HEADER = 'x-test-user';

export async function testAuthenticate(request: FastifyRequest): Promise<Principal | null> {
  const email = request.headers[TEST_USER_HEADER];
  if (typeof email !== 'string' || !email) return null;
  return { subject: `test|${email}`, email, via: 'token' };
}

export const USERS = {
  farmer1: 'kmet1@example.si',
  farmer2: 'kmet2@example.si',
  editor: 'urednik@example.si',
  reader: 'bralec@example.si',
  stranger: 'neznanec@example.si',
} as const;

interface RequestOptions {
  method: string;
  url: string;
  /** An object is sent as JSON; a string is sent as it is (content-type JSON unless given). */
  payload?: unknown;
  headers?: Record<string, string>;
}

export interface TestResponse {
  statusCode: number;
  headers: Headers;
  body: string;
  json<T = any>(): T; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface TestApp {
  app: FastifyInstance;
  origin: string;
  tables: TablesConfig;
  /** A request as `user` (an e-mail; null = no credentials). */
  as(user: string | null, options: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

async function send(origin: string, user: string | null, options: RequestOptions): Promise<TestResponse> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (user) headers[TEST_USER_HEADER] = user;
  let body: string | undefined;
  if (options.payload !== undefined) {
    body = typeof options.payload === 'string' ? options.payload : JSON.stringify(options.payload);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${origin}${options.url}`, { method: options.method, headers, body });
  const text = await response.text();
  return { statusCode: response.status, headers: response.headers, body: text, json: () => JSON.parse(text) };
}

export async function buildTestApp(options: BuildAppOptions = {}): Promise<TestApp> {
  const app = await buildApp({ database: ':memory:', dataDir: 'data-test-unused', demo: true, authenticate: testAuthenticate, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('test app did not listen');
  const origin = `http://127.0.0.1:${address.port}`;
  const tables = await buildTablesConfig(app.db, 1);
  return {
    app,
    origin,
    tables,
    as: (user, options) => send(origin, user, options),
    close: () => app.close(),
  };
}

/** Number of rows of each mutable table: "nothing changed" assertions compare two snapshots. */
export async function snapshot(app: FastifyInstance): Promise<string> {
  const records = await app.db.selectFrom('records').select(['id', 'version', 'deleted', 'archived', 'properties', 'geometry']).orderBy('id').execute();
  const history = await app.db
    .selectFrom('record_history')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const ops = await app.db
    .selectFrom('applied_ops')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const keys = await app.db
    .selectFrom('idempotency_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return JSON.stringify({ records, history: history.n, ops: ops.n, keys: keys.n });
}
