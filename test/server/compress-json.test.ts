/**
 * JSON answers above the threshold are compressed for clients that accept it (brotli first, else
 * gzip, never an encoding refused with q=0), with Vary; small answers and clients without
 * Accept-Encoding get the plain JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import zlib from 'node:zlib';
import { buildTestApp, type TestApp } from './helpers/build-test-app';
import { chooseEncoding, COMPRESS_JSON_MIN_BYTES } from '../../src/server/http/compress-json';
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
});
