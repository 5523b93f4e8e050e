/** What the browser's two storages (OPFS, IndexedDB) share: their shape, options and lock. */
import { LedgerError } from '../errors.js';
import type { CompactableStorage } from '../ledger/storage.js';
import { resolveCompactEvery } from './log-store.js';

/** Options of `browserStorage`: when compaction is due. */
export interface BrowserStorageOptions {
  /** `ledger.compact()` compacts only once the log holds this many records; without it, on every call. */
  compactEvery?: number;
}

/** A browser ledger's storage: `kind` says where the records live. */
export interface BrowserStorage extends CompactableStorage {
  readonly kind: 'opfs' | 'indexeddb';
  readonly name: string;
  /** Records in the log, i.e. appended since the snapshot. */
  readonly logRecords: number;
  /** Releases the ledger's lock (`ledger.close()` calls it). */
  close(): Promise<void>;
}

/**
 * Checks the options once; the adapters never re-check. A name becomes an OPFS directory and
 * part of an IndexedDB database name: a single path segment, printable.
 */
export function resolveBrowserStorageOptions(name: string, options: BrowserStorageOptions): { compactEvery: number } {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
  const bad = /[/\\\u0000-\u001f\u007f]/;
  if (typeof name !== 'string' || name.length === 0 || name.length > 200 || bad.test(name) || /^\.\.?$/.test(name)) {
    throw new LedgerError('INVALID_OPTION', {
      field: 'name',
      value: name,
      reason: 'a file name: no slashes, 1-200 characters',
    });
  }
  return { compactEvery: resolveCompactEvery(options.compactEvery) };
}

/**
 * Takes the origin-wide Web Lock of the ledger `name` and holds it until the returned release is
 * called: two tabs appending to one log would interleave their records. The browser drops the
 * lock with the page, so a reload or a crashed tab never leaves it stale. STORAGE_FAILED when
 * another tab or worker holds it.
 */
export function holdStorageLock(name: string): Promise<() => void> {
  return new Promise((resolve, reject) => {
    navigator.locks
      .request(`context-ledger:${name}`, { ifAvailable: true }, (lock) => {
        if (lock === null) {
          reject(
            new LedgerError('STORAGE_FAILED', {
              field: 'storage',
              reason: `the ledger "${name}" is open in another tab or worker`,
            }),
          );
          return;
        }
        return new Promise<void>((release) => resolve(release));
      })
      .catch(reject);
  });
}
