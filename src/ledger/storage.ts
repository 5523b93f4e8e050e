/**
 * Durable storage behind a ledger: the latest snapshot plus an append-only log of the
 * transactions committed since. A runtime supplies one (Node directory, browser OPFS/IndexedDB,
 * Workers Durable Object storage); without one the ledger is in-memory.
 */
/** What opening a storage had to cut off its log: reported by `ledger.recovered`. */
export interface Recovered {
  /** The file or medium, and the byte offset where the cut began. */
  file: string;
  offset: number;
  /** Bytes cut. */
  bytes: number;
  /**
   * True when the cut bytes had the size of a whole frame and only its checksum failed: possibly
   * an acknowledged transaction damaged at rest, now lost. False for an append a crash
   * interrupted (never acknowledged).
   */
  wholeFrame: boolean;
  /** In words, for logs and warnings. */
  reason: string;
}

/**
 * What a ledger needs of a durable medium: load what is there, append a record durably, replace the
 * snapshot. Implement it to put a ledger on a medium the package does not ship.
 */
export interface StorageAdapter {
  /**
   * The latest snapshot (null when none) and the log records written after it, in order;
   * `recovered` when a damaged or torn tail of the log was cut off.
   */
  load(): Promise<{ snapshot: Uint8Array | null; log: Uint8Array[]; recovered?: Recovered | null }>;
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
  /** Whether the ledger should compact by itself after the commit just made (its default policy). */
  readonly autoCompactionDue?: boolean;
}
