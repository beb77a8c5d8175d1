/**
 * The process environment, read in one place (fastify/demo habit): server.ts, the seed CLI and the
 * bench call `readEnv()` once and pass plain values on; nothing else in src/server reads
 * `process.env`. Bad values fail fast at start-up with a message naming the variable, rather than
 * surfacing later as odd behaviour.
 */
import { isIP } from 'node:net';
import path from 'node:path';

export type AuthSetting = 'embedded' | 'keycloak' | 'basic' | 'none';
type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Limits on request bodies and uploads; all sizes in bytes. */
export interface UploadLimits {
  /** Largest JSON body (bulk calls carry up to a few thousand records). */
  bodyLimit: number;
  /** Largest single uploaded file. */
  fileSize: number;
  /** Most files in one multipart request (`full` carries a record plus its photos). */
  files: number;
  /** Largest image in pixels (width × height): bigger images are refused (pixel floods). */
  maxImagePixels: number;
  /** Total bytes of attachments one user may have stored; 0 = unlimited. */
  userQuota: number;
  /** Longest side of a thumbnail, in pixels. */
  thumbSize: number;
}

export const DEFAULT_LIMITS: UploadLimits = {
  bodyLimit: 20 * 1024 * 1024,
  fileSize: 15 * 1024 * 1024,
  files: 20,
  // 50 megapixels: more than any phone camera today, far below what would exhaust memory.
  maxImagePixels: 50_000_000,
  userQuota: 500 * 1024 * 1024,
  thumbSize: 320,
};

/**
 * Request limits of the API (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW seconds): counted per signed-in
 * user, or per client address for calls without a user. Sized so a phone draining a field day's
 * outbox (10,000 edits = 50 bulk calls of 200, sent back to back, plus its photos one by one) is
 * never refused, while a runaway script is.
 */
