/**
 * The process (fastify/demo habit): reads the environment once, creates DATA_DIR, builds the app
 * (src/server/app.ts, which never listens), listens, and closes cleanly on SIGTERM/SIGINT —
 * in-flight requests finish, the database is closed, then the process exits. A second signal, or
 * a close that hangs for longer than the grace period, exits at once.
 *
 * `npm start` builds the client and runs this file; on a fresh clone the demo project is loaded
 * into data/ on the first run (DEMO defaults to on outside production).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { EnvError, readEnv, type ServerEnv } from './env';

const CLOSE_GRACE_MS = 10_000;

/** Fastify builds the pino logger from these options (Fastify 5 takes options, not an instance). */
export function loggerOptions(env: Pick<ServerEnv, 'logLevel'>) {
  return {
    level: env.logLevel,
    // Never log credentials: tokens and cookies travel in these headers.
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[redacted]' },
  };
}

export async function main(): Promise<void> {
  let env: ServerEnv;
  try {
    env = readEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(`Napaka v nastavitvah (configuration error): ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  mkdirSync(env.dataDir, { recursive: true });

  const app = await buildApp({
    dataDir: env.dataDir,
    database: env.database,
    clientDir: env.clientDir,
    demo: env.demo,
    logger: loggerOptions(env),
    limits: env.limits,
    auth: env.auth,
    keycloak: env.keycloak,
    publicUrl: env.publicUrl,
    production: env.production,
    bodyLimit: env.limits.bodyLimit,
    projectId: env.projectId,
    rateLimits: env.rateLimits,
    loginLimits: env.loginLimits,
    identityLimits: env.identityLimits,
    redis: env.redis,
    trustProxy: env.trustProxy,
    metrics: env.metrics,
  });
  const logger = app.log;

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    closing = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('close did not finish in time: exiting');
      process.exit(1);
    }, CLOSE_GRACE_MS);
    timer.unref();
    app.close().then(
      () => {
        logger.info('closed');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'close failed');
        process.exit(1);
      },
    );
  };
  // One handler per signal: the first starts a graceful close, a second one exits at once.
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  try {
    await app.listen({ port: env.port, host: env.host });
  } catch (error) {
    logger.fatal({ err: error }, 'cannot listen');
    await app.close().catch(() => undefined);
    process.exit(1);
  }
  const shown = env.host === '0.0.0.0' || env.host === '::' ? 'localhost' : env.host;
  // The bound port (PORT=0 picks a free one).
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : env.port;
  // Which Node runs it: the project needs the one named in .nvmrc (docs/architecture.md, "Runtime and install").
  logger.info({ port, node: process.version }, `Moj travnik: http://${shown}:${port}/ (podatki v ${env.dataDir})`);
}

// Run only when executed directly (tsx src/server/server.ts), not when imported by a test.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
