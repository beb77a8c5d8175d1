/**
 * Stateless API nodes (docs/deploy.md): two apps (node A and node B, each its own buildApp on its own
 * port) on one database, behind a tiny reverse proxy whose routing the test steers. With
 * DATABASE_URL they share one PostgreSQL schema; without it they share one SQLite file (WAL,
 * two connections), so the same properties are checked on both databases:
 * - a sign-in started on A (authorization request, login page) completes on B (form post,
 *   code exchange), and both nodes accept the tokens: keys, cookies, interactions, codes, grants
 *   and refresh tokens live in the database;
 * - a write sent to A with an Idempotency-Key whose response was lost, retried on B → applied once
 *   and B replays A's answer; the same for a bulk batch (opId dedup), and for the same request
 *   racing on both nodes at once (PostgreSQL only: SQLite serialises writers on its file lock).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/server/app';
import { buildTablesConfig } from '../../src/server/repositories/project-repository';
import type { TablesConfig } from '../../src/common/schemas/config';
import { OidcTestClient, type TokenSet } from './auth/oidc-client';

const DATABASE_URL = process.env.DATABASE_URL;
const onPostgres = Boolean(DATABASE_URL);
const schema = `mt_scale_${process.pid}_${randomBytes(3).toString('hex')}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'travnik-scale-'));

type NodeName = 'A' | 'B';
const nodes: Record<NodeName, { app: FastifyInstance; origin: string }> = {} as never;
let route: NodeName = 'A';
const seen: NodeName[] = [];
let proxy: Server;
let publicOrigin: string;
let tables: TablesConfig;

/** The reverse proxy: forwards each request to the node `route` names, as nginx would to an upstream. */
function startProxy(): Promise<string> {
  proxy = createServer((req, res) => {
    const target = new URL(nodes[route].origin);
    seen.push(route);
    const forward = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (upstream) => {
      res.writeHead(upstream.statusCode ?? 502, upstream.headers);
      upstream.pipe(res);
    });
    forward.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  return new Promise((resolve) => {
    proxy.listen(0, '127.0.0.1', () => {
      const address = proxy.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    });
  });
}

async function startNode(): Promise<{ app: FastifyInstance; origin: string }> {
  const app = await buildApp({
    dataDir,
    ...(onPostgres ? { database: 'unused', databaseUrl: DATABASE_URL, databaseSchema: schema } : { database: 'shared.sqlite', databaseUrl: null }),
    demo: true,
    auth: 'embedded',
    publicUrl: publicOrigin,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return { app, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

beforeAll(async () => {
  publicOrigin = await startProxy();
  // One after the other, as a rolling start does: the first migrates and loads the demo project.
  nodes.A = await startNode();
  nodes.B = await startNode();
  tables = await buildTablesConfig(nodes.A.app.db, 1);
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await nodes.A?.app.close();
  await nodes.B?.app.close();
  if (onPostgres) {
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** A request through the proxy to the given node. */
async function via(node: NodeName, url: string, init: RequestInit = {}): Promise<Response> {
  route = node;
  return fetch(`${publicOrigin}${url}`, init);
}

describe('sign-in across nodes', () => {
  let client: OidcTestClient;
  let tokens: TokenSet & { discovery: { token_endpoint: string } };
  let flow: NodeName[] = [];

  beforeAll(async () => {
    client = new OidcTestClient(publicOrigin);
    seen.length = 0;
    route = 'A';
    const start = await client.startLogin();
    expect(start.location).toBeDefined();
    // The login page is served by A; the rest of the flow goes to B.
    const page = await client.fetch(start.location!);
    expect(page.status).toBe(200);
    route = 'B';
    const login = await client.submitLogin(start.location!, 'kmet1@example.si', 'demo');
    expect(login.status).toBe(303);
    const back = await client.followToApp(new URL(login.headers.get('location')!, publicOrigin).href, start.redirectUri);
    const code = back.searchParams.get('code');
    expect(code).toEqual(expect.any(String));
    const exchanged = await client.exchangeCode(start.discovery.token_endpoint, code!, start.verifier, start.redirectUri);
    expect(exchanged.status).toBe(200);
    tokens = { ...((await exchanged.json()) as TokenSet), discovery: start.discovery };
    flow = [...seen];
  });

  it('was served by A first and completed by B', () => {
    // Discovery, authorization request and login page on A; form post, redirects and code exchange on B.
    const switchAt = flow.indexOf('B');
    expect(switchAt).toBeGreaterThanOrEqual(3);
    expect(flow.slice(0, switchAt).every((n) => n === 'A')).toBe(true);
    expect(flow.slice(switchAt).every((n) => n === 'B')).toBe(true);
    expect(flow.length - switchAt).toBeGreaterThanOrEqual(3);
  });

  it('gives tokens both nodes accept, and a refresh token either node redeems', async () => {
    for (const node of ['A', 'B'] as const) {
      const roles = await via(node, '/api/PublicApp/1/roles', { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(roles.status).toBe(200);
    }
    route = 'A';
    const refreshed = await client.refresh(tokens.discovery.token_endpoint, tokens.refresh_token!);
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as TokenSet;
    route = 'B';
    const again = await client.refresh(tokens.discovery.token_endpoint, next.refresh_token!);
    expect(again.status).toBe(200);
    tokens = { ...tokens, ...((await again.json()) as TokenSet) };
  });

  describe('writes retried on the other node', () => {
    const post = (node: NodeName, url: string, body: unknown, key: string) =>
      via(node, url, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      });

    async function formsOf(parent: number): Promise<number> {
      const rows = await nodes.A.app.db.selectFrom('records').select(['properties']).where('table_id', '=', tables.forms.id).where('deleted', '=', 0).execute();
      return rows.filter((r) => (JSON.parse(r.properties) as Record<string, unknown>)[String(tables.forms.columns.parent)] === parent).length;
    }

    async function ownDurationPath(): Promise<number> {
      const search = await via('A', '/api/Records/1/search', {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tableId: tables.durationPaths.id, page: 1, perPage: 1 }),
      });
      expect(search.status).toBe(200);
      return ((await search.json()) as { records: Array<{ id: number }> }).records[0]!.id;
    }

    it("a POST sent to A whose response was lost, retried on B, applies once and B replays A's answer", async () => {
      const parent = await ownDurationPath();
      const before = await formsOf(parent);
      const body = { tableId: tables.forms.id, properties: { [tables.forms.columns.parent]: parent, [tables.forms.columns.form_id]: 1 } };
      const key = `scale-${randomBytes(6).toString('hex')}`;
      const first = await post('A', '/api/Records/1', body, key);
      expect(first.status).toBe(201);
      const created = (await first.json()) as { id: number };
      const retry = await post('B', '/api/Records/1', body, key);
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(((await retry.json()) as { id: number }).id).toBe(created.id);
      expect(await formsOf(parent)).toBe(before + 1);
    });

    it('a bulk batch retried on B after A applied it reports duplicates and applies nothing twice', async () => {
      const parent = await ownDurationPath();
      const before = await formsOf(parent);
      const opId = `op-${randomBytes(6).toString('hex')}`;
      const operations = [
        {
          opId,
          kind: 'insert',
          tableId: tables.forms.id,
          localId: 4711,
          properties: { [tables.forms.columns.parent]: parent, [tables.forms.columns.form_id]: 2 },
        },
      ];
      const first = await post('A', '/api/Records/1/bulk', { operations }, `bulk-${opId}`);
      expect(first.status).toBe(200);
      // Recomposed retry under a new key on the other node: the per-operation dedup decides.
      const retry = await post('B', '/api/Records/1/bulk', { operations }, `bulk2-${opId}`);
      expect(retry.status).toBe(200);
      const results = ((await retry.json()) as { results: Array<{ status: string; id: number }> }).results;
      expect(results[0]).toMatchObject({ status: 'duplicate', id: ((await first.json()) as { results: Array<{ id: number }> }).results[0]!.id });
      expect(await formsOf(parent)).toBe(before + 1);
    });

    (onPostgres ? it : it.skip)('the same request racing on A and B at once applies once, both answer the same record', async () => {
      const parent = await ownDurationPath();
      const before = await formsOf(parent);
      const body = { tableId: tables.forms.id, properties: { [tables.forms.columns.parent]: parent, [tables.forms.columns.form_id]: 1 } };
      const key = `race-${randomBytes(6).toString('hex')}`;
      // Straight to the nodes (the proxy routes one way at a time).
      const send = (origin: string) =>
        fetch(`${origin}/api/Records/1`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify(body),
        });
      const [a, b] = await Promise.all([send(nodes.A.origin), send(nodes.B.origin)]);
      expect([a.status, b.status]).toEqual([201, 201]);
      const [ra, rb] = (await Promise.all([a.json(), b.json()])) as Array<{ id: number }>;
      expect(ra!.id).toBe(rb!.id);
      expect([a.headers.get('idempotent-replayed'), b.headers.get('idempotent-replayed')].filter((h) => h === 'true')).toHaveLength(1);
      expect(await formsOf(parent)).toBe(before + 1);
    });
  });
});
