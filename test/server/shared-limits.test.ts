/**
 * The limits of several nodes on one Redis (REDIS_URL; docs/deploy.md, Several nodes): two apps
 * built with buildApp, each its own process state and database, count in the same Redis, so
 * - the API's request limit is one limit: the (limit + 1)-th request across both nodes is refused;
 * - the sign-in throttle locks an account on both nodes after failures spread over them;
 * - the identity provider's limit per address counts requests to either node;
 * - a node whose Redis goes away keeps answering (counting in its own memory, which its log and
 *   /metrics say), as does a node started while Redis is away, and once Redis is back both nodes
 *   share one count again; a Redis that hangs without closing the connection does not hang the node.
 * The shared cases use the Redis of REDIS_URL (`.ci/run` starts Debian's redis-server when none
 * answers), each test under a key prefix of its own; the outage case starts a redis-server of its
 * own on a free port, so stopping it disturbs nobody else.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { slSecurity } from '../../src/common/i18n/sl';
import { buildApp, type BuildAppOptions } from '../../src/server/app';
import { REALM_PATH, ROUTES } from '../../src/server/idp/constants';
import { testAuthenticate, TEST_USER_HEADER, USERS } from './helpers/build-test-app';

// Apps with the demo project, scrypt for the demo accounts and a Redis started and stopped twice.
jest.setTimeout(90_000);

const REDIS_URL = process.env.REDIS_URL;
const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((file) => existsSync(file));
if (!REDIS_URL || !REDIS_SERVER) {
  // CI always has both (.ci/run); elsewhere the file says what it skipped.
  if (process.env.CI) throw new Error('shared limits: REDIS_URL and redis-server are needed under CI');
  console.warn(`shared limits skipped: ${!REDIS_URL ? 'REDIS_URL is not set' : 'redis-server is not installed'}`);
}
// The counts do not depend on the database: run once, on the SQLite pass (not again on PostgreSQL's).
const describeWithRedis = REDIS_URL && REDIS_SERVER && !process.env.DATABASE_URL ? describe : describe.skip;

const dataDir = mkdtempSync(path.join(tmpdir(), 'travnik-shared-limits-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Node {
  app: FastifyInstance;
  origin: string;
  logLines: string[];
}
const open: Node[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((node) => node.app.close()));
});

/** A key prefix of this test's own: tests never meet in Redis, nor meet a deployment's keys. */
const prefix = () => `mt-test:${process.pid}:${randomBytes(4).toString('hex')}:`;

