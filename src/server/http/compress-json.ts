/**
 * JSON answers above COMPRESS_JSON_MIN_BYTES go out compressed when the client accepts it: brotli
 * (at a fast level: the answer is made per request) or else gzip, with `Content-Encoding` and
 * `Vary: Accept-Encoding`. A season's search pages and config.json shrink to a fraction on a slow
 * mobile link. Smaller answers are sent as they are (compressing them costs more than it saves).
 * The built client's files are compressed at build time instead (plugins/static.ts).
 *
 * Answers up to COMPRESS_JSON_INLINE_BYTES are compressed on the event loop (about 0.2 ms for the
 * 80 kB answer of a 200-operation bulk call): handing them to libuv's thread pool costs more than
 * that when the machine is busy, because the answer then waits for that thread to be scheduled
 * (in the 10,000-edit drain of bench/README.md, about 1–2 ms per call). Larger answers go to the
 * thread pool, so that no one answer holds the event loop for long.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

export const COMPRESS_JSON_MIN_BYTES = 1024;
export const COMPRESS_JSON_INLINE_BYTES = 256 * 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

type Encoding = 'br' | 'gzip';

/** The encoding to use for an Accept-Encoding header: br before gzip, honouring `;q=0`. */
export function chooseEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    if (!token) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(token, q === undefined ? 1 : Number(q));
  }
  const weight = (name: Encoding) => accepted.get(name) ?? (accepted.has('*') ? accepted.get('*')! : 0);
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}

function addVary(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const value = Array.isArray(current) ? current.join(', ') : current === undefined ? '' : String(current);
  if (value === '*' || /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(value)) return;
  reply.header('vary', value ? `${value}, accept-encoding` : 'accept-encoding');
}

/** `raw` compressed: at once (a Buffer) up to COMPRESS_JSON_INLINE_BYTES, else on the thread pool (a Promise). */
export function compressJson(raw: Buffer, encoding: Encoding): Buffer | Promise<Buffer> {
  const inline = raw.length <= COMPRESS_JSON_INLINE_BYTES;
  if (encoding === 'br') {
    const options = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } };
    return inline ? zlib.brotliCompressSync(raw, options) : brotli(raw, options);
  }
  const options = { level: 6 };
  return inline ? zlib.gzipSync(raw, options) : gzip(raw, options);
}

export function registerJsonCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.hasHeader('content-encoding') || !JSON_TYPE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    const raw = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (raw.length < COMPRESS_JSON_MIN_BYTES) return payload;
    addVary(reply);
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const body = await compressJson(raw, encoding);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return body;
  });
}
