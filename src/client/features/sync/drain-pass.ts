/**
 * What one drain pass (drain.ts) works with: the transport it sends through, its options, the
 * state it keeps between calls (the queue as it goes, the counts, whether the session was renewed
 * already, the acknowledgement being written) and the outcomes it ends with.
 */
import type { AttachmentInfo, BulkOperation, BulkResult } from '../../../common/schemas/wire';
import type { ApiError } from '../../lib/api/base-query';
import type { OfflineDb, OutboxItem } from '../../lib/db/database';
import type { AckWriter } from './drain-acks';
import type { PassQueue } from './drain-queue';

export type TransportResult<T> = { data: T } | { error: ApiError };

export interface DrainTransport {
  bulk(api: 'Records' | 'Features', projectId: number, operations: BulkOperation[]): Promise<TransportResult<BulkResult>>;
  uploadAttachment(item: OutboxItem, file: { data: ArrayBuffer; name: string; mimeType: string }): Promise<TransportResult<AttachmentInfo>>;
  deleteAttachment(item: OutboxItem): Promise<TransportResult<unknown>>;
}

export interface DrainOptions {
  db: OfflineDb;
  transport: DrainTransport;
  /** Renews the session after a 401; true = retry. */
  refreshAuth?: () => Promise<boolean>;
  /** Largest bulk call (MODIFY_CHUNK_SIZE); 1 sends one request per edit (bench baseline). */
  maxBatch?: number;
  /** Stops the pass between calls (tab hidden, store torn down). */
  signal?: AbortSignal;
}

export type DrainOutcome =
  /** Nothing sendable is left (items waiting for the user may remain). */
  | { kind: 'done'; sent: number; requests: number }
  /** Network or 5xx: try again after a back-off. */
  | { kind: 'transient'; sent: number; requests: number; error: ApiError }
  /** 401 and the session could not be renewed: hold everything until sign-in. */
  | { kind: 'auth'; sent: number; requests: number; error: ApiError }
  | { kind: 'aborted'; sent: number; requests: number };

/** One pass's state. */
export interface DrainPass {
  db: OfflineDb;
  transport: DrainTransport;
  options: DrainOptions;
  maxBatch: number;
  /** The outbox as the pass goes through it. */
  queue: PassQueue;
  /** Items acknowledged and requests made so far (every outcome reports them). */
  counts: { sent: number; requests: number };
  /** The session was renewed once already in this pass. */
  refreshed: boolean;
  /** After a 4xx on a batch, send one by one until past the items of that batch. */
  isolateUntilSeq: number;
  /** The acknowledgement of the last bulk answer, while it is written. */
  acks: AckWriter;
}

/** The pass ends with `kind` (and the counts so far). */
export function outcome(pass: DrainPass, kind: 'done' | 'aborted'): DrainOutcome;
export function outcome(pass: DrainPass, kind: 'transient' | 'auth', error: ApiError): DrainOutcome;
export function outcome(pass: DrainPass, kind: DrainOutcome['kind'], error?: ApiError): DrainOutcome {
  const { sent, requests } = pass.counts;
  return error ? ({ kind, sent, requests, error } as DrainOutcome) : ({ kind, sent, requests } as DrainOutcome);
}
