import { asLedgerError } from '../errors.js';
import type { Ledger } from '../ledger/ledger.js';
import type { StorageAdapter } from '../ledger/storage.js';

/** A storage that knows when its log has grown enough to be folded into a new snapshot. */
export interface CompactableStorage extends StorageAdapter {
  readonly compactionDue: boolean;
}

/**
 * Compacts when `storage.compactionDue`: the ledger's snapshot replaces the stored one and the
 * log restarts empty. Resolves to whether it compacted. Call it between commits, e.g. after each
 * one with `compactEvery` set; `storage` must be the ledger's own.
 */
export function compactLedger(ledger: Ledger, storage: CompactableStorage): Promise<boolean> {
  if (!storage.compactionDue) return Promise.resolve(false);
  // Both are queued now, back to back: the ledger runs queued work in call order, so no commit
  // lands between taking the snapshot and emptying the log (its record would be lost).
  const snapshot = ledger.snapshot();
  return ledger.exclusive(async () => {
    const bytes = await snapshot;
    try {
      await storage.compact(bytes);
    } catch (e) {
      throw asLedgerError(e, 'STORAGE_FAILED', 'storage');
    }
    return true;
  });
}
