/**
 * GET /config.json and GET /keycloak.json: public, never cached, and built from the database and
 * the scheme (table and column ids, attachment slots, form kinds), the base maps and the auth
 * settings — embedded provider by default, an external Keycloak when configured.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import type { AppConfig } from '../../src/common/schemas/config';
import { OWN_BASEMAP } from '../../src/common/basemap';
import { FORM_KINDS } from '../../src/common/scheme/form-kinds';
import { buildTestApp, type TestApp } from './helpers/build-test-app';

const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

describe('config.json', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  it('describes the demo project without a token and is never cached', async () => {
    const response = await fetch(`${t.origin}/config.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const config = (await response.json()) as AppConfig;
    expect(config.projectId).toBe(1);
    expect(config.version).toBe(version);
    expect(config.auth).toEqual({ mode: 'keycloak' });
    // The ids come from the database (what the server actually uses), not from constants.
    expect(config.tables).toEqual(t.tables);
    expect(Object.keys(config.tables).sort()).toEqual(['areas', 'comments', 'durationPaths', 'durations', 'farmers', 'forms', 'indicators', 'paths']);
    expect(config.tables.indicators.columns).toEqual({
      parent: expect.any(Number),
      key: expect.any(Number),
      value: expect.any(Number),
      note: expect.any(Number),
    });
    expect(config.tables.indicators.attachments).toEqual({ photos: expect.any(Number) });
    const profile = await t.app.db.selectFrom('search_profiles').select('id').where('project_id', '=', 1).orderBy('id').executeTakeFirstOrThrow();
    expect(config.searchProfileId).toBe(profile.id);
  });

  it('carries the form kinds keyed by name with ids, indicators and scoring rules, and the offline base map first', async () => {
    const config = (await (await fetch(`${t.origin}/config.json`)).json()) as AppConfig;
    expect(config.forms).toEqual(JSON.parse(JSON.stringify(FORM_KINDS)));
    for (const [name, kind] of Object.entries(config.forms)) {
      expect({ name, id: typeof kind.id, indicators: kind.indicators.length > 0, rule: typeof kind.scoring.version }).toEqual({
        name,
        id: 'number',
        indicators: true,
        rule: 'string',
      });
    }
    expect(config.basemaps[0]).toEqual(JSON.parse(JSON.stringify(OWN_BASEMAP)));
  });

  it('names the auth mode the server runs with', async () => {
    const basic = await buildTestApp({ auth: 'basic' });
    try {
      expect(((await (await fetch(`${basic.origin}/config.json`)).json()) as AppConfig).auth).toEqual({ mode: 'basic' });
    } finally {
      await basic.close();
    }
  });

  it('answers 503 (not a half config) when the configured project does not exist', async () => {
    const broken = await buildTestApp({ projectId: 424242 });
    try {
      const response = await fetch(`${broken.origin}/config.json`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: 503, message: 'Service Unavailable' });
    } finally {
      await broken.close();
    }
  });
});

describe('keycloak.json', () => {
  it('points keycloak-js at the embedded provider on the same origin by default', async () => {
    const t = await buildTestApp();
    try {
      const response = await fetch(`${t.origin}/keycloak.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.json()).toEqual({
        'auth-server-url': `${t.origin}/auth`,
        realm: 'moj-travnik',
        resource: 'moj-travnik-app',
        'public-client': true,
        'ssl-required': 'none',
      });
    } finally {
      await t.close();
    }
  });

  it('uses PUBLIC_URL behind a proxy, and an external Keycloak when AUTH=keycloak', async () => {
    const proxied = await buildTestApp({ publicUrl: 'https://travnik.example.si/' });
    try {
      expect(((await (await fetch(`${proxied.origin}/keycloak.json`)).json()) as Record<string, string>)['auth-server-url']).toBe(
        'https://travnik.example.si/auth',
      );
    } finally {
      await proxied.close();
    }
    const external = await buildTestApp({ auth: 'keycloak', keycloak: { url: 'https://sso.example.si/', realm: 'kmetije', clientId: 'travnik' } });
    try {
      expect(await (await fetch(`${external.origin}/keycloak.json`)).json()).toEqual({
        'auth-server-url': 'https://sso.example.si',
        realm: 'kmetije',
        resource: 'travnik',
        'public-client': true,
        'ssl-required': 'external',
      });
    } finally {
      await external.close();
    }
  });
});
