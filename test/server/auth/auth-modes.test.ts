/**
 * The other AUTH modes and the production guards: basic credentials against the users table,
 * `none` for a local demo, and a production server that refuses demo accounts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { buildIdentityApp, type IdentityApp } from './identity-app';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

async function whoami(ctx: IdentityApp, authorization?: string) {
  const response = await fetch(`${ctx.origin}/api/whoami`, { headers: authorization ? { authorization } : {} });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('AUTH=basic', () => {
  let ctx: IdentityApp;
  beforeAll(async () => {
    ctx = await buildIdentityApp({ listen: true, auth: 'basic' });
  });
  afterAll(async () => ctx.close());

  test('right e-mail and password → 200 as that user', async () => {
    const { status, body } = await whoami(ctx, basic('urednik@example.si', 'demo'));
    expect(status).toBe(200);
    expect(body).toMatchObject({ email: 'urednik@example.si', via: 'basic' });
    // Answered from the short cache the second time; same answer.
    expect((await whoami(ctx, basic('urednik@example.si', 'demo'))).status).toBe(200);
  });

  test('wrong password, unknown user, a bearer token, malformed header → 401', async () => {
    expect((await whoami(ctx, basic('urednik@example.si', 'wrong'))).status).toBe(401);
    expect((await whoami(ctx, basic('nobody@example.si', 'demo'))).status).toBe(401);
    expect((await whoami(ctx, 'Bearer abc.def.ghi')).status).toBe(401);
    expect((await whoami(ctx, 'Basic')).status).toBe(401);
    expect((await whoami(ctx, `Basic ${Buffer.from('no-colon').toString('base64')}`)).status).toBe(401);
  });

  test('no credentials → no principal (401 from the route)', async () => {
    expect((await whoami(ctx)).status).toBe(401);
  });

  test('no identity provider is mounted in basic mode', async () => {
    const response = await fetch(`${ctx.origin}/auth/realms/moj-travnik/.well-known/openid-configuration`);
    expect(response.status).toBe(404);
  });
});

describe('AUTH=none', () => {
  let ctx: IdentityApp;
  beforeAll(async () => {
    ctx = await buildIdentityApp({ listen: true, auth: 'none' });
  });
  afterAll(async () => ctx.close());

  test('a request from this machine is the demo farmer', async () => {
    const { status, body } = await whoami(ctx);
    expect(status).toBe(200);
    expect(body).toMatchObject({ email: 'kmet1@example.si', via: 'none' });
  });

  test('is refused in production', async () => {
    await expect(buildIdentityApp({ auth: 'none', production: true, demo: false })).rejects.toThrow(/AUTH=none/);
  });
});

describe('production refuses demo accounts', () => {
  test('asking for demo mode in production fails at start', async () => {
    await expect(buildIdentityApp({ production: true, demo: true })).rejects.toThrow(/DEMO=false/);
  });

  test('a database that holds demo accounts cannot be started in production', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'travnik-prod-'));
    try {
      const demo = await buildIdentityApp({ dataDir, demo: true });
      expect(await demo.identity.idp!.users.findByEmail('kmet1@example.si')).toBeDefined();
      await demo.close();
      await expect(buildIdentityApp({ dataDir, production: true, demo: false })).rejects.toThrow(/kmet1@example\.si/);
      await expect(buildIdentityApp({ dataDir, auth: 'basic', production: true, demo: false })).rejects.toThrow(/demo accounts exist/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('a fresh production database starts, without any demo account', async () => {
    const ctx = await buildIdentityApp({ production: true, demo: false });
    try {
      expect(await ctx.identity.idp!.users.findByEmail('kmet1@example.si')).toBeUndefined();
    } finally {
      await ctx.close();
    }
  });
});

describe('passwords', () => {
  test('are stored as salted scrypt hashes, never in clear', async () => {
    const ctx = await buildIdentityApp({ demo: true });
    try {
      const rows = (await ctx.db
        .selectFrom('users' as never)
        .select(['email', 'password_hash'] as never)
        .execute()) as Array<{
        email: string;
        password_hash: string;
      }>;
      expect(rows.map((r) => r.email).sort()).toEqual(['bralec@example.si', 'kmet1@example.si', 'kmet2@example.si', 'urednik@example.si']);
      const hashes = new Set(rows.map((r) => r.password_hash));
      expect(hashes.size).toBe(rows.length); // same password, different salts
      for (const row of rows) {
        expect(row.password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
        expect(row.password_hash).not.toContain('demo');
      }
    } finally {
      await ctx.close();
    }
  });
});
