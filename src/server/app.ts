/**
 * The application as a Fastify instance that never listens (server.ts owns the process; tests
 * use app.inject). It opens and migrates the database, loads the demo project on first run when
 * asked, installs the error handling and the access hooks of /api/*, then registers every /api
 * route family here, in one place, and the public site (config, base map, the built client).
 */
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { registerAccessHooks } from './access/hooks';
import { createAttachmentService } from './attachments/service';
import { S3Storage } from './attachments/s3-storage';
import type { AttachmentStorage } from './attachments/storage';
import { registerIdentity, type IdentityOptions } from './auth';
import { openDatabase } from './db/database';
import { DEFAULT_LIMITS, readDatabaseEnv, readS3Env, type MetricsSettings, type PostgresSettings, type RateLimits, type UploadLimits } from './env';
import { registerApiHeaders } from './http/api-headers';
import { registerJsonCompression } from './http/compress-json';
import { registerErrorHandling } from './http/errors';
import './http/fastify-types';
import { purgeIdempotencyKeys } from './http/idempotency';
import { parseQueryString } from './http/querystring';
import { registerSharedSchemas } from './http/schemas';
import { ensureFarmerAccount } from './idp/activations';
import { registerOpenApi } from './plugins/openapi';
import { LimitCounters, type RedisSettings } from './plugins/limit-counters';
import { registerRateLimits } from './plugins/rate-limit';
import { registerSecurityHeaders } from './plugins/security-headers';
import { ProjectRepository } from './repositories/project-repository';
import accountRoutes from './routes/api/accounts';
import auditRoutes from './routes/api/audit';
import attachmentRoutes from './routes/api/attachments';
import featureRoutes from './routes/api/features';
import fullRoutes from './routes/api/full';
import importRoutes from './routes/api/import';
import publicAppRoutes from './routes/api/public-app';
import recordRoutes from './routes/api/records';
import testRoutes from './routes/api/test';
import { registerOps } from './ops';
import { registerSite } from './routes/site';
import { packageVersion } from './routes/site/version';
import { loadDemoData } from './seed/seed-demo';

/** JSON bodies up to this size (a 10,000-record bulk call fits); uploads have their own limits. */
const DEFAULT_BODY_LIMIT = 16 * 1024 * 1024;

export interface BuildAppOptions extends Omit<IdentityOptions, 'db'> {
  /** Folder for the database file and attachments (default `data`). */
  dataDir?: string;
  /** SQLite file path (relative to dataDir) or ':memory:' (default moj-travnik.sqlite in dataDir). */
  database?: string;
  /**
   * `postgres://…` runs on PostgreSQL; null forces SQLite; undefined follows DATABASE_URL.
   * With `database: ':memory:'` a PostgreSQL app gets a throwaway schema (tests).
   */
  databaseUrl?: string | null;
  /** PostgreSQL: work in this schema (created if missing, kept) — several apps sharing one database in tests. */
  databaseSchema?: string;
  /** PostgreSQL pool size and statement timeout (default: PG_POOL_SIZE / PG_STATEMENT_TIMEOUT). */
  postgres?: Partial<PostgresSettings> & { postgis?: boolean };
  /** The built client (default dist/). */
  clientDir?: string;
  logger?: FastifyServerOptions['logger'];
  /** Largest accepted JSON body in bytes (default: limits.bodyLimit, else DEFAULT_BODY_LIMIT). */
  bodyLimit?: number;
  /** Upload limits; missing members take DEFAULT_LIMITS (env.ts). */
  limits?: Partial<UploadLimits>;
  /** Product version in config.json and the OpenAPI document (default: package.json's). */
  version?: string;
  /** The project config.json describes and imports go to by default (default 1, the demo project). */
  projectId?: number;
  /** Attachment storage other than the local disk (default: S3 when S3_BUCKET is set, else dataDir). */
  attachmentStorage?: AttachmentStorage;
  /** Requests per user and window on /api (default: none — server.ts passes RATE_LIMIT_*). */
  rateLimits?: RateLimits;
  /**
   * Redis for the counters of the request limits and the sign-in throttle, shared by every node
   * (default: none, this process's memory — server.ts passes REDIS_URL; never read from the
   * environment here, so test apps never share counts by surprise).
   */
  redis?: RedisSettings;
  /** Fastify's trustProxy: which proxies' X-Forwarded-For to believe (default: none). */
  trustProxy?: boolean | string;
  /** Who may read /metrics (default: nobody, 404). */
  metrics?: MetricsSettings;
}

export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const dataDir = options.dataDir ?? 'data';
  const app = Fastify({
    logger: options.logger ?? false,
    // The request log is ops/request-log.ts: one line per request with route family and role, no secrets.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit ?? options.limits?.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // Behind a reverse proxy the client's address comes from X-Forwarded-For (TRUST_PROXY, env.ts).
    trustProxy: options.trustProxy ?? false,
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
  const database = await openDatabase({
    dataDir,
    database: options.database,
    databaseUrl,
    schema: options.databaseSchema,
    postgres: options.postgres ?? databaseEnv?.postgres,
  });
  app.decorate('db', database.db);
  app.decorate('dialect', database.dialect);
  app.decorate('projects', new ProjectRepository(database.db));
  app.addHook('onClose', async () => {
    await database.close();
  });
  if (options.demo) await loadDemoData(database.db, database.dialect);
  await purgeIdempotencyKeys(database.db);

  // Request limits and sign-in throttle count here: Redis when configured (and answering), else memory.
  const limitCounters = new LimitCounters(options.redis, app.log);
  app.decorate('limitCounters', limitCounters);
  app.addHook('onClose', async () => {
    limitCounters.close();
  });

  registerErrorHandling(app);
  registerApiHeaders(app);
  registerJsonCompression(app);
  registerSharedSchemas(app);
  // CSP and the other security headers on every answer, the identity provider's included (so before it registers).
  registerSecurityHeaders(app, options);
  // /metrics and the request log, before the routes: their hooks see every route.
  registerOps(app, options.metrics);

  // Sign-in (embedded provider, Keycloak, basic or none); a test's own `authenticate` wins.
  const { authenticate, mode: authMode } = await registerIdentity(app, { ...options, db: database.db });
  // Farmers' sign-in accounts are ours unless an external Keycloak holds them.
  app.decorate('farmerAccounts', authMode === 'keycloak' ? undefined : ensureFarmerAccount);
  registerAccessHooks(app, () => authenticate);
  await registerRateLimits(app, options.rateLimits); // per user, once the access hook knows the caller

  // The OpenAPI document first: it collects the routes registered after it.
  const version = options.version ?? packageVersion();
  await registerOpenApi(app, { version });

  // Every /api route family.
  const limits: UploadLimits = { ...DEFAULT_LIMITS, ...(options.limits ?? {}) };
  const s3 = options.attachmentStorage === undefined ? readS3Env() : undefined;
  const attachments = createAttachmentService(path.resolve(dataDir), limits, options.attachmentStorage ?? (s3 ? new S3Storage(s3) : undefined));
  await app.register(testRoutes);
  await app.register(publicAppRoutes);
  await app.register(recordRoutes);
  await app.register(featureRoutes);
  await app.register(attachmentRoutes, { service: attachments });
  await app.register(fullRoutes, { service: attachments });
  await app.register(accountRoutes, { mode: authMode, publicUrl: options.publicUrl, identityLimits: options.identityLimits });
  await app.register(importRoutes, { dataDir, projectId: options.projectId, limits });
  await app.register(auditRoutes); // editors' audit trail of every change

  // The public site: no token needed.
  await registerSite(app, { ...options, version });
  return app;
}
