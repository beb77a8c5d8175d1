/**
 * The steps every upload route shares, in the order that keeps "all or nothing":
 *
 *   1. `receiveMultipart` + `checkFile` (upload.ts): temp files, refused before anything is kept;
 *   2. `assertQuota`: the caller's stored bytes plus these files within the per-user quota;
 *   3. `storeFiles`: bytes and thumbnails moved into storage under fresh random keys;
 *   4. the caller's DB transaction inserts the rows (and the record, for `full`);
 *   5. if 4 fails: `removeStored` deletes what 3 wrote, so no orphan file remains.
 *
 * Deleting goes the other way: the row is marked deleted in the transaction, the bytes are removed
 * after it commits (a failed removal leaves an unreferenced file, never a row without bytes).
 */
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/dialect';
import type { UploadLimits } from '../env';
import type { AttachmentSlot } from '../project-schema';
import type { AttachmentRow } from './attachment-repository';
import { countInSlot, usedBytes } from './attachment-repository';
import { LocalDiskStorage, newStorageKey, thumbKey, type AttachmentStorage } from './storage';
import { type CheckedFile, describeBytes, tooLarge } from './upload';
import { invalid } from '../domain-errors';

export interface StoredFile {
  file: CheckedFile;
  storageKey: string;
  thumbKey: string | null;
}

export interface AttachmentService {
  storage: AttachmentStorage;
  limits: UploadLimits;
  /** Where uploads are streamed before they are checked (same disk as the storage: moves are renames). */
  tmpDir: string;
}

export function createAttachmentService(dataDir: string, limits: UploadLimits, storage?: AttachmentStorage): AttachmentService {
  return {
    storage: storage ?? new LocalDiskStorage(path.join(dataDir, 'attachments')),
    limits,
    tmpDir: path.join(dataDir, 'tmp'),
  };
}

/** 413 when the caller's stored attachments plus `incoming` bytes exceed the per-user quota. */
export async function assertQuota(db: Executor, limits: UploadLimits, caller: string, incoming: number): Promise<void> {
  if (limits.userQuota <= 0 || incoming === 0) return;
  const used = await usedBytes(db, caller);
  if (used + incoming > limits.userQuota) {
    throw tooLarge(
      `upload quota exceeded: ${describeBytes(used)} of ${describeBytes(limits.userQuota)} used, ` +
        `${describeBytes(incoming)} more does not fit; delete attachments you no longer need or ask an editor`,
    );
  }
}

/** 400 when the slot would hold more files than it allows; 415 is handled by checkFile. */
export async function assertSlotRoom(db: Executor, slot: AttachmentSlot, recordId: number, adding: number): Promise<void> {
  if (slot.maxFiles === null || adding === 0) return;
  const present = await countInSlot(db, recordId, slot.id);
  if (present + adding > slot.maxFiles) {
    throw invalid(`attachment slot "${slot.name}" holds at most ${slot.maxFiles} files (has ${present})`);
  }
}

export async function storeFiles(service: AttachmentService, files: CheckedFile[]): Promise<StoredFile[]> {
  const stored: StoredFile[] = [];
  try {
    for (const file of files) {
      const key = newStorageKey();
      const entry: StoredFile = { file, storageKey: key, thumbKey: null };
      stored.push(entry);
      await service.storage.put(key, { path: file.tempPath });
      if (file.thumbnail) {
        entry.thumbKey = thumbKey(key);
        await service.storage.put(entry.thumbKey, { bytes: file.thumbnail });
      }
    }
    return stored;
  } catch (error) {
    await removeStored(service, stored);
    throw error;
  }
}

/** Removes stored objects; never throws (runs on failure paths), logs what it could not remove. */
export async function removeStored(
  service: AttachmentService,
  stored: Array<Pick<StoredFile, 'storageKey' | 'thumbKey'> | Pick<AttachmentRow, 'storageKey' | 'thumbKey'>>,
  log?: FastifyBaseLogger,
): Promise<void> {
  const keys = stored.flatMap((entry) => [entry.storageKey, entry.thumbKey].filter((key): key is string => Boolean(key)));
  await Promise.all(
    keys.map((key) =>
      service.storage.remove(key).catch((error: unknown) => {
        log?.warn({ err: error, key }, 'attachment file could not be removed');
      }),
    ),
  );
}