export interface RateLimits {
  /** Requests per window; 0 switches the limit off. */
  max: number;
  windowMs: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { max: 1000, windowMs: 60_000 };

/**
 * Sign-in throttle (LOGIN_FAILURES_PER_ACCOUNT, LOGIN_FAILURES_PER_ADDRESS, LOGIN_FAILURE_WINDOW
 * seconds): only wrong passwords count, so a room of farmers signing in behind one address is
 * never refused, while guessing one account's password or trying many accounts from one address is.
 */
export interface LoginLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { perAccount: 10, perAddress: 30, windowMs: 60_000 };

/**
 * Requests to the identity provider's authorization, token and login endpoints and to the
 * activation links (IDP_LIMIT_PER_ADDRESS, IDP_LIMIT_PER_ACCOUNT per IDP_LIMIT_WINDOW seconds),
 * counted whether they succeed or not: per client address, and per account where the request names
 * one (the login typed, the account of a refresh token or code, the activation link's). A farmer's
 * sign-in is about five requests and the app refreshes its token every few minutes, so a room of
 * farmers behind one address stays far below the address limit, while a script replaying a stolen
 * refresh token, or guessing passwords with a right one now and then, is slowed on every node alike.
 */
export interface IdentityLimits {
  /** Requests per window from one address; 0 = no limit per address. */
  perAddress: number;
  /** Requests per window for one account; 0 = no limit per account. */
  perAccount: number;
  windowMs: number;
}

export const DEFAULT_IDENTITY_LIMITS: IdentityLimits = { perAddress: 300, perAccount: 30, windowMs: 60_000 };

/** Redis for the counters of the limits (REDIS_URL, REDIS_PREFIX; docs/deploy.md): unset = this process's memory. */
function readRedisEnv(env: NodeJS.ProcessEnv = process.env): { url: string; keyPrefix?: string } | undefined {
  const url = env.REDIS_URL?.trim();
  if (!url) return undefined;
  if (!/^rediss?:\/\//i.test(url)) throw new EnvError(`REDIS_URL must be a redis:// or rediss:// URL, got "${url}"`);
  const keyPrefix = env.REDIS_PREFIX?.trim() || undefined;
  return { url, ...(keyPrefix ? { keyPrefix } : {}) };
}

export interface PostgresSettings {
  /** Connections per server process (PG_POOL_SIZE, default 10). */
  poolSize: number;
  /** statement_timeout in ms (PG_STATEMENT_TIMEOUT, default 30000; 0 = none): a runaway query never holds a connection for good. */
  statementTimeoutMs: number;
}

/**
 * The database settings alone. buildApp falls back to these when its options name no
 * database URL, so every app a process builds — the server's, the seed CLI's, each test file's —
 * follows DATABASE_URL the same way.
 */
export function readDatabaseEnv(env: NodeJS.ProcessEnv = process.env): { databaseUrl?: string; postgres: PostgresSettings } {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    throw new EnvError('DATABASE_URL must be a postgres:// or postgresql:// URL (leave it unset for the embedded SQLite file)');
  }
  return {
    databaseUrl,
    postgres: {
      poolSize: integer(env, 'PG_POOL_SIZE', 10, 1),
      statementTimeoutMs: integer(env, 'PG_STATEMENT_TIMEOUT', 30_000, 0),
    },
  };
}

export interface S3Settings {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  prefix?: string;
}

/**
 * Attachment object store (docs/deploy.md): S3_BUCKET switches attachments from DATA_DIR/attachments to
 * an S3-compatible store. S3_ENDPOINT (MinIO, Ceph…; omit for AWS), S3_REGION (default us-east-1),
 * S3_ACCESS_KEY_ID + S3_SECRET_ACCESS_KEY (else the SDK's default chain: AWS_* variables, instance
 * roles), S3_FORCE_PATH_STYLE (default true when S3_ENDPOINT is set), S3_PREFIX.
 */
export function readS3Env(env: NodeJS.ProcessEnv = process.env): S3Settings | undefined {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) return undefined;
  const endpoint = env.S3_ENDPOINT?.trim() || undefined;
  if (endpoint && !/^https?:\/\//.test(endpoint)) throw new EnvError(`S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim() || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim() || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) throw new EnvError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  const prefix = env.S3_PREFIX?.trim() || undefined;
  return {
    bucket,
    endpoint,
    region: env.S3_REGION?.trim() || 'us-east-1',
    accessKeyId,
    secretAccessKey,
    forcePathStyle: flag(env, 'S3_FORCE_PATH_STYLE', Boolean(endpoint)),
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
  };
}

export interface ServerEnv {
  port: number;
  host: string;
  dataDir: string;
  /** Absolute path of the SQLite file, or undefined when DATABASE_URL selects PostgreSQL. */
  database: string;
  databaseUrl?: string;
  /** PostgreSQL pool settings (PG_POOL_SIZE, PG_STATEMENT_TIMEOUT); used only with DATABASE_URL. */
  postgres: PostgresSettings;
  nodeEnv: string;
  production: boolean;
  auth: AuthSetting;
  logLevel: LogLevel;
  limits: UploadLimits;
  /** Built client (webpack output). */
  clientDir: string;
  /** Public origin when the server sits behind a proxy (used for keycloak.json); else taken from the request. */
  publicUrl?: string;
  /** External Keycloak settings for keycloak.json when AUTH=keycloak. */
  keycloak?: { url: string; realm: string; clientId: string };
  /** Load the demo project on first run (default outside production). */
  demo: boolean;
  /** The project config.json serves (PROJECT_ID, default 1: the demo project). */
  projectId: number;
  /** API request limits per user (RATE_LIMIT_MAX, RATE_LIMIT_WINDOW). */
  rateLimits: RateLimits;
  /** Sign-in throttle (LOGIN_FAILURES_PER_ACCOUNT, LOGIN_FAILURES_PER_ADDRESS, LOGIN_FAILURE_WINDOW). */
  loginLimits: LoginLimits;
  /** Limits of the identity provider's endpoints (IDP_LIMIT_PER_ADDRESS, IDP_LIMIT_PER_ACCOUNT, IDP_LIMIT_WINDOW). */
  identityLimits: IdentityLimits;
  /** Where the limits count (REDIS_URL, REDIS_PREFIX); undefined = in this process's memory. */
  redis?: { url: string; keyPrefix?: string };
  /**
   * Whose X-Forwarded-For to believe for the client address (TRUST_PROXY: true, false, or
   * addresses/ranges; default with PUBLIC_URL: the loopback and private ranges a proxy sits in).
   */
  trustProxy: boolean | string;
  /** Who may read /metrics (METRICS_TOKEN, METRICS_ALLOW). */
  metrics: MetricsSettings;
}

const AUTH_SETTINGS: readonly AuthSetting[] = ['embedded', 'keycloak', 'basic', 'none'];
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class EnvError extends Error {
  override name = 'EnvError';
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new EnvError(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

/** Sizes accept plain bytes or a k/m/g suffix (`15m`), so operators need not multiply by hand. */
function size(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const match = /^(\d+)\s*([kmg]?)b?$/i.exec(raw.trim());
  if (!match) throw new EnvError(`${name} must be a size like 1048576, 512k or 15m, got "${raw}"`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Number(match[1]) * unit;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = raw.trim().toLowerCase() as T;
  if (!allowed.includes(value)) throw new EnvError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new EnvError(`${name} must be true or false, got "${env[name]}"`);
}

/**
 * Reads the environment. `cwd` anchors the relative defaults (data/, dist/) so that `npm start`
 * from the repository root uses ./data and ./dist.
 */
export function readEnv(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): ServerEnv {
  const nodeEnv = env.NODE_ENV?.trim() || 'development';
  const production = nodeEnv === 'production';
  const dataDir = path.resolve(cwd, env.DATA_DIR?.trim() || 'data');
  const { databaseUrl, postgres } = readDatabaseEnv(env);
  const keycloakUrl = env.KEYCLOAK_URL?.trim();
  const auth = oneOf(env, 'AUTH', AUTH_SETTINGS, 'embedded');
  if (auth === 'keycloak' && !keycloakUrl) throw new EnvError('AUTH=keycloak needs KEYCLOAK_URL (the auth-server-url of the external Keycloak)');
  if (auth === 'none' && production) throw new EnvError('AUTH=none is for local demos only and is refused when NODE_ENV=production');
  return {
    port: integer(env, 'PORT', 8080),
    host: env.HOST?.trim() || '0.0.0.0',
    dataDir,
    database: path.join(dataDir, 'moj-travnik.sqlite'),
    databaseUrl,
    postgres,
    nodeEnv,
    production,
    auth,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    limits: {
      bodyLimit: size(env, 'BODY_LIMIT', DEFAULT_LIMITS.bodyLimit),
      fileSize: size(env, 'UPLOAD_LIMIT', DEFAULT_LIMITS.fileSize),
      files: integer(env, 'UPLOAD_MAX_FILES', DEFAULT_LIMITS.files, 1),
      maxImagePixels: integer(env, 'UPLOAD_MAX_PIXELS', DEFAULT_LIMITS.maxImagePixels, 1),
      userQuota: size(env, 'UPLOAD_USER_QUOTA', DEFAULT_LIMITS.userQuota),
      thumbSize: integer(env, 'THUMB_SIZE', DEFAULT_LIMITS.thumbSize, 16),
    },
    clientDir: path.resolve(cwd, env.CLIENT_DIR?.trim() || 'dist'),
    publicUrl: env.PUBLIC_URL?.trim().replace(/\/+$/, '') || undefined,
    keycloak: keycloakUrl
      ? {
          url: keycloakUrl.replace(/\/+$/, ''),
          realm: env.KEYCLOAK_REALM?.trim() || 'moj-travnik',
          clientId: env.KEYCLOAK_CLIENT_ID?.trim() || 'moj-travnik-app',
        }
      : undefined,
    demo: flag(env, 'DEMO', !production),
    projectId: integer(env, 'PROJECT_ID', 1, 1),
    rateLimits: {
      max: integer(env, 'RATE_LIMIT_MAX', DEFAULT_RATE_LIMITS.max),
      windowMs: integer(env, 'RATE_LIMIT_WINDOW', DEFAULT_RATE_LIMITS.windowMs / 1000, 1) * 1000,
    },
    loginLimits: {
      perAccount: integer(env, 'LOGIN_FAILURES_PER_ACCOUNT', DEFAULT_LOGIN_LIMITS.perAccount, 1),
      perAddress: integer(env, 'LOGIN_FAILURES_PER_ADDRESS', DEFAULT_LOGIN_LIMITS.perAddress, 1),
      windowMs: integer(env, 'LOGIN_FAILURE_WINDOW', DEFAULT_LOGIN_LIMITS.windowMs / 1000, 1) * 1000,
    },
    identityLimits: {
      perAddress: integer(env, 'IDP_LIMIT_PER_ADDRESS', DEFAULT_IDENTITY_LIMITS.perAddress),
      perAccount: integer(env, 'IDP_LIMIT_PER_ACCOUNT', DEFAULT_IDENTITY_LIMITS.perAccount),
      windowMs: integer(env, 'IDP_LIMIT_WINDOW', DEFAULT_IDENTITY_LIMITS.windowMs / 1000, 1) * 1000,
    },
    redis: readRedisEnv(env),
    trustProxy: trustProxy(env),
    metrics: readMetricsEnv(env),
  };
}

/** Private and loopback ranges: where a reverse proxy in front of the nodes normally sits. */
const PROXY_RANGES = 'loopback, linklocal, uniquelocal';

function trustProxy(env: NodeJS.ProcessEnv): boolean | string {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw) return env.PUBLIC_URL?.trim() ? PROXY_RANGES : false;
  if (/^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
  return raw;
}

/** Who may read /metrics: a bearer token and/or client addresses (IPs or CIDR ranges). */
export interface MetricsSettings {
  token?: string;
  allow: string[];
}

/**
 * METRICS_TOKEN (at least 16 characters, sent as `Authorization: Bearer …`) and METRICS_ALLOW
 * (comma-separated addresses or CIDR ranges, matched against the connecting socket, never a
 * forwarded header). With neither set, /metrics answers 404.
 */
export function readMetricsEnv(env: NodeJS.ProcessEnv = process.env): MetricsSettings {
  const token = env.METRICS_TOKEN?.trim() || undefined;
  if (token !== undefined && token.length < 16) throw new EnvError('METRICS_TOKEN must be at least 16 characters (a random secret)');
  const allow = (env.METRICS_ALLOW ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of allow) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    if (!family || extra !== undefined || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= maxBits))) {
      throw new EnvError(`METRICS_ALLOW must list IP addresses or CIDR ranges (10.0.0.0/8), got "${entry}"`);
    }
  }
  return { token, allow };
}
