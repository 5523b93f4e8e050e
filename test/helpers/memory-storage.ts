import type { StorageAdapter } from '../../src/ledger/storage.js';

/** A StorageAdapter over an in-memory snapshot and log: what "reopening" reads is exactly what
 * was appended, so tests can compare a reopened ledger with the live one cheaply. */
export class MemoryStorage implements StorageAdapter {
  snapshot: Uint8Array | null = null;
  log: Uint8Array[] = [];

  async load(): Promise<{ snapshot: Uint8Array | null; log: Uint8Array[] }> {
    return { snapshot: this.snapshot, log: [...this.log] };
  }

  async append(record: Uint8Array): Promise<void> {
    this.log.push(record.slice());
  }

  /** A new storage object over the same contents: a storage belongs to one ledger, so a test
   * that "reopens" what a ledger wrote does it the way a restarted process would. */
  reopen(): MemoryStorage {
    const copy = new MemoryStorage();
    copy.snapshot = this.snapshot;
    copy.log = [...this.log];
    return copy;
  }

  async compact(snapshot: Uint8Array): Promise<void> {
    this.snapshot = snapshot.slice();
    this.log = [];
  }
}
