/**
 * Attachments in an S3-compatible object store (docs/deploy.md), against a real S3 server over HTTP:
 * s3rver (npm), an S3 REST implementation storing on disk, on 127.0.0.1:0. The app's own routes
 * upload, download (original and thumbnail) and delete; the test checks the objects in the bucket
 * with its own S3 client, and that no bytes land under DATA_DIR/attachments. The S3 client sends
 * real signed requests (path style, as for MinIO and most self-hosted stores).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { S3Storage } from '../../src/server/attachments/s3-storage';
import { readS3Env } from '../../src/server/env';
import { buildTestApp, TEST_USER_HEADER, USERS, type TestApp } from './helpers/build-test-app';
import { farmerRows, type FarmerRows } from './helpers/demo-ids';
import { jpegImage, multipart } from '../fixtures/uploads';

const BUCKET = 'moj-travnik-test';
const s3Dir = mkdtempSync(path.join(os.tmpdir(), 'mt-s3rver-'));
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mt-s3-app-'));
let server: S3rver;
let endpoint: string;
let t: TestApp;
let own: FarmerRows;
let storage: S3Storage;
let client: S3Client;

beforeAll(async () => {
  server = new S3rver({ address: '127.0.0.1', port: 0, directory: s3Dir, silent: true, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const address = (await server.run()) as { port: number };
  endpoint = `http://127.0.0.1:${address.port}`;
  // The settings come through the same reader the server uses (S3_* variables).
  const settings = readS3Env({
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: endpoint,
    S3_REGION: 'eu-central-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_PREFIX: 'priloge',
  })!;
  storage = new S3Storage(settings);
  client = storage.client;
  t = await buildTestApp({ dataDir, attachmentStorage: storage });
  own = await farmerRows(t.app, t.tables, USERS.farmer1);
});

afterAll(async () => {
  await t?.close();
  await server?.close();
  rmSync(s3Dir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

async function objectKeys(): Promise<string[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (listed.Contents ?? []).map((o) => o.Key!).sort();
}

async function send(method: string, url: string, body?: { body: Buffer; contentType: string }) {
  const response = await fetch(`${t.origin}${url}`, {
    method,
    headers: { [TEST_USER_HEADER]: USERS.farmer1, ...(body ? { 'content-type': body.contentType } : {}) },
    body: body ? new Uint8Array(body.body) : undefined,
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('S3 attachment storage', () => {
  it('reads its settings from S3_* variables and refuses half-given credentials', () => {
    expect(readS3Env({})).toBeUndefined();
    expect(readS3Env({ S3_BUCKET: 'b', S3_ENDPOINT: 'http://minio:9000' })).toEqual({
      bucket: 'b',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: true,
      prefix: undefined,
    });
    expect(readS3Env({ S3_BUCKET: 'b' })!.forcePathStyle).toBe(false);
    expect(() => readS3Env({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'x' })).toThrow(/go together/);
    expect(() => readS3Env({ S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
  });

  it('stores an upload and its thumbnail as objects, serves both back, deletes both', async () => {
    const photo = await jpegImage(640, 480);
    const slot = t.tables.paths.attachments!.photos!;
    const created = await send(
      'POST',
      '/api/Records/1/attachment',
      multipart([
        { name: 'tableId', value: String(t.tables.paths.id) },
        { name: 'recordId', value: String(own.paths[0]) },
        { name: 'tableAttachmentInfoId', value: String(slot) },
        { name: 'file', file: { fileName: 'travnik.jpg', contentType: 'image/jpeg', content: photo } },
      ]),
    );
    expect(created.status).toBe(201);
    const info = JSON.parse(created.bytes.toString('utf8')) as { id: number; size: number };
    expect(info.size).toBe(photo.length);

    const keys = await objectKeys();
    expect(keys).toHaveLength(2);
    expect(keys.every((k) => /^priloge\/[0-9a-f]{2}\/[0-9a-f-]{36}(\.thumb)?$/.test(k))).toBe(true);
    // Nothing on the node's disk: any node can serve it.
    const local = path.join(dataDir, 'attachments');
    expect(existsSync(local) ? readdirSync(local, { recursive: true }) : []).toEqual([]);

    const download = await send('GET', `/api/Records/1/attachment/${info.id}`);
    expect(download.status).toBe(200);
    expect(download.bytes.equals(photo)).toBe(true);
    const thumb = await send('GET', `/api/Records/1/attachment/${info.id}?thumb=true`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    expect(thumb.bytes.length).toBeGreaterThan(0);
    expect(thumb.bytes.length).toBeLessThan(photo.length);

    const removed = await send('DELETE', `/api/Records/1/attachment/${info.id}`);
    expect(removed.status).toBeLessThan(300);
    expect(await objectKeys()).toEqual([]);
    expect((await send('GET', `/api/Records/1/attachment/${info.id}`)).status).toBe(404);
  });

  it('answers missing objects as absent, removes idempotently, and refuses keys that are not ours', async () => {
    const key = '0a/0a000000-0000-4000-8000-000000000000';
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();
    await storage.put(key, { bytes: new TextEncoder().encode('trava') });
    expect(await storage.exists(key)).toBe(true);
    const got = await storage.get(key);
    expect(got!.size).toBe(5);
    const chunks: Buffer[] = [];
    for await (const chunk of got!.stream) chunks.push(Buffer.from(chunk as Uint8Array));
    expect(Buffer.concat(chunks).toString('utf8')).toBe('trava');
    await storage.remove(key);
    await storage.remove(key);
    expect(await storage.exists(key)).toBe(false);
    await expect(storage.put('../../etc/passwd', { bytes: new Uint8Array(1) })).rejects.toThrow(/invalid storage key/);
  });
});
