/**
 * The application as a Fastify instance that never listens (server.ts owns the process; tests
 * use app.inject). It opens and migrates the database, loads the demo project on first run when
 * asked, installs the error handling, the access hooks of /api/* and the routes.
 */
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { registerAccessHooks } from './access/hooks';
import type { Authenticate } from './auth/principal';
import { registerIdentity } from './auth';
import { openDatabase } from './db/database';
import { S3Storage } from './attachments/s3-storage';
import { readDatabaseEnv, readS3Env, type MetricsSettings, type PostgresSettings, type UploadLimits } from './env';
import { loadDemoData } from './db/seed-demo';
import { registerApiHeaders } from './http/api-headers';
import { registerJsonCompression } from './http/compress-json';
import { registerErrorHandling } from './http/errors';
import './http/fastify-types';
import { purgeIdempotencyKeys } from './http/idempotency';
import { parseQueryString } from './http/querystring';
import { registerSharedSchemas } from './http/schemas';
import { registerServerEdge } from './routes/site'; // H1b
import { ProjectRepository } from './repositories/project-repository';
import featureRoutes from './routes/api/features';
import publicAppRoutes from './routes/api/public-app';
import recordRoutes from './routes/api/records';
import testRoutes from './routes/api/test';
import accountRoutes from './routes/api/accounts';
import importRoutes from './routes/api/import';
import { ensureFarmerAccount } from './idp/activations';
import { registerOps } from './ops';

/** JSON bodies up to this size (a 10,000-record bulk call fits); uploads have their own limits. */
const DEFAULT_BODY_LIMIT = 16 * 1024 * 1024;

export interface BuildAppOptions {
  /** Folder for the database file and attachments (default `data`). */
  dataDir?: string;
  /** SQLite file path (relative to dataDir) or ':memory:' (default moj-travnik.sqlite in dataDir). */
  database?: string;
  /**
   * `postgres://…` runs on PostgreSQL (issue 9); null forces SQLite; undefined follows DATABASE_URL.
   * With `database: ':memory:'` a PostgreSQL app gets a throwaway schema (tests).
   */
  databaseUrl?: string | null;
  /** PostgreSQL: work in this schema (created if missing, kept) — several apps sharing one database in tests. */
  databaseSchema?: string;
  /** PostgreSQL pool size and statement timeout (default: PG_POOL_SIZE / PG_STATEMENT_TIMEOUT). */
  postgres?: Partial<PostgresSettings> & { postgis?: boolean };
  /** Turns a request into a Principal (see auth/principal.ts). Without one, every /api call is 401. */
  authenticate?: Authenticate;
  /** The built client (default dist/). */
  clientDir?: string;
  /** Load the demo project on first run. */
  demo?: boolean;
  logger?: FastifyServerOptions['logger'];
  /** Largest accepted JSON body in bytes (default DEFAULT_BODY_LIMIT). */
  bodyLimit?: number;
  /**
   * Settings of the parts registered by other modules (identity: auth, keycloak, publicUrl;
   * edge: limits, version, production): they read and type them themselves.
   */
  [setting: string]: unknown;
}

export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const dataDir = options.dataDir ?? 'data';
  const app = Fastify({
    logger: options.logger ?? false,
    // The request log is ops/request-log.ts: one line per request with route family and role, no secrets.
    logController: new LogController({ disableRequestLogging: true }),
    // BODY_LIMIT arrives as limits.bodyLimit from env.ts (server.ts passes the upload limits whole).
    bodyLimit: options.bodyLimit ?? (options.limits as { bodyLimit?: number } | undefined)?.bodyLimit ?? DEFAULT_BODY_LIMIT,
    routerOptions: {
      querystringParser: parseQueryString,
      // Text search puts the user's query in the path.
      maxParamLength: 500,
    },
    ajv: {
      customOptions: {
        // Unknown body fields are rejected with a 400 (no silent mass-assignment), not stripped.
        removeAdditional: false,
        // Query strings and params arrive as text: coerce to the declared types, single → array.
        coerceTypes: 'array',
        useDefaults: true,
        allErrors: false,
      },
    },
  });

  const databaseEnv = options.databaseUrl === undefined || options.postgres === undefined ? readDatabaseEnv() : undefined;
  const databaseUrl = options.databaseUrl === undefined ? databaseEnv?.databaseUrl : (options.databaseUrl ?? undefined);
  const database = await openDatabase({ dataDir, database: options.database, databaseUrl, schema: options.databaseSchema, postgres: options.postgres ?? databaseEnv?.postgres });
  app.decorate('db', database.db);
  app.decorate('dialect', database.dialect);
  app.decorate('projects', new ProjectRepository(database.db));
  app.addHook('onClose', async () => {
    await database.close();
  });
  if (options.demo) await loadDemoData(database.db, database.dialect);
  await purgeIdempotencyKeys(database.db);

  registerErrorHandling(app);
  registerApiHeaders(app);
  registerJsonCompression(app);
  registerSharedSchemas(app);
  registerOps(app, options.metrics as MetricsSettings | undefined); // /metrics and the request log (before the routes: their hooks see every route)

  // The authentication in use; the identity registration (H2) may supply it when the options don't.
  const { authenticate, mode: authMode } = await registerIdentity(app, { ...options, db: database.db }); // H2: embedded IdP / keycloak / basic / none; options.authenticate wins
  // Farmers' sign-in accounts are ours unless an external Keycloak holds them.
  app.decorate('farmerAccounts', authMode === 'keycloak' ? undefined : ensureFarmerAccount);
  registerAccessHooks(app, () => authenticate);
  // Attachments in an object store when S3_BUCKET is set (issue 9), unless the caller passed a storage.
  const s3 = options.attachmentStorage === undefined ? readS3Env() : undefined;
  await registerServerEdge(app, s3 ? { ...options, attachmentStorage: new S3Storage(s3) } : options); // H1b: OpenAPI first (sees every later route), attachments + full, config.json, keycloak.json, static client

  await app.register(testRoutes);
  await app.register(publicAppRoutes);
  await app.register(recordRoutes);
  await app.register(featureRoutes);
  await app.register(accountRoutes, { mode: authMode, publicUrl: options.publicUrl as string | undefined }); // farmers' accounts + activation page
  await app.register(importRoutes, { dataDir, projectId: options.projectId as number | undefined, limits: options.limits as Partial<UploadLimits> | undefined }); // bulk import of farmers and meadows
  return app;
}
