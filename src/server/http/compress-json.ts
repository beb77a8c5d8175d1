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
 * thread pool, so that no one answer holds the event loop for long. A write route can start that
 * early (compressEarly): a bulk call's answer is made before its transaction commits, and the
 * commit (SQLite's, on the event loop) and the compression then run at the same time.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

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

/**
 * The output buffer of a compression: as large as its input, so that one pass compresses it all.
 * On the thread pool this matters: with zlib's default of 16 kB, each full buffer goes back to the
 * event loop before the pool goes on, so a large answer compressed while SQLite commits on the
 * event loop waited for the commit after every 16 kB instead of running beside it (bench/README.md).
 */
function outputChunkSize(raw: Buffer): number {
  return Math.max(zlib.constants.Z_DEFAULT_CHUNK, raw.length);
}

/** `raw` compressed: at once (a Buffer) up to COMPRESS_JSON_INLINE_BYTES, else on the thread pool (a Promise). */
export function compressJson(raw: Buffer, encoding: Encoding): Buffer | Promise<Buffer> {
  const inline = raw.length <= COMPRESS_JSON_INLINE_BYTES;
  if (encoding === 'br') {
    const options = {
      chunkSize: outputChunkSize(raw),
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
    };
    return inline ? zlib.brotliCompressSync(raw, options) : brotli(raw, options);
  }
  const options = { level: 6, chunkSize: outputChunkSize(raw) };
  return inline ? zlib.gzipSync(raw, options) : gzip(raw, options);
}

/** Compressions started by compressEarly, by request: the text, its encoding and the compressed bytes to come. */
const early = new WeakMap<FastifyRequest, { payload: string; encoding: Encoding; body: Promise<Buffer> }>();

/**
 * Starts compressing `payload` on the thread pool now, when it is the JSON answer `request` is
 * about to send and large enough to go there anyway: the onSend hook then takes this instead of
 * starting it, if the answer sent is that very text (not, say, an error answer instead).
 */
export function compressEarly(request: FastifyRequest, payload: string): void {
  const encoding = chooseEncoding(request.headers['accept-encoding']);
  // A UTF-8 text is at most three bytes per UTF-16 unit: shorter ones are compressed inline.
  if (!encoding || payload.length * 3 <= COMPRESS_JSON_INLINE_BYTES) return;
  const raw = Buffer.from(payload);
  if (raw.length <= COMPRESS_JSON_INLINE_BYTES) return;
  const body = compressJson(raw, encoding) as Promise<Buffer>;
  // Awaited by onSend, or dropped when another answer goes out instead.
  body.catch(() => undefined);
  early.set(request, { payload, encoding, body });
}

export function registerJsonCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.hasHeader('content-encoding') || !JSON_TYPE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    const started = early.get(request);
    if (started?.payload === payload) {
      // compressEarly's: large, and the encoding this request accepts.
      addVary(reply);
      reply.header('content-encoding', started.encoding);
      reply.removeHeader('content-length');
      return started.body;
    }
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
