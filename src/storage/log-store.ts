/**
 * The one log store behind every storage adapter: the latest snapshot plus the records appended
 * since, kept on a `LogMedium` (a directory, OPFS, IndexedDB, Durable Object storage). The store
 * holds what every medium shares — the lifecycle (load before writes, nothing after close), the
 * count of acknowledged records that paces compaction, and the rule that once a failure may have
 * left the medium where a further append could be lost, every write is refused until `load`
 * recovers. Each medium holds only how its bytes are laid out and made durable; the framed-file
 * recovery protocol of the two file media is written once in framed-log.ts.
 */
import { LedgerError } from '../errors.js';
import type { Recovered, StorageAdapter } from '../ledger/storage.js';

export interface LogState {
  snapshot: Uint8Array | null;
  log: Uint8Array[];
  /** What recovery cut off the log, if anything. */
  recovered?: Recovered | null;
}

/** Called by a medium when a failure left it unable to take further writes safely. */
export type Breakage = (cause: unknown) => void;

/** Where a log store's bytes live. Every method may throw; the store never retries. */
export interface LogMedium {
  /** Names the medium in messages: a directory, `opfs:<name>`, a database. */
  readonly where: string;
  /**
   * Brings the medium back to its last acknowledged state (leftover drafts removed, a torn
   * tail cut off, a log the snapshot already covers dropped) and reads it.
   */
  recover(): Promise<LogState>;
  /**
   * Makes `record` durable after the acknowledged ones before resolving. On failure nothing of
   * it may remain; a medium that cannot undo a partial write calls `broke`.
   */
  append(record: Uint8Array, broke: Breakage): Promise<void>;
  /**
   * Replaces the snapshot and empties the log: a failure before the new snapshot is in place
   * changes nothing; one after it (the old log still in place) must call `broke`, since records
   * appended to that log would be dropped as already folded into the snapshot.
   */
  compact(snapshot: Uint8Array, broke: Breakage): Promise<void>;
  /** Releases handles and locks; the medium is not used again. */
  close(): Promise<void>;
}

/**
 * The default compaction policy: a ledger compacts by itself once its log holds this many records,
 * so reopening replays at most this many transactions (a replayed transaction costs about as much
 * as a commit, ~3 ms, while a snapshot restores thousands of them in the same time).
 */
const AUTO_COMPACT_RECORDS = 512;

/** `compactEvery`, checked once for every adapter: a positive integer, or absent (compact on every call). */
export function resolveCompactEvery(compactEvery: number | undefined): number {
  if (compactEvery !== undefined && !(Number.isSafeInteger(compactEvery) && compactEvery > 0)) {
    throw new LedgerError('INVALID_OPTION', { field: 'compactEvery', value: compactEvery });
  }
  return compactEvery ?? 0;
}

export class LogStore implements StorageAdapter {
  /** Acknowledged records in the log; null until `load`. */
  private records: number | null = null;
  /** Set when a failure left the medium where further appends could be lost; `load` recovers. */
  private broken: unknown = null;
  private closed = false;
  private readonly breaks: Breakage = (cause) => {
    this.broken = cause;
  };

  constructor(
    private readonly medium: LogMedium,
    private readonly compactEvery: number,
    private readonly autoCompact = true,
  ) {}

  /** Whether the ledger should compact by itself now (the default policy: AUTO_COMPACT_RECORDS). */
  get autoCompactionDue(): boolean {
    return this.autoCompact && this.logRecords >= AUTO_COMPACT_RECORDS;
  }

  /** Records in the log, i.e. appended since the snapshot. */
  get logRecords(): number {
    return this.records ?? 0;
  }

  /** Whether `ledger.compact()` would compact now. */
  get compactionDue(): boolean {
    return this.logRecords >= this.compactEvery;
  }

  async load(): Promise<LogState> {
    if (this.closed) throw new Error(`${this.medium.where}: storage is closed`);
    this.records = null;
    this.broken = null;
    const state = await this.medium.recover();
    this.records = state.log.length;
    return state;
  }

  async append(record: Uint8Array): Promise<void> {
    this.writable();
    await this.medium.append(record, this.breaks);
    this.records = this.logRecords + 1;
  }

  async compact(snapshot: Uint8Array): Promise<void> {
    this.writable();
    await this.medium.compact(snapshot, this.breaks);
    this.records = 0;
  }

  /** Releases the medium (`ledger.close()` calls it). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.records = null;
    await this.medium.close();
  }

  private writable(): void {
    const where = this.medium.where;
    if (this.closed) throw new Error(`${where}: storage is closed`);
    if (this.broken !== null)
      throw new Error(`${where}: an earlier storage failure left the log unusable; reopen it`, { cause: this.broken });
    if (this.records === null) throw new Error(`${where}: load() must run before append() or compact()`);
  }
}
