/**
 * A small Fastify app with the real database (openDatabase, all migrations), the real error
 * handling and registerIdentity, plus one protected probe route. Used by the authentication tests
 * so they test exactly the sign-in layer; the API's own routes are covered through buildApp.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { openDatabase, type DatabaseHandle } from '../../../src/server/db/database';
import { unauthenticated } from '../../../src/server/domain-errors';
import { registerErrorHandling } from '../../../src/server/http/errors';
import { registerIdentity, type Identity, type IdentityOptions } from '../../../src/server/auth';

export interface IdentityApp {
  app: FastifyInstance;
  identity: Identity;
  db: DatabaseHandle['db'];
  origin: string;
  close(): Promise<void>;
}

export async function buildIdentityApp(options: Partial<Omit<IdentityOptions, 'db'>> & { listen?: boolean; dataDir?: string } = {}): Promise<IdentityApp> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'travnik-auth-'));
  const handle = await openDatabase({ dataDir, database: 'identity.sqlite' });
  const app = Fastify({ logger: false });
  registerErrorHandling(app);
  const identity = await registerIdentity(app, { demo: true, ...options, db: handle.db });
  app.get('/api/whoami', async (request) => {
    const principal = await identity.authenticate(request);
    if (!principal) throw unauthenticated('credentials are required');
    return principal;
  });
  let origin = 'http://localhost:80';
  if (options.listen) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address && typeof address === 'object') origin = `http://127.0.0.1:${address.port}`;
  } else {
    await app.ready();
  }
  return {
    app,
    identity,
    db: handle.db,
    origin,
    close: async () => {
      await app.close();
      await handle.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
