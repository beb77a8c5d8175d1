/**
 * Where attachment bytes live. Rows in the database hold name, MIME type, size and a storage key;
 * the bytes sit behind this interface so an object store (S3) can replace the local disk
 * without touching routes. Keys are random (never derived from user input), so a file name can
 * never become a path.
 *
 * Guarantee of the local backend: `put` writes to a temporary file in the same directory and
 * renames it into place, so a reader never sees half a file and a crash leaves no partial object
 * under a live key.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, copyFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

export interface AttachmentStorage {
  /** Stores the file at `sourcePath` (moved when possible) or the given bytes under `key`. */
  put(key: string, source: { path: string } | { bytes: Uint8Array }): Promise<void>;
  /** A stream of the object, or null when it does not exist. */
  get(key: string): Promise<{ stream: Readable; size: number } | null>;
  /** Removes the object; a missing object is not an error (removal is idempotent). */
  remove(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

/** A fresh random storage key; the thumbnail of an attachment lives at `${key}.thumb`. */
export function newStorageKey(): string {
  const id = randomUUID();
  // Two-level fan-out keeps directories small on file systems that slow down with many entries.
  return `${id.slice(0, 2)}/${id}`;
}

export function thumbKey(key: string): string {
  return `${key}.thumb`;
}

const KEY_PATTERN = /^[0-9a-f]{2}\/[0-9a-f-]{36}(\.thumb)?$/;

export class LocalDiskStorage implements AttachmentStorage {
  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    // Keys are ours, but a corrupted row must not be able to point outside the root.
    if (!KEY_PATTERN.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    return path.join(this.root, key);
  }

  async put(key: string, source: { path: string } | { bytes: Uint8Array }): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomUUID()}.part`;
    try {
      if ('bytes' in source) {
        await writeFile(temp, source.bytes);
      } else {
        // rename fails across devices (temp dir on another mount): copy then.
        await rename(source.path, temp).catch(async () => {
          await copyFile(source.path, temp);
          await rm(source.path, { force: true });
        });
      }
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<{ stream: Readable; size: number } | null> {
    const file = this.pathOf(key);
    try {
      const info = await stat(file);
      return { stream: createReadStream(file), size: info.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      await stat(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }
}
