/**
 * Which storage objects belong to an open ledger: each to that one ledger until it closes. A
 * second ledger on the same storage would write to it behind the first one's back.
 */
const bound = new WeakSet<object>();

/** Claims `storage` for a ledger being opened; false when another open ledger holds it. */
export function bindStorage(storage: object): boolean {
  if (bound.has(storage)) return false;
  bound.add(storage);
  return true;
}

/** Frees `storage` (its ledger closed, or its open failed). */
export function unbindStorage(storage: object): void {
  bound.delete(storage);
}
