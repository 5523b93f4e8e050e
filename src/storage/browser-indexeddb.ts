/**
 * Durable storage in IndexedDB, for browsers or contexts without OPFS. One database per ledger
 * (`context-ledger:<name>`) with two stores: `snapshot` (one entry) and `log` (records under
 * increasing keys). IndexedDB transactions are atomic, so no framing or checksums are needed:
 * an append is one `add`, a compaction one transaction that writes the snapshot and clears the
 * log together.
 */
import {
  type BrowserStorage,
  type BrowserStorageOptions,
  holdStorageLock,
  resolveBrowserStorageOptions,
} from './browser-storage.js';

const SNAPSHOT = 'snapshot';
const LOG = 'log';

export const indexedDbName = (name: string): string => `context-ledger:${name}`;

/** Opens (creating it if needed) the IndexedDB storage of the ledger `name` and takes its lock. */
export async function indexedDbStorage(name: string, options: BrowserStorageOptions = {}): Promise<BrowserStorage> {
  const { compactEvery } = resolveBrowserStorageOptions(name, options);
  const release = await holdStorageLock(name);
  try {
    const db = await requestResult(openRequest(indexedDbName(name)));
    return new IndexedDbStorage(name, compactEvery, db, release);
  } catch (e) {
    release();
    throw e;
  }
}

function openRequest(dbName: string): IDBOpenDBRequest {
  const request = indexedDB.open(dbName, 1);
  request.onupgradeneeded = () => {
    request.result.createObjectStore(SNAPSHOT);
    request.result.createObjectStore(LOG, { autoIncrement: true });
  };
  return request;
}

class IndexedDbStorage implements BrowserStorage {
  readonly kind = 'indexeddb';
  private records = 0;
  private closed = false;

  constructor(
    readonly name: string,
    private readonly compactEvery: number,
    private readonly db: IDBDatabase,
    private readonly release: () => void,
  ) {}

  get logRecords(): number {
    return this.records;
  }

  get compactionDue(): boolean {
    return this.records >= this.compactEvery;
  }

  async load(): Promise<{ snapshot: Uint8Array | null; log: Uint8Array[] }> {
    const tx = this.transaction('readonly');
    const [snapshot, log] = await Promise.all([
      requestResult<Uint8Array | undefined>(tx.objectStore(SNAPSHOT).get(SNAPSHOT)),
      requestResult<Uint8Array[]>(tx.objectStore(LOG).getAll()),
      completion(tx),
    ]);
    this.records = log.length;
    return { snapshot: snapshot ?? null, log };
  }

  /** Resolves once the transaction is committed with `strict` durability (flushed to disk). */
  async append(record: Uint8Array): Promise<void> {
    const tx = this.transaction('readwrite');
    tx.objectStore(LOG).add(record.slice());
    await completion(tx);
    this.records++;
  }

  async compact(snapshot: Uint8Array): Promise<void> {
    const tx = this.transaction('readwrite');
    tx.objectStore(SNAPSHOT).put(snapshot.slice(), SNAPSHOT);
    tx.objectStore(LOG).clear();
    await completion(tx);
    this.records = 0;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
    this.release();
  }

  private transaction(mode: IDBTransactionMode): IDBTransaction {
    if (this.closed) throw new Error(`${indexedDbName(this.name)}: storage is closed`);
    return this.db.transaction([SNAPSHOT, LOG], mode, { durability: 'strict' });
  }
}

export function requestResult<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Settles when the transaction commits; rejects with its error (e.g. QuotaExceededError) when it aborts. */
function completion(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new DOMException('transaction aborted', 'AbortError'));
  });
}
