/**
 * JSON answers above the threshold are compressed for clients that accept it (brotli first, else
 * gzip, never an encoding refused with q=0), with Vary; small answers and clients without
 * Accept-Encoding get the plain JSON. Answers up to the inline limit are compressed at once,
 * larger ones on the thread pool, started before the answer is sent when a route asks for it
 * (compressEarly) and used only if that very answer goes out.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { buildTestApp, type TestApp } from './helpers/build-test-app';
import {
  chooseEncoding,
  compressEarly,
  compressJson,
  COMPRESS_JSON_INLINE_BYTES,
  COMPRESS_JSON_MIN_BYTES,
  registerJsonCompression,
} from '../../src/server/http/compress-json';
import { rawGet } from './helpers/raw-get';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});

afterAll(async () => {
  await t.close();
});

describe('JSON compression', () => {
  it('compresses a large JSON answer with brotli, the same JSON once decoded', async () => {
    const plain = await rawGet(t.origin + '/config.json', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(COMPRESS_JSON_MIN_BYTES);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);

    const br = await rawGet(t.origin + '/config.json', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    expect(JSON.parse(zlib.brotliDecompressSync(br.body).toString())).toEqual(JSON.parse(plain.body.toString()));

    const gz = await rawGet(t.origin + '/config.json', { 'accept-encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.body).toString())).toEqual(JSON.parse(plain.body.toString()));
  });

  it('leaves small answers as they are', async () => {
    const response = await rawGet(t.origin + '/api/Test', { 'accept-encoding': 'br' });
    expect(response.status).toBe(200);
    expect(response.body.length).toBeLessThan(COMPRESS_JSON_MIN_BYTES);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(() => JSON.parse(response.body.toString())).not.toThrow();
  });

  it('reads Accept-Encoding with its weights', () => {
    expect(chooseEncoding(undefined)).toBeNull();
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*, br;q=0, gzip;q=0')).toBeNull();
  });

  it('compresses answers up to the inline limit at once and larger ones on the thread pool, both decoding to the same JSON', async () => {
    const answerOf = (bytes: number) => {
      const records = Array.from({ length: Math.ceil(bytes / 60) }, (_, i) => ({ id: 10_000_000 + i, properties: { note: `zapis ${i}` } }));
      return Buffer.from(JSON.stringify({ results: records }));
    };
    const inline = answerOf(COMPRESS_JSON_INLINE_BYTES / 2);
    const pooled = answerOf(COMPRESS_JSON_INLINE_BYTES * 2);
    expect(inline.length).toBeLessThanOrEqual(COMPRESS_JSON_INLINE_BYTES);
    expect(pooled.length).toBeGreaterThan(COMPRESS_JSON_INLINE_BYTES);
    for (const [encoding, decode] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      const atOnce = compressJson(inline, encoding);
      expect(Buffer.isBuffer(atOnce)).toBe(true);
      expect(decode(atOnce as Buffer).equals(inline)).toBe(true);
      const later = compressJson(pooled, encoding);
      // A promise (of the module's realm, not the test's: checked by shape).
      expect(Buffer.isBuffer(later)).toBe(false);
      expect(typeof (later as Promise<Buffer>).then).toBe('function');
      const body = await later;
      expect(body.length).toBeLessThan(pooled.length / 4);
      expect(decode(body).equals(pooled)).toBe(true);
    }
  });

  it('sends the compression started early only with the answer it was started for', async () => {
    const answerOf = (note: string) =>
      JSON.stringify({ results: Array.from({ length: Math.ceil((COMPRESS_JSON_INLINE_BYTES * 2) / 60) }, (_, i) => ({ id: i, note: `${note} ${i}` })) });
    const started = answerOf('started');
    const other = answerOf('other');
    const app = Fastify();
    registerJsonCompression(app);
    // The answer compressEarly was given goes out; then one where another answer goes out instead (an error's, say).
    app.get('/same', async (request, reply) => {
      compressEarly(request, started);
      return reply.type('application/json').send(started);
    });
    app.get('/other', async (request, reply) => {
      compressEarly(request, started);
      return reply.type('application/json').send(other);
    });
    try {
      for (const [url, expected] of [
        ['/same', started],
        ['/other', other],
      ] as const) {
        for (const [encoding, decode] of [
          ['br', zlib.brotliDecompressSync],
          ['gzip', zlib.gunzipSync],
        ] as const) {
          const response = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });
          expect(response.headers['content-encoding']).toBe(encoding);
          expect(response.headers.vary).toMatch(/accept-encoding/i);
          expect(decode(response.rawPayload).toString()).toBe(expected);
        }
        const plain = await app.inject({ method: 'GET', url });
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.body).toBe(expected);
      }
    } finally {
      await app.close();
    }
  });
});
