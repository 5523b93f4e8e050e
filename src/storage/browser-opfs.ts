/**
 * Durable storage in the browser: the Origin Private File System, falling back to IndexedDB
 * where OPFS is unavailable. In OPFS a ledger is a directory holding `snapshot.bin` and
 * `log.bin` in the Node directory's byte layouts (file-format.ts) under the same recovery
 * protocol (framed-log.ts); this file only binds them to the OPFS API.
 */
import { LedgerError } from '../errors.js';
import { indexedDbName, indexedDbStorage, requestResult } from './browser-indexeddb.js';
import {
  type BrowserStorage,
  type BrowserStorageOptions,
  holdStorageLock,
  resolveBrowserStorageOptions,
} from './browser-storage.js';
import { framedLog, type LogFiles } from './framed-log.js';
import { LogStore } from './log-store.js';

const DEFAULT_NAME = 'context-ledger';

/**
 * Opens the durable storage of the ledger `name` in this origin — OPFS where the browser has
 * it, else IndexedDB (`kind` says which) — and takes its lock (STORAGE_FAILED while another tab
 * or worker has the ledger open). Pass it as `openLedger({ storage })`; close it yourself only
 * if `openLedger` fails.
 */
export async function browserStorage(
  name: string = DEFAULT_NAME,
  options: BrowserStorageOptions = {},
): Promise<BrowserStorage> {
  const { compactEvery } = resolveBrowserStorageOptions(name, options);
  const root = await opfsRoot();
  return root ? openOpfs(root, name, compactEvery) : indexedDbStorage(name, options);
}

/** Like `browserStorage`, but OPFS only: STORAGE_FAILED where it is unavailable. */
export async function opfsStorage(
  name: string = DEFAULT_NAME,
  options: BrowserStorageOptions = {},
): Promise<BrowserStorage> {
  const { compactEvery } = resolveBrowserStorageOptions(name, options);
  const root = await opfsRoot();
  if (!root) throw new LedgerError('STORAGE_FAILED', { field: 'storage', reason: 'OPFS is unavailable here' });
  return openOpfs(root, name, compactEvery);
}

/** Deletes the ledger `name` from OPFS and IndexedDB; STORAGE_FAILED while it is open anywhere. */
export async function deleteBrowserStorage(name: string = DEFAULT_NAME): Promise<void> {
  resolveBrowserStorageOptions(name, {});
  const release = await holdStorageLock(name);
  try {
    await (await opfsRoot())?.removeEntry(name, { recursive: true }).catch(unlessNotFound);
    await requestResult(indexedDB.deleteDatabase(indexedDbName(name)));
  } finally {
    release();
  }
}

/** Null where OPFS is missing or refused (some private modes and insecure contexts throw). */
async function opfsRoot(): Promise<FileSystemDirectoryHandle | null> {
  try {
    return typeof navigator.storage?.getDirectory === 'function' ? await navigator.storage.getDirectory() : null;
  } catch {
    return null;
  }
}

async function openOpfs(root: FileSystemDirectoryHandle, name: string, compactEvery: number): Promise<BrowserStorage> {
  const release = await holdStorageLock(name);
  try {
    return new OpfsStorage(
      name,
      compactEvery,
      opfsFiles(await root.getDirectoryHandle(name, { create: true }), name, release),
    );
  } catch (e) {
    release();
    throw e;
  }
}

class OpfsStorage extends LogStore implements BrowserStorage {
  readonly kind = 'opfs';
  constructor(
    readonly name: string,
    compactEvery: number,
    files: LogFiles,
  ) {
    super(framedLog(files), compactEvery);
  }
}

/** The part of a sync access handle used here (the DOM typings have it only for workers). */
interface SyncAccessHandle {
  write(bytes: Uint8Array, options: { at: number }): number;
  truncate(size: number): void;
  flush(): void;
  close(): void;
}

/**
 * `LogFiles` in an OPFS directory. Replacements go through `createWritable()`, whose `close()`
 * swaps the new content in atomically (a failed or interrupted write leaves the old file), so
 * there are no drafts to clear. In-place writes use a sync access handle where there is one (a
 * dedicated worker); in the page they rewrite through a writable stream with `keepExistingData`
 * (which copies the log, so compact large logs).
 * @internal Exported for its unit tests.
 */
export function opfsFiles(dir: FileSystemDirectoryHandle, name: string, release: () => void): LogFiles {
  return {
    where: `opfs:${name}`,
    path: (file) => `opfs:${name}/${file}`,
    async read(file) {
      try {
        const handle = await dir.getFileHandle(file);
        return new Uint8Array(await (await handle.getFile()).arrayBuffer());
      } catch (e) {
        unlessNotFound(e);
        return null;
      }
    },
    async replace(file, bytes) {
      const handle = await dir.getFileHandle(file, { create: true });
      await rewrite(handle, false, (w) => w.write(bytes as Uint8Array<ArrayBuffer>));
    },
    clearDrafts: async () => undefined,
    async openInPlace(file) {
      const handle = await dir.getFileHandle(file);
      const access = await syncAccess(handle);
      if (access === null) {
        return {
          write: (bytes, at) =>
            rewrite(handle, true, async (w) => {
              await w.seek(at);
              await w.write(bytes as Uint8Array<ArrayBuffer>);
            }),
          truncate: (size) => rewrite(handle, true, (w) => w.truncate(size)),
          close: async () => undefined,
        };
      }
      return {
        async write(bytes, at) {
          const written = access.write(bytes, { at });
          if (written !== bytes.length)
            throw new Error(`opfs:${name}/${file}: short write (${written} of ${bytes.length})`);
          access.flush();
        },
        async truncate(size) {
          access.truncate(size);
          access.flush();
        },
        // The sync access handle locks the file against every other writer until closed.
        close: async () => access.close(),
      };
    },
    release: async () => release(),
  };
}

/**
 * Rewrites a file through a writable stream: `close()` swaps the result in atomically, and on
 * any failure (a full quota among them) the stream is aborted and the file stays as it was.
 */
async function rewrite(
  handle: FileSystemFileHandle,
  keepExistingData: boolean,
  write: (w: FileSystemWritableFileStream) => Promise<void>,
): Promise<void> {
  const w = await handle.createWritable({ keepExistingData });
  try {
    await write(w);
    await w.close();
  } catch (e) {
    await w.abort().catch(() => undefined);
    throw e;
  }
}

async function syncAccess(handle: FileSystemFileHandle): Promise<SyncAccessHandle | null> {
  const open = (handle as { createSyncAccessHandle?: () => Promise<SyncAccessHandle> }).createSyncAccessHandle;
  return typeof open === 'function' ? open.call(handle) : null;
}

function unlessNotFound(e: unknown): void {
  if (!(e instanceof DOMException && e.name === 'NotFoundError')) throw e;
}
