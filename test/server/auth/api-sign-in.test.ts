/**
 * The real app (buildApp, demo project) with the embedded provider: each demo account signs in
 * through the login page over HTTP and GET /api/PublicApp/1/roles answers with its roles; no
 * token or a bad one gets 401 from the API itself; /api/Test stays open.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from '../../../src/server/app';
import type { IdentityOptions } from '../../../src/server/auth';
import { OidcTestClient } from './oidc-client';

let app: FastifyInstance;
let origin: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'travnik-api-auth-'));
  const options: BuildAppOptions & Partial<IdentityOptions> = { dataDir, demo: true, auth: 'embedded', logger: false };
  app = await buildApp(options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const roles = (token?: string) => fetch(`${origin}/api/PublicApp/1/roles`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('roles through a real sign-in', () => {
  test.each([
    ['kmet1@example.si', { roles: [], editor: false, reader: false }],
    ['kmet2@example.si', { roles: [], editor: false, reader: false }],
    ['urednik@example.si', { roles: ['editor'], editor: true, reader: false }],
    ['bralec@example.si', { roles: ['reader'], editor: false, reader: true }],
  ])('%s', async (email, expected) => {
    const tokens = await new OidcTestClient(origin).signIn(email, 'demo');
    const response = await roles(tokens.access_token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(expected);
  });

  test('no token → 401 with the catalogue message; a garbage token → 401; /api/Test needs none', async () => {
    const none = await roles();
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ status: 401, message: 'Unauthorized' });
    expect((await roles('abc.def.ghi')).status).toBe(401);
    expect((await fetch(`${origin}/api/Test`)).status).toBe(200);
  });
});
