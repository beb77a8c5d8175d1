/**
 * Acknowledging a drain pass's answers (lib/db/outbox-acknowledge.ts writes them): an item is
 * removed only by `acknowledge`, after the server answered for it. A bulk answer's
 * acknowledgement is written while the next bulk call goes (docs/architecture.md, "An edit, from
 * the screen to the server", step 3).
 */
import type { BulkResult } from '../../../common/schemas/wire';
import type { OfflineDb, OutboxItem } from '../../lib/db/database';
import type { Ack } from '../../lib/db/identity';
import { acknowledge } from '../../lib/db/outbox';

/** The acknowledgements of a bulk answer, in the batch's order, up to the first operation it does not answer. */
export function acksOf(batch: OutboxItem[], result: BulkResult): Ack[] {
  const byOpId = new Map(result.results.map((entry) => [entry.opId, entry]));
  const acks: Ack[] = [];
  for (const item of batch) {
    const entry = byOpId.get(item.opId);
    if (!entry) break; // an answer without this operation: keep it and the rest for the next pass
    const ack: Ack = { item, id: entry.id };
    if (entry.record) ack.record = entry.record;
    acks.push(ack);
  }
  return acks;
}

/**
 * The acknowledgement of the last answer while it is still being written: the next bulk call
 * goes meanwhile (its items already follow that answer in memory, as the acknowledgement
 * rewrites them on the device), and is handled only after it committed. Anything else waits
 * for it first (`settle`), so the device changes in the order of the answers.
 */
export class AckWriter {
  private writing: Promise<{ error?: unknown }> | null = null;

  constructor(
    private readonly db: OfflineDb,
    /** The items the acknowledgement rewrote, and how many it acknowledged. */
    private readonly acknowledged: (updated: OutboxItem[], count: number) => void,
  ) {}

  /** Starts writing the acknowledgement of `acks`; its failure is thrown by the next `settle`. */
  start(acks: Ack[]): void {
    this.writing = acknowledge(this.db, acks).then(
      (ack) => {
        this.acknowledged(ack.updated, acks.length);
        return {};
      },
      (error: unknown) => ({ error }),
    );
  }

  /** Waits for the acknowledgement being written; throws its failure. */
  async settle(): Promise<void> {
    if (!this.writing) return;
    const { error } = await this.writing;
    this.writing = null;
    if (error !== undefined) throw error;
  }

  /** At the end of the pass, whatever ended it: the device is left as the answers so far made it. */
  async finish(): Promise<void> {
    if (this.writing) await this.writing;
  }
}
