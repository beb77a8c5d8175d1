/**
 * The process configuration: env.ts (defaults, sizes, refusals that stop start-up) and the real
 * server process (tsx src/server/server.ts) — it creates DATA_DIR, loads the demo project on its
 * first run, answers over HTTP, refuses a bad environment with a clear message, and closes
 * gracefully on SIGTERM.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_LIMITS, EnvError, readEnv } from '../../src/server/env';

describe('readEnv', () => {
  it('has the documented defaults, anchored at the working directory', () => {
    const env = readEnv({}, '/srv/travnik');
    expect(env).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/srv/travnik/data',
      database: '/srv/travnik/data/moj-travnik.sqlite',
      clientDir: '/srv/travnik/dist',
      nodeEnv: 'development',
      production: false,
      auth: 'embedded',
      logLevel: 'info',
      demo: true,
      projectId: 1,
      limits: DEFAULT_LIMITS,
    });
  });

  it('reads sizes with units, and the production defaults', () => {
    const env = readEnv(
      { PORT: '9000', DATA_DIR: '/var/lib/travnik', UPLOAD_LIMIT: '2m', UPLOAD_USER_QUOTA: '0', BODY_LIMIT: '512k', NODE_ENV: 'production', LOG_LEVEL: 'WARN' },
      '/x',
    );
    expect(env).toMatchObject({ port: 9000, dataDir: '/var/lib/travnik', production: true, demo: false, logLevel: 'warn' });
    expect(env.limits).toMatchObject({ fileSize: 2 * 1024 * 1024, userQuota: 0, bodyLimit: 512 * 1024 });
    expect(readEnv({ AUTH: 'keycloak', KEYCLOAK_URL: 'https://sso.example.si/' }).keycloak).toEqual({
      url: 'https://sso.example.si',
      realm: 'moj-travnik',
      clientId: 'moj-travnik-app',
    });
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be an integer/],
    [{ UPLOAD_LIMIT: '15 megabytes' }, /UPLOAD_LIMIT must be a size/],
    [{ AUTH: 'ldap' }, /AUTH must be one of embedded, keycloak, basic, none/],
    [{ AUTH: 'keycloak' }, /KEYCLOAK_URL/],
    [{ AUTH: 'none', NODE_ENV: 'production' }, /AUTH=none is for local demos only/],
    [{ DEMO: 'maybe' }, /DEMO must be true or false/],
    [{ PROJECT_ID: '0' }, /PROJECT_ID must be an integer ≥ 1/],
  ])('refuses %p', (vars, message) => {
    expect(() => readEnv(vars as NodeJS.ProcessEnv)).toThrow(EnvError);
    expect(() => readEnv(vars as NodeJS.ProcessEnv)).toThrow(message);
  });
});

describe('server process', () => {
  const tsx = path.resolve('node_modules/.bin/tsx');
  const root = mkdtempSync(path.join(os.tmpdir(), 'mt-process-'));
  const children: ChildProcess[] = [];

  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  function start(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
    const child = spawn(tsx, ['src/server/server.ts'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        CLIENT_DIR: path.join(root, 'no-dist'),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, output: () => output, exited };
  }

  async function waitFor(output: () => string, pattern: RegExp): Promise<RegExpMatchArray> {
    for (;;) {
      const match = pattern.exec(output());
      if (match) return match;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('creates DATA_DIR with the demo project, serves, and closes gracefully on SIGTERM', async () => {
    const dataDir = path.join(root, 'fresh', 'data');
    const server = start({ DATA_DIR: dataDir });
    const [, port, node] = await waitFor(server.output, /"port":(\d+),"node":"(v[\d.]+)"/);
    // The tests and the server they start run on the supported Node (npm test provides it).
    expect(node).toBe(process.version);
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
    expect(existsSync(path.join(dataDir, 'moj-travnik.sqlite'))).toBe(true);
    const probe = await fetch(`http://127.0.0.1:${port}/api/Test`);
    expect(probe.status).toBe(200);
    await probe.arrayBuffer();
    const config = (await (await fetch(`http://127.0.0.1:${port}/config.json`)).json()) as { projectId: number; tables: { farmers: { id: number } } };
    expect(config.projectId).toBe(1);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toMatch(/"signal":"SIGTERM".*shutting down/);
    expect(server.output()).toMatch(/"msg":"closed"/);
    // No dependency warns that it does not support this Node (oidc-provider does on Node 20).
    expect(server.output()).not.toMatch(/Unsupported runtime/i);
  }, 60_000);

  it('refuses to start with a bad environment, naming the variable', async () => {
    const server = start({ DATA_DIR: path.join(root, 'bad'), PORT: 'eighty' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(/PORT must be an integer/);
    expect(existsSync(path.join(root, 'bad'))).toBe(false);
  }, 60_000);
});
