/**
 * Follows saved moves through the outbox: read again whenever the outbox's mirror changes (the
 * waiting count or the items that need the user, features/sync), so a move shows as waiting, sent
 * (the server acknowledged it) or refused with the server's Slovenian reason.
 */
import { useEffect, useState } from 'react';
import { useOfflineDb } from '../../app/hooks';
import { moveOutcomes, type MoveOutcome, type SavedMove } from './review-move';

/** What the screens pass of the outbox (features/sync's pending count and attention items): a change marker. */
export interface OutboxView {
  pending: number;
  attention: readonly unknown[];
}

export function useMoveOutcomes(formsTableId: number | undefined, moves: readonly SavedMove[], outbox: OutboxView): Map<string, MoveOutcome> {
  const db = useOfflineDb();
  const [outcomes, setOutcomes] = useState<Map<string, MoveOutcome>>(() => new Map());
  useEffect(() => {
    if (formsTableId === undefined || !moves.length) {
      setOutcomes((known) => (known.size ? new Map() : known));
      return;
    }
    let current = true;
    void moveOutcomes(db, formsTableId, moves).then((found) => {
      if (current) setOutcomes(found);
    });
    return () => {
      current = false;
    };
  }, [db, formsTableId, moves, outbox.pending, outbox.attention]);
  return outcomes;
}