async function startNode(options: BuildAppOptions): Promise<Node> {
  const logLines: string[] = [];
  const app = await buildApp({
    dataDir,
    database: ':memory:',
    databaseUrl: null,
    demo: true,
    metrics: { allow: ['127.0.0.1'] },
    logger: { level: 'info', stream: { write: (line: string) => logLines.push(line) } },
    ...options,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const node = { app, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, logLines };
  open.push(node);
  return node;
}

/** Two nodes on one Redis under one prefix, both counting there already. */
async function twoNodes(options: BuildAppOptions, redisUrl = REDIS_URL!): Promise<[Node, Node]> {
  const redis = { url: redisUrl, keyPrefix: prefix() };
  const nodes: [Node, Node] = [await startNode({ ...options, redis }), await startNode({ ...options, redis })];
  await Promise.all(nodes.map((node) => node.app.limitCounters.whenShared()));
  return nodes;
}

const roles = (node: Node, user: string = USERS.farmer1) => fetch(`${node.origin}/api/PublicApp/1/roles`, { headers: { [TEST_USER_HEADER]: user } });
const basic = (node: Node, password: string) =>
  fetch(`${node.origin}/api/PublicApp/1/roles`, { headers: { authorization: `Basic ${Buffer.from(`kmet1@example.si:${password}`).toString('base64')}` } });
const metric = async (node: Node, name: string) => {
  const text = await (await fetch(`${node.origin}/metrics`)).text();
  return Number(new RegExp(`^moj_travnik_${name} (\\S+)$`, 'm').exec(text)?.[1]);
};

describeWithRedis('two nodes on one Redis', () => {
  it('share one request limit: the (limit + 1)-th request across both nodes is refused, on either node', async () => {
    const [a, b] = await twoNodes({ authenticate: testAuthenticate, rateLimits: { max: 5, windowMs: 60_000 } });
    for (const node of [a, b, a, b, a]) expect((await roles(node)).status).toBe(200);
    const refused = await roles(b);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({ status: 429, message: 'Generic Error', detail: slSecurity.rateLimited(wait) });
    expect((await roles(a)).status).toBe(429);
    // Another user has a count of their own.
    expect((await roles(a, USERS.editor)).status).toBe(200);
    expect(await metric(a, 'limit_counters_shared')).toBe(1);
  });

  it('lock an account on both nodes after wrong passwords spread over them', async () => {
    const [a, b] = await twoNodes({ auth: 'basic', loginLimits: { perAccount: 3, perAddress: 100, windowMs: 60_000 } });
    for (const node of [a, b, a]) expect((await basic(node, 'narobe')).status).toBe(401);
    // Even the right password waits now, on the node that saw one failure as on the one that saw two.
    for (const node of [b, a]) {
      const blocked = await basic(node, 'demo');
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it("count the identity provider's authorization requests per address across both nodes", async () => {
    const [a, b] = await twoNodes({ auth: 'embedded', identityLimits: { perAddress: 3, perAccount: 100, windowMs: 60_000 } });
    const authorize = (node: Node) => fetch(`${node.origin}${REALM_PATH}${ROUTES.authorization}?client_id=moj-travnik-app`, { redirect: 'manual' });
    for (const node of [a, b, a]) expect((await authorize(node)).status).not.toBe(429);
    const refused = await authorize(b);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toContain(slSecurity.rateLimited(Number(refused.headers.get('retry-after'))));
  });
});

/** A redis-server of this test's own: no persistence, on `port`; resolves once it accepts connections. */
function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(REDIS_SERVER!, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
}

function stopRedis(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describeWithRedis('a node whose Redis goes away', () => {
  let redis: ChildProcess | undefined;
  afterEach(async () => {
    if (redis && redis.exitCode === null && redis.signalCode === null) await stopRedis(redis);
  });

  it('keeps answering on its own counts, says so in its log and /metrics (a node started meanwhile too), and shares the count again once Redis is back', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const [a, b] = await twoNodes({ authenticate: testAuthenticate, rateLimits: { max: 4, windowMs: 60_000 } }, `redis://127.0.0.1:${port}`);
    for (const node of [a, b]) expect((await roles(node)).status).toBe(200);

    await stopRedis(redis);
    await Promise.all([a, b].map((node) => node.app.limitCounters.whenShared(false)));
    // Still answering: each node counts in its memory now (up to the limit on each).
    for (let call = 0; call < 4; call += 1) expect((await roles(a)).status).toBe(200);
    expect((await roles(a)).status).toBe(429);
    expect((await roles(b)).status).toBe(200);
    expect(await metric(a, 'limit_counters_shared')).toBe(0);
    expect(await metric(a, 'limit_counters_redis_configured')).toBe(1);
    expect(a.logLines.some((line) => line.includes('Redis is unreachable'))).toBe(true);
    // A node started while Redis is away serves too, and says where it counts.
    const late = await startNode({
      authenticate: testAuthenticate,
      rateLimits: { max: 4, windowMs: 60_000 },
      redis: { url: `redis://127.0.0.1:${port}`, keyPrefix: prefix() },
    });
    await late.app.limitCounters.whenShared(false);
    expect((await roles(late)).status).toBe(200);
    expect(late.logLines.some((line) => line.includes('Redis is unreachable'))).toBe(true);
    expect(await metric(late, 'limit_counters_shared')).toBe(0);

    redis = await startRedis(port);
    await Promise.all([a, b].map((node) => node.app.limitCounters.whenShared(true)));
    expect(a.logLines.some((line) => line.includes('counting in Redis again'))).toBe(true);
    expect(await metric(b, 'limit_counters_shared')).toBe(1);
    // The new Redis started empty: one count for both nodes again, from zero.
    for (const node of [a, b, a, b]) expect((await roles(node)).status).toBe(200);
    expect((await roles(a)).status).toBe(429);
    expect((await roles(b)).status).toBe(429);
  });

  it('keeps answering while Redis hangs (connected, but not answering): each command gives up and counts in memory', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const [a] = await twoNodes({ authenticate: testAuthenticate, rateLimits: { max: 4, windowMs: 60_000 } }, `redis://127.0.0.1:${port}`);
    expect((await roles(a)).status).toBe(200);
    redis.kill('SIGSTOP');
    try {
      expect((await roles(a)).status).toBe(200);
      expect(a.logLines.some((line) => line.includes('Redis commands fail'))).toBe(true);
    } finally {
      redis.kill('SIGCONT');
    }
  });
});
