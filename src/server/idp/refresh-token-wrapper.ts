/**
 * keycloak-js decodes the refresh token as a JWT (it reads its payload and throws "Unable to
 * decode token, payload not found" otherwise), because Keycloak's refresh tokens are JWTs.
 * oidc-provider's refresh tokens are opaque random strings. So on the way out we wrap the opaque
 * value in a JWT-shaped envelope — header and payload readable, the opaque token as the third
 * segment — and on the way in we unwrap it before oidc-provider looks at it.
 *
 * The envelope is deliberately unsigned (`alg: none`): nothing trusts its payload. The secret is
 * the opaque token inside, which oidc-provider checks (existence, expiry, client, session) exactly
 * as before. The payload's `exp` tells the client when it must sign in again.
 */
import * as querystring from 'node:querystring';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';

const HEADER = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
const BODY_LIMIT = 56 * 1024;
const OPAQUE = /^[A-Za-z0-9_-]+$/;

function wrapRefreshToken(opaque: string, claims: { exp?: number; iat?: number; azp?: string; sub?: string }): string {
  const payload = Buffer.from(JSON.stringify({ typ: 'Refresh', ...claims })).toString('base64url');
  return `${HEADER}.${payload}.${opaque}`;
}

/** The opaque token inside an envelope; anything else is returned unchanged (oidc-provider rejects it). */
function unwrapRefreshToken(value: string): string {
  const parts = value.split('.');
  if (parts.length === 3 && parts[0] === HEADER && OPAQUE.test(parts[2]!)) return parts[2]!;
  return value;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw Object.assign(new Error('request entity too large'), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

interface KoaLikeContext {
  method: string;
  path: string;
  status: number;
  body: unknown;
  req: IncomingMessage;
  request: { req: IncomingMessage };
  is(type: string): string | false | null;
  set(name: string, value: string): void;
}

/** Looks at a token or revocation form (tokens unwrapped) before oidc-provider does; true when it has answered the request itself. */
export type FormInspector = (ctx: KoaLikeContext, params: querystring.ParsedUrlQuery) => Promise<boolean>;

/**
 * A request that reads as `body` but otherwise is the original (headers with the new length,
 * socket, URL, mount path): oidc-provider then parses it exactly as if the client had sent it.
 */
function replayRequest(original: IncomingMessage & { baseUrl?: string }, body: Buffer): IncomingMessage {
  const replay = Readable.from([body], { objectMode: false }) as unknown as IncomingMessage & { baseUrl?: string };
  Object.assign(replay, {
    headers: { ...original.headers, 'content-length': String(body.length) },
    rawHeaders: original.rawHeaders,
    method: original.method,
    url: original.url,
    httpVersion: original.httpVersion,
    httpVersionMajor: original.httpVersionMajor,
    httpVersionMinor: original.httpVersionMinor,
    socket: original.socket,
    baseUrl: original.baseUrl,
  });
  return replay;
}

/**
 * Koa middleware for oidc-provider (provider.use): unwraps `refresh_token` / `token` in form
 * posts to the given paths (and shows the form to `inspect`), and wraps `refresh_token` in token
 * responses.
 */
export function refreshTokenEnvelope(
  paths: { token: string; revocation: string },
  describe: (opaque: string) => Promise<{ exp?: number; iat?: number; azp?: string; sub?: string }>,
  inspect?: FormInspector,
) {
  return async (ctx: KoaLikeContext, next: () => Promise<void>) => {
    if (ctx.method === 'POST' && (ctx.path === paths.token || ctx.path === paths.revocation) && ctx.is('application/x-www-form-urlencoded')) {
      const params = querystring.parse(await readBody(ctx.req));
      for (const name of ['refresh_token', 'token'] as const) {
        const value = params[name];
        if (typeof value === 'string') params[name] = unwrapRefreshToken(value);
      }
      // The form is read here anyway: whoever else needs it (the token endpoint's limit per account) looks now.
      if (inspect && (await inspect(ctx, params))) return;
      const replay = replayRequest(ctx.req, Buffer.from(querystring.stringify(params)));
      ctx.req = replay;
      ctx.request.req = replay;
    }
    await next();
    if (ctx.path === paths.token && ctx.status === 200 && ctx.body && typeof ctx.body === 'object') {
      const body = ctx.body as { refresh_token?: unknown };
      if (typeof body.refresh_token === 'string') {
        ctx.body = { ...body, refresh_token: wrapRefreshToken(body.refresh_token, await describe(body.refresh_token)) };
      }
    }
  };
}
