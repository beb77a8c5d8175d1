/**
 * /metrics and the request log on a real server (embedded sign-in, the server process's own logger
 * options, every log line captured): the demo users sign in, call the API (bulk applied and
 * deduplicated, a stale update → 409, no token → 401, a reader's write → 403, a photo upload, a
 * failed sign-in), an editor issues an activation link and the farmer sets a password there.
 * Then /metrics counts exactly that, is refused without its token, and the captured log holds a
 * route family and a role on every request line and none of the tokens, passwords or the
 * activation token. Runs on SQLite and, with DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from '../../src/server/app';
import { EnvError, readMetricsEnv } from '../../src/server/env';
import { buildTablesConfig } from '../../src/server/repositories/project-repository';
import { loggerOptions } from '../../src/server/server';
import type { TablesConfig } from '../../src/common/schemas/config';
import { jpegImage, multipart } from '../fixtures/uploads';
import { OidcTestClient } from './auth/oidc-client';
import { USERS } from './helpers/build-test-app';
import { farmerRows } from './helpers/demo-ids';

const METRICS_TOKEN = 'metrics-secret-4f1c9a7e2b';
const NEW_PASSWORD = 'Travnik-geslo-2027';
const dataDir = mkdtempSync(path.join(tmpdir(), 'mt-observe-'));
const lines: string[] = [];
const secrets: string[] = [METRICS_TOKEN, NEW_PASSWORD];

let app: FastifyInstance;
let origin: string;
let tables: TablesConfig;
const tokens = new Map<string, string>();
let photoSize = 0;

async function listen(options: BuildAppOptions): Promise<{ app: FastifyInstance; origin: string }> {
  const built = await buildApp({ dataDir, database: ':memory:', auth: 'embedded', ...options });
  await built.listen({ port: 0, host: '127.0.0.1' });
  const address = built.server.address();
  return { app: built, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

/** An API call with the user's token; `body` is sent as JSON, or as it is when it is a multipart upload. */
async function api(user: string | null, method: string, url: string, body?: unknown) {
  const upload = body as { body?: unknown; contentType?: string } | undefined;
  const raw = upload !== undefined && Buffer.isBuffer(upload.body) ? { bytes: new Uint8Array(upload.body), type: upload.contentType! } : null;
  const response = await fetch(`${origin}${url}`, {
    method,
    headers: {
      ...(user ? { authorization: `Bearer ${tokens.get(user)!}` } : {}),
      ...(body === undefined ? {} : { 'content-type': raw ? raw.type : 'application/json' }),
    },
    body: body === undefined ? undefined : raw ? raw.bytes : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, any>) : {} }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const metrics = (headers: Record<string, string> = {}, at = origin) => fetch(`${at}/metrics`, { headers });

/** The value of one sample in Prometheus text, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) return Number(line.split(' ').pop());
  }
  return undefined;
}

beforeAll(async () => {
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  ({ app, origin } = await listen({
    demo: true,
    metrics: { token: METRICS_TOKEN, allow: [] },
    logger: { ...loggerOptions({ logLevel: 'info' }), stream: capture },
  }));
  tables = await buildTablesConfig(app.db, 1);
  for (const user of [USERS.editor, USERS.reader, USERS.farmer1, USERS.farmer2]) {
    const signedIn = await new OidcTestClient(origin).signIn(user, 'demo');
    tokens.set(user, signedIn.access_token);
    secrets.push(signedIn.access_token, signedIn.refresh_token!, signedIn.id_token!);
    // A refresh puts the refresh token in a request body: it must not reach the log either.
    const refreshed = await new OidcTestClient(origin).refresh(signedIn.discovery.token_endpoint, signedIn.refresh_token!);
    expect(refreshed.status).toBe(200);
    const renewed = (await refreshed.json()) as { access_token: string; refresh_token: string };
    secrets.push(renewed.access_token, renewed.refresh_token);
    // Signing out sends the ID token in the query string.
    await fetch(`${signedIn.discovery.end_session_endpoint}?id_token_hint=${signedIn.id_token!}`, { redirect: 'manual' });
  }

  // A failed sign-in (wrong password), counted as one login failure.
  const client = new OidcTestClient(origin);
  const start = await client.startLogin();
  expect((await client.submitLogin(start.location!, USERS.editor, 'not-the-password')).status).toBe(200);

  const own = await farmerRows(app, tables, USERS.farmer1);
  const f = tables.forms;
  const insert = { opId: 'observe-1', kind: 'insert', tableId: f.id, properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: 1 } };
  expect((await api(USERS.farmer1, 'POST', '/api/Records/1/bulk', { operations: [insert] })).status).toBe(200);
  // The same operation again (a retried batch) plus a new one: one deduplicated, one applied.
  const again = await api(USERS.farmer1, 'POST', '/api/Records/1/bulk', { operations: [insert, { ...insert, opId: 'observe-2' }] });
  expect(again.body.results.map((r: { status: string }) => r.status)).toEqual(['duplicate', 'applied']);
  // A stale version: 409.
  const id = again.body.results[1].id as number;
  expect((await api(USERS.farmer1, 'PUT', `/api/Records/1/${f.id}/${id}`, { properties: { [f.columns.note]: 'x' }, version: 99 })).status).toBe(409);
  expect((await api(null, 'GET', '/api/PublicApp/1/roles')).status).toBe(401);
  expect((await api(USERS.reader, 'POST', '/api/Records/1/bulk', { operations: [{ ...insert, opId: 'observe-3' }] })).status).toBe(403);
  const own2 = await farmerRows(app, tables, USERS.farmer2);
  expect((await api(USERS.farmer2, 'GET', `/api/Features/1/${tables.areas.id}/${own2.areas[0]}`)).status).toBe(200);
  expect((await api(USERS.reader, 'GET', '/api/PublicApp/1/roles')).status).toBe(200);

  const photo = await jpegImage(120, 90);
  photoSize = photo.length;
  const parts = [
    { name: 'tableId', value: String(tables.paths.id) },
    { name: 'recordId', value: String(own.paths[0]) },
    { name: 'tableAttachmentInfoId', value: String(tables.paths.attachments!.photos!) },
    { name: 'file', file: { fileName: 'foto.jpg', contentType: 'image/jpeg', content: photo } },
  ];
  expect((await api(USERS.farmer1, 'POST', '/api/Records/1/attachment', multipart(parts))).status).toBe(201);

  // An activation link: issued by the editor, opened and used by the farmer.
  const c = tables.farmers.columns;
  const farmer = await api(USERS.editor, 'POST', '/api/Records/1', {
    tableId: tables.farmers.id,
    properties: { [c.name]: 'Mojca Log', [c.email]: 'mojca.log@example.si', [c.kmg_mid]: '400100999' },
  });
  expect(farmer.status).toBe(201);
  const issued = await api(USERS.editor, 'POST', `/api/Accounts/${farmer.body.id as number}/activation`);
  expect(issued.status).toBe(201);
  const link = issued.body.url as string;
  secrets.push(link.split('/').pop()!);
  expect((await fetch(`${link}?code=one-time-code-7788`)).status).toBe(200);
  secrets.push('one-time-code-7788');
  const set = await fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password: NEW_PASSWORD, repeat: NEW_PASSWORD }).toString(),
  });
  expect(set.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('/metrics', () => {
  it('is refused without its bearer token (401), and counts what the server did', async () => {
    expect((await metrics()).status).toBe(401);
    expect((await metrics({ authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
    const response = await metrics({ authorization: `Bearer ${METRICS_TOKEN}` });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const p = 'moj_travnik_';
    expect(sample(text, `${p}bulk_operations_total`, { result: 'applied' })).toBe(2);
    expect(sample(text, `${p}bulk_operations_total`, { result: 'deduplicated' })).toBe(1);
    expect(sample(text, `${p}conflicts_total`, { family: 'records' })).toBe(1);
    expect(sample(text, `${p}auth_refusals_total`, { family: 'roles', status: '401' })).toBe(1);
    expect(sample(text, `${p}auth_refusals_total`, { family: 'records', status: '403' })).toBe(1);
    expect(sample(text, `${p}login_failures_total`)).toBe(1);
    expect(sample(text, `${p}attachments_stored`)).toBe(1);
    expect(sample(text, `${p}attachment_bytes_stored`)).toBe(photoSize);
    expect(sample(text, `${p}http_requests_total`, { family: 'records', method: 'POST', status: '200' })).toBe(2);
    expect(sample(text, `${p}http_requests_total`, { family: 'attachments', method: 'POST', status: '201' })).toBe(1);
    expect(sample(text, `${p}http_requests_total`, { family: 'features', method: 'GET', status: '200' })).toBe(1);
    expect(sample(text, `${p}http_requests_total`, { family: 'accounts', method: 'POST', status: '201' })).toBe(1);
    expect(sample(text, `${p}http_request_duration_seconds_count`, { family: 'auth', method: 'POST' })).toBeGreaterThanOrEqual(9);
    expect(sample(text, `${p}db_connections`, { state: 'open' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, `${p}db_connections`, { state: 'busy' })).toBeGreaterThanOrEqual(0);
  });

  it('reads METRICS_TOKEN and METRICS_ALLOW, and refuses a short token or an entry that is no address', () => {
    expect(readMetricsEnv({})).toEqual({ token: undefined, allow: [] });
    expect(readMetricsEnv({ METRICS_TOKEN: ` ${METRICS_TOKEN} `, METRICS_ALLOW: '10.0.0.0/8, 127.0.0.1,::1' })).toEqual({
      token: METRICS_TOKEN,
      allow: ['10.0.0.0/8', '127.0.0.1', '::1'],
    });
    expect(() => readMetricsEnv({ METRICS_TOKEN: 'short' })).toThrow(EnvError);
    for (const bad of ['prometheus.internal', '10.0.0.0/33', '10.0.0.1/8/1'])
      expect(() => readMetricsEnv({ METRICS_ALLOW: bad })).toThrow(/METRICS_ALLOW must list IP addresses or CIDR ranges/);
  });

  it('answers an allowed address without a token, and 404 to everyone else when only an allowlist or nothing is set', async () => {
    for (const [allow, status] of [
      [['127.0.0.1'], 200],
      [['10.0.0.0/8', '::1'], 404],
      [[], 404],
    ] as const) {
      const other = await listen({ demo: false, auth: 'basic', metrics: { allow: [...allow] } });
      try {
        expect({ allow, status: (await metrics({}, other.origin)).status }).toEqual({ allow, status });
      } finally {
        await other.app.close();
      }
    }
  }, 60_000);
});

describe('request log', () => {
  it('gives every request line its route family and the caller role', () => {
    const requests = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === 'request completed');
    expect(requests.length).toBeGreaterThan(20);
    for (const entry of requests) {
      expect(typeof entry.family).toBe('string');
      expect(typeof entry.role).toBe('string');
    }
    const seen = (key: 'family' | 'role') => new Set(requests.map((entry) => entry[key]));
    expect([...seen('family')]).toEqual(expect.arrayContaining(['auth', 'records', 'features', 'attachments', 'accounts', 'roles']));
    expect([...seen('role')]).toEqual(expect.arrayContaining(['editor', 'reader', 'farmer', 'anonymous']));
    const write = requests.find((entry) => entry.family === 'attachments')!;
    expect(write).toMatchObject({ role: 'farmer', req: { method: 'POST', url: '/api/Records/1/attachment' }, res: { statusCode: 201 } });
  });

  it('holds none of the tokens, passwords or the activation token', () => {
    const log = lines.join('\n');
    expect(secrets.length).toBeGreaterThan(12);
    for (const secret of secrets) expect(log.includes(secret) ? secret : null).toBeNull();
    expect(log).not.toMatch(/password=|"password"|authorization":"Bearer/i);
    expect(log).toContain('/login-actions/activate/[redacted]?code=[redacted]');
  });
});
