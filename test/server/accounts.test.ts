/**
 * Farmers' sign-in accounts with the embedded identity provider, end to end over HTTP: the editor
 * signs in, creates a farmer (a pending account appears), asks for an activation link; the farmer
 * opens it, sets a password on the Slovenian page and then signs in through the normal login page
 * and reaches the API as that farmer. Links are single use, replaced by a newer one, expire after
 * 7 days; only editors see or issue them. With AUTH=keycloak only the data is written.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from '../../src/server/app';
import type { IdentityOptions } from '../../src/server/auth';
import { issueActivation } from '../../src/server/idp/activations';
import { ACTIVATION_TTL_S } from '../../src/server/idp/constants';
import { buildTablesConfig } from '../../src/server/repositories/project-repository';
import type { TablesConfig } from '../../src/common/schemas/config';
import { OidcTestClient } from './auth/oidc-client';
import { buildTestApp, snapshot, USERS, type TestApp } from './helpers/build-test-app';
import { farmerRows } from './helpers/demo-ids';

let app: FastifyInstance;
let origin: string;
let dataDir: string;
let tables: TablesConfig;
const tokens = new Map<string, string>();

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'travnik-accounts-'));
  // ':memory:' — on PostgreSQL a throwaway schema, as every test app.
  const options: BuildAppOptions & Partial<IdentityOptions> = { dataDir, database: ':memory:', demo: true, auth: 'embedded', logger: false };
  app = await buildApp(options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  tables = await buildTablesConfig(app.db, 1);
  for (const user of [USERS.editor, USERS.reader, USERS.farmer1]) tokens.set(user, (await new OidcTestClient(origin).signIn(user, 'demo')).access_token);
}, 60_000);

afterAll(async () => {
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function api(user: string, method: string, url: string, body?: unknown) {
  const response = await fetch(`${origin}${url}`, {
    method,
    headers: { authorization: `Bearer ${tokens.get(user)!}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function createFarmer(name: string, email: string, kmgMid: string): Promise<number> {
  const c = tables.farmers.columns;
  const created = await api(USERS.editor, 'POST', '/api/Records/1', {
    tableId: tables.farmers.id,
    properties: { [c.name]: name, [c.email]: email, [c.kmg_mid]: kmgMid },
  });
  expect(created.status).toBe(201);
  return created.body.id as number;
}

async function page(url: string, form?: Record<string, string>) {
  const response = await fetch(
    url,
    form ? { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() } : {},
  );
  return { status: response.status, html: await response.text() };
}

describe('an editor creates a farmer and hands over an activation link', () => {
  test('the farmer sets a password there and signs in through the normal login', async () => {
    const id = await createFarmer('Vesna Zelena', 'Vesna.Zelena@example.si', '400100100');
    expect((await api(USERS.editor, 'GET', `/api/Accounts/${id}`)).body).toEqual({
      exists: true,
      activated: false,
      activationPending: false,
      mode: 'embedded',
    });
    // Without a password nobody signs in with that e-mail.
    await expect(new OidcTestClient(origin).signIn('vesna.zelena@example.si', '!activation-pending')).rejects.toThrow();

    const issued = await api(USERS.editor, 'POST', `/api/Accounts/${id}/activation`);
    expect(issued.status).toBe(201);
    const { url, expiresAt } = issued.body as { url: string; expiresAt: string };
    expect(url.startsWith(`${origin}/auth/realms/moj-travnik/login-actions/activate/`)).toBe(true);
    const days = (Date.parse(expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    expect((await api(USERS.editor, 'GET', `/api/Accounts/${id}`)).body).toEqual({
      exists: true,
      activated: false,
      activationPending: true,
      expiresAt,
      mode: 'embedded',
    });

    const form = await page(url);
    expect(form.status).toBe(200);
    expect(form.html).toContain('<html lang="sl">');
    expect(form.html).toContain('Nastavite geslo');
    expect(form.html).toContain('vesna.zelena@example.si');

    expect((await page(url, { password: 'travnik-2027', repeat: 'travnik-2028' })).html).toContain('Gesli se ne ujemata.');
    expect((await page(url, { password: 'kratko', repeat: 'kratko' })).html).toContain('Geslo mora imeti vsaj 8 znakov.');
    expect((await page(url, { password: '', repeat: '' })).html).toContain('Vpišite geslo v obe polji.');
    const done = await page(url, { password: 'travnik-2027', repeat: 'travnik-2027' });
    expect(done.status).toBe(200);
    expect(done.html).toContain('Geslo je nastavljeno');

    const signedIn = await new OidcTestClient(origin).signIn('vesna.zelena@example.si', 'travnik-2027');
    const roles = await fetch(`${origin}/api/PublicApp/1/roles`, { headers: { authorization: `Bearer ${signedIn.access_token}` } });
    expect(roles.status).toBe(200);
    expect(await roles.json()).toEqual({ roles: [], editor: false, reader: false });
    expect((await api(USERS.editor, 'GET', `/api/Accounts/${id}`)).body).toEqual({ exists: true, activated: true, activationPending: false, mode: 'embedded' });

    // Used once: the page says so, and nothing can be set through it again.
    const reused = await page(url, { password: 'drugo-geslo', repeat: 'drugo-geslo' });
    expect(reused.status).toBe(410);
    expect(reused.html).toContain('Povezava ni veljavna');
    await expect(new OidcTestClient(origin).signIn('vesna.zelena@example.si', 'drugo-geslo')).rejects.toThrow();
    // An activated account gets no new link.
    const again = await api(USERS.editor, 'POST', `/api/Accounts/${id}/activation`);
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/že aktiviran/);
  }, 60_000);

  test('a new link replaces the unused one; an expired link says so', async () => {
    const id = await createFarmer('Tine Travnik', 'tine@example.si', '400200200');
    const first = (await api(USERS.editor, 'POST', `/api/Accounts/${id}/activation`)).body.url as string;
    const second = (await api(USERS.editor, 'POST', `/api/Accounts/${id}/activation`)).body.url as string;
    expect(second).not.toBe(first);
    const old = await page(first);
    expect(old.status).toBe(404);
    expect(old.html).toContain('Povezava ni veljavna');
    expect((await page(second)).status).toBe(200);

    const eightDaysAgo = Math.floor(Date.now() / 1000) - ACTIVATION_TTL_S - 86_400;
    const stale = await issueActivation(app.db, 'tine@example.si', USERS.editor, eightDaysAgo);
    if (!stale.ok) throw new Error('no link issued');
    const expired = await page(`${origin}/auth/realms/moj-travnik/login-actions/activate/${stale.token}`);
    expect(expired.status).toBe(410);
    expect(expired.html).toContain('Povezava je potekla');
    // The stale link replaced the second one, so the account shows no pending link now.
    expect((await api(USERS.editor, 'GET', `/api/Accounts/${id}`)).body).toMatchObject({ exists: true, activated: false, activationPending: false });
  });

  test('a farmer written before accounts existed gets one with the first link; no e-mail → 400', async () => {
    const stefan = { id: (await farmerRows(app, tables, 'stefan.kuhar@example.si')).farmer };
    expect((await api(USERS.editor, 'GET', `/api/Accounts/${stefan.id}`)).body).toMatchObject({ exists: false });
    expect((await api(USERS.editor, 'POST', `/api/Accounts/${stefan.id}/activation`)).status).toBe(201);
    expect((await api(USERS.editor, 'GET', `/api/Accounts/${stefan.id}`)).body).toMatchObject({ exists: true, activationPending: true });

    const c = tables.farmers.columns;
    const bare = await api(USERS.editor, 'POST', '/api/Records/1', { tableId: tables.farmers.id, properties: { [c.name]: 'Brez naslova' } });
    const refused = await api(USERS.editor, 'POST', `/api/Accounts/${bare.body.id as number}/activation`);
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/nima e-poštnega naslova/);
  });

  test('readers and farmers are refused; ids that are not farmers are 404', async () => {
    const id = await createFarmer('Zala', 'zala@example.si', '400300300');
    const own = await farmerRows(app, tables, USERS.farmer1);
    expect((await api(USERS.reader, 'POST', `/api/Accounts/${id}/activation`)).status).toBe(403);
    expect((await api(USERS.reader, 'GET', `/api/Accounts/${id}`)).status).toBe(403);
    expect((await api(USERS.farmer1, 'POST', `/api/Accounts/${own.farmer}/activation`)).status).toBe(403);
    expect((await api(USERS.farmer1, 'POST', `/api/Accounts/${id}/activation`)).status).toBe(404);
    expect((await api(USERS.farmer1, 'GET', `/api/Accounts/${id}`)).status).toBe(404);
    expect((await api(USERS.editor, 'POST', `/api/Accounts/${own.areas[0]!}/activation`)).status).toBe(404);
    expect((await api(USERS.editor, 'GET', '/api/Accounts/99999999')).status).toBe(404);
    expect((await api(USERS.editor, 'GET', `/api/Accounts/${id}`)).body).toMatchObject({ activationPending: false });
  });

  test('a refused farmer write creates no account', async () => {
    const users = async () =>
      (
        await app.db
          .selectFrom('users' as never)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const before = await users();
    const c = tables.farmers.columns;
    const response = await api(USERS.editor, 'POST', '/api/Records/1/bulk', {
      operations: [
        { opId: 'acc-1', kind: 'insert', tableId: tables.farmers.id, properties: { [c.name]: 'Nova', [c.email]: 'nova@example.si', [c.kmg_mid]: '400400400' } },
        {
          opId: 'acc-2',
          kind: 'insert',
          tableId: tables.farmers.id,
          properties: { [c.name]: 'Dvojnik', [c.email]: 'dvojnik@example.si', [c.kmg_mid]: '400400400' },
        },
      ],
    });
    expect(response.status).toBe(400);
    expect(await users()).toBe(before);
  });
});

describe('AUTH=keycloak: accounts live in Keycloak', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ auth: 'keycloak' });
  });
  afterAll(async () => {
    await t.close();
  });

  test('the farmer is written, no account is made, and a link is refused with a Slovenian 409', async () => {
    const c = t.tables.farmers.columns;
    const created = await t.as(USERS.editor, {
      method: 'POST',
      url: '/api/Records/1',
      payload: { tableId: t.tables.farmers.id, properties: { [c.name]: 'K', [c.email]: 'k@example.si' } },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ id: number }>().id;
    expect(
      (
        await t.app.db
          .selectFrom('users' as never)
          .selectAll()
          .where('email' as never, '=', 'k@example.si' as never)
          .execute()
      ).length,
    ).toBe(0);
    expect((await t.as(USERS.editor, { method: 'GET', url: `/api/Accounts/${id}` })).json()).toEqual({
      exists: false,
      activated: false,
      activationPending: false,
      mode: 'keycloak',
    });
    const before = await snapshot(t.app);
    const link = await t.as(USERS.editor, { method: 'POST', url: `/api/Accounts/${id}/activation` });
    expect(link.statusCode).toBe(409);
    expect(link.json<{ detail: string }>().detail).toMatch(/v Keycloaku/);
    expect(await snapshot(t.app)).toBe(before);
    // The activation page is not served at all: the path falls through to the client's fallback
    // (the built app's index.html where dist/ exists, else 404), never the set-password form.
    const missing = await fetch(`${t.origin}/auth/realms/moj-travnik/login-actions/activate/abcdefghijklmnopqrstuvwxyz`);
    expect(await missing.text()).not.toContain('Nastavite geslo');
  });
});
