/**
 * Attachment bytes in an S3-compatible object store (docs/deploy.md): AWS S3, MinIO, Ceph RGW, Garage,
 * SeaweedFS… configured by S3_* environment variables (env.ts readS3Env). With it, API nodes keep
 * no files of their own, so any node serves any attachment. Keys are the same random keys as the
 * local backend's, under an optional prefix.
 */
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { AttachmentStorage } from './storage';

export interface S3StorageConfig {
  bucket: string;
  /** Endpoint of a non-AWS store (http://minio:9000); omitted for AWS itself. */
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** bucket in the path (http://host/bucket/key) rather than the host name: what most self-hosted stores need. */
  forcePathStyle: boolean;
  /** Prefix of every key ("attachments/"), so one bucket can serve several deployments. */
  prefix?: string;
}

const KEY_PATTERN = /^[0-9a-f]{2}\/[0-9a-f-]{36}(\.thumb)?$/;

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

export class S3Storage implements AttachmentStorage {
  readonly client: S3Client;

  constructor(
    readonly config: S3StorageConfig,
    client?: S3Client,
  ) {
    this.client =
      client ??
      new S3Client({
        region: config.region,
        endpoint: config.endpoint,
        forcePathStyle: config.forcePathStyle,
        // Checksums only where S3 requires them: the SDK's default sends streamed bodies as
        // aws-chunked with trailing CRC32, which many S3-compatible stores store verbatim.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        ...(config.accessKeyId && config.secretAccessKey ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } } : {}),
      });
  }

  objectKey(key: string): string {
    // Keys are ours, but a corrupted row must not be able to name another object.
    if (!KEY_PATTERN.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    return `${this.config.prefix ?? ''}${key}`;
  }

  async put(key: string, source: { path: string } | { bytes: Uint8Array }): Promise<void> {
    const Key = this.objectKey(key);
    if ('bytes' in source) {
      await this.client.send(new PutObjectCommand({ Bucket: this.config.bucket, Key, Body: source.bytes, ContentLength: source.bytes.byteLength }));
      return;
    }
    // Streamed with its length (S3 needs it for a single PUT); files are bounded by UPLOAD_LIMIT.
    const { size } = await stat(source.path);
    await this.client.send(new PutObjectCommand({ Bucket: this.config.bucket, Key, Body: createReadStream(source.path), ContentLength: size }));
    // As the disk backend moves the file: the temp copy is gone once stored.
    await rm(source.path, { force: true });
  }

  async get(key: string): Promise<{ stream: Readable; size: number } | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
      const body = object.Body;
      if (!body) return null;
      const stream = body instanceof Readable ? body : Readable.fromWeb((body as { transformToWebStream(): ReadableStream }).transformToWebStream() as never);
      return { stream, size: Number(object.ContentLength ?? 0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    // DeleteObject of a missing key succeeds on S3: removal stays idempotent.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }
}
