import type { Ledger } from '../ledger/ledger.js';
import type { CompactableStorage } from '../ledger/storage.js';

export type { CompactableStorage } from '../ledger/storage.js';

/** `ledger.compact(storage)`, as a function (the name the entries have always exported). */
export function compactLedger(ledger: Ledger, storage: CompactableStorage): Promise<boolean> {
  return ledger.compact(storage);
}
