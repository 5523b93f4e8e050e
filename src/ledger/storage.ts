/**
 * Durable storage behind a ledger: the latest snapshot plus an append-only log of the
 * transactions committed since. A runtime supplies one (Node directory, browser OPFS/IndexedDB,
 * Workers Durable Object storage); without one the ledger is in-memory.
 */
export interface StorageAdapter {
  /** The latest snapshot (null when none) and the log records written after it, in order. */
  load(): Promise<{ snapshot: Uint8Array | null; log: Uint8Array[] }>;
  /** Appends one record; resolves only once the record is durable. */
  append(record: Uint8Array): Promise<void>;
  /** Replaces the snapshot and empties the log, atomically. */
  compact(snapshot: Uint8Array): Promise<void>;
  /** Releases what the storage holds (a lock, a file); `ledger.close()` calls it. */
  close?(): Promise<void>;
}

/** A storage that knows when its log has grown enough to be folded into a new snapshot. */
export interface CompactableStorage extends StorageAdapter {
  readonly compactionDue: boolean;
}
