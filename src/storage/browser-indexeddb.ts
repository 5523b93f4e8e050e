/**
 * Durable storage in IndexedDB, for browsers or contexts without OPFS. One database per ledger
 * (`context-ledger:<name>`) with two stores: `snapshot` (one entry) and `log` (records under
 * increasing keys). IndexedDB transactions are atomic, so no framing or checksums are needed:
 * an append is one `add`, a compaction one transaction that writes the snapshot and clears the
 * log together, and recovery is a plain read. The lifecycle is the shared log store's.
 */
import {
  type BrowserStorage,
  type BrowserStorageOptions,
  holdStorageLock,
  resolveBrowserStorageOptions,
} from './browser-storage.js';
import { type LogMedium, LogStore } from './log-store.js';

const SNAPSHOT = 'snapshot';
const LOG = 'log';

export const indexedDbName = (name: string): string => `context-ledger:${name}`;

/** Opens (creating it if needed) the IndexedDB storage of the ledger `name` and takes its lock. */
export async function indexedDbStorage(name: string, options: BrowserStorageOptions = {}): Promise<BrowserStorage> {
  const { compactEvery } = resolveBrowserStorageOptions(name, options);
  const release = await holdStorageLock(name);
  try {
    const db = await openIndexedDb(indexedDB, name);
    return new IndexedDbStorage(name, compactEvery, indexedDbMedium(db, name, release));
  } catch (e) {
    release();
    throw e;
  }
}

class IndexedDbStorage extends LogStore implements BrowserStorage {
  readonly kind = 'indexeddb';
  constructor(
    readonly name: string,
    compactEvery: number,
    medium: LogMedium,
  ) {
    super(medium, compactEvery);
  }
}

/** Opens (creating or upgrading) the database of the ledger `name` in `factory`. @internal Exported for its unit tests. */
export function openIndexedDb(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  const request = factory.open(indexedDbName(name), 1);
  request.onupgradeneeded = () => {
    request.result.createObjectStore(SNAPSHOT);
    request.result.createObjectStore(LOG, { autoIncrement: true });
  };
  return requestResult(request);
}

/** The IndexedDB medium over an open database; `release` frees the ledger's lock on close. @internal Exported for its unit tests. */
export function indexedDbMedium(db: IDBDatabase, name: string, release: () => void): LogMedium {
  const transaction = (mode: IDBTransactionMode): IDBTransaction =>
    db.transaction([SNAPSHOT, LOG], mode, { durability: 'strict' });
  return {
    where: indexedDbName(name),
    async recover() {
      const tx = transaction('readonly');
      const [snapshot, log] = await Promise.all([
        requestResult<Uint8Array | undefined>(tx.objectStore(SNAPSHOT).get(SNAPSHOT)),
        requestResult<Uint8Array[]>(tx.objectStore(LOG).getAll()),
        completion(tx),
      ]);
      return { snapshot: snapshot ?? null, log };
    },
    /** Resolves once the transaction is committed with `strict` durability (flushed to disk). */
    async append(record) {
      const tx = transaction('readwrite');
      tx.objectStore(LOG).add(record.slice());
      await completion(tx);
    },
    async compact(snapshot) {
      const tx = transaction('readwrite');
      tx.objectStore(SNAPSHOT).put(snapshot.slice(), SNAPSHOT);
      tx.objectStore(LOG).clear();
      await completion(tx);
    },
    async close() {
      db.close();
      release();
    },
  };
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
