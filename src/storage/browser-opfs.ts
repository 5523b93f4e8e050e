/**
 * Durable storage in the browser: the Origin Private File System, falling back to IndexedDB
 * where OPFS is unavailable. In OPFS a ledger is a directory holding `snapshot.bin` and
 * `log.bin` in the Node directory's byte layouts (file-format.ts), so recovery follows the same
 * rules: a log whose generation the snapshot already covers is dropped whole, a torn last frame
 * is cut off.
 *
 * Writes: every file replacement goes through `createWritable()`, whose `close()` swaps the new
 * content in atomically (a failed or interrupted write leaves the old file). Appends do too in
 * the page (`keepExistingData` and a seek to the end, which copies the log, so compact large
 * logs); in a dedicated worker they write in place through a sync access handle and flush.
 */
import { LedgerError } from '../errors.js';
import { indexedDbName, indexedDbStorage, requestResult } from './browser-indexeddb.js';
import {
  type BrowserStorage,
  type BrowserStorageOptions,
  holdStorageLock,
  resolveBrowserStorageOptions,
} from './browser-storage.js';
import {
  decodeLogHeader,
  decodeSnapshotFile,
  encodeFrame,
  encodeLogHeader,
  encodeSnapshotFile,
  HEADER_BYTES,
  scanLog,
} from './file-format.js';

const SNAPSHOT = 'snapshot.bin';
const LOG = 'log.bin';
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
    return new OpfsStorage(name, compactEvery, await root.getDirectoryHandle(name, { create: true }), release);
  } catch (e) {
    release();
    throw e;
  }
}

/** The part of a sync access handle used here (the DOM typings have it only for workers). */
interface SyncAccessHandle {
  write(bytes: Uint8Array, options: { at: number }): number;
  truncate(size: number): void;
  flush(): void;
  close(): void;
}

interface LogFile {
  handle: FileSystemFileHandle;
  /** Present in dedicated workers, the only context that has them. */
  access: SyncAccessHandle | null;
  /** The compaction count, shared with the snapshot the log continues. */
  generation: number;
  /** Where the next frame goes: just after the last acknowledged one. */
  end: number;
  records: number;
}

class OpfsStorage implements BrowserStorage {
  readonly kind = 'opfs';
  private log: LogFile | null = null;
  /** Set when a failure left the log where further appends could be lost; `load` recovers. */
  private broken: unknown = null;
  private closed = false;

  constructor(
    readonly name: string,
    private readonly compactEvery: number,
    private readonly dir: FileSystemDirectoryHandle,
    private readonly release: () => void,
  ) {}

  get logRecords(): number {
    return this.log?.records ?? 0;
  }

  get compactionDue(): boolean {
    return this.logRecords >= this.compactEvery;
  }

  async load(): Promise<{ snapshot: Uint8Array | null; log: Uint8Array[] }> {
    if (this.closed) throw new Error(`${this.where(LOG)}: storage is closed`);
    this.closeLog();
    this.broken = null;
    const snapshotFile = await this.read(SNAPSHOT);
    const { generation, snapshot } = snapshotFile
      ? decodeSnapshotFile(snapshotFile, this.where(SNAPSHOT))
      : { generation: 0, snapshot: null };
    const logFile = await this.read(LOG);
    const logGeneration = logFile === null ? null : decodeLogHeader(logFile, this.where(LOG));
    if (logGeneration !== null && logGeneration > generation) {
      throw new LedgerError('SNAPSHOT_CORRUPT', {
        field: 'storage',
        file: this.where(LOG),
        reason: `generation ${logGeneration} is newer than the snapshot's (${generation})`,
      });
    }
    if (logFile === null || logGeneration !== generation) {
      // A fresh ledger, or a log the snapshot already covers (interrupted before its reset).
      await this.resetLog(generation);
      return { snapshot, log: [] };
    }
    const { records, end } = scanLog(logFile, this.where(LOG));
    const handle = await this.dir.getFileHandle(LOG);
    // A torn tail: an in-place append the crash interrupted, so never acknowledged.
    if (end < logFile.length) await replace(handle, true, (w) => w.truncate(end));
    this.log = { handle, access: await syncAccess(handle), generation, end, records: records.length };
    return { snapshot, log: records };
  }

  async append(record: Uint8Array): Promise<void> {
    const log = this.writableLog();
    const frame = encodeFrame(record);
    if (log.access) this.appendInPlace(log.access, log.end, frame);
    else
      await replace(log.handle, true, async (w) => {
        await w.seek(log.end);
        await w.write(frame as Uint8Array<ArrayBuffer>);
      });
    log.end += frame.length;
    log.records++;
  }

  async compact(snapshot: Uint8Array): Promise<void> {
    const log = this.writableLog();
    const generation = log.generation + 1;
    const handle = await this.dir.getFileHandle(SNAPSHOT, { create: true });
    await replace(handle, false, (w) => w.write(encodeSnapshotFile(generation, snapshot) as Uint8Array<ArrayBuffer>));
    // The new snapshot covers the old log now: records appended to it would be dropped by the
    // next load, so until the fresh log is in place a failure stops all appends.
    try {
      this.closeLog();
      await this.resetLog(generation);
    } catch (e) {
      this.broken = e;
      throw e;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      this.closeLog();
    } finally {
      this.release();
    }
  }

  /** Writes a frame after the last acknowledged one; on failure cuts off whatever part landed. */
  private appendInPlace(access: SyncAccessHandle, end: number, frame: Uint8Array): void {
    try {
      const written = access.write(frame, { at: end });
      if (written !== frame.length) throw new Error(`${this.where(LOG)}: short write (${written} of ${frame.length})`);
      access.flush();
    } catch (e) {
      try {
        access.truncate(end);
        access.flush();
      } catch (cause) {
        this.broken = cause;
      }
      throw e;
    }
  }

  /** Installs an empty log of `generation`; the atomic replace leaves the old log or the new. */
  private async resetLog(generation: number): Promise<void> {
    const handle = await this.dir.getFileHandle(LOG, { create: true });
    await replace(handle, false, (w) => w.write(encodeLogHeader(generation) as Uint8Array<ArrayBuffer>));
    this.log = { handle, access: await syncAccess(handle), generation, end: HEADER_BYTES, records: 0 };
  }

  private writableLog(): LogFile {
    if (this.closed) throw new Error(`${this.where(LOG)}: storage is closed`);
    if (this.broken !== null)
      throw new Error(`${this.where(LOG)}: an earlier storage failure left the log unusable; reopen it`, {
        cause: this.broken,
      });
    if (this.log === null) throw new Error(`${this.where(LOG)}: load() must run before append() or compact()`);
    return this.log;
  }

  /** Releases the sync access handle, which locks the file against every other writer. */
  private closeLog(): void {
    this.log?.access?.close();
    this.log = null;
  }

  private async read(file: string): Promise<Uint8Array | null> {
    try {
      const handle = await this.dir.getFileHandle(file);
      return new Uint8Array(await (await handle.getFile()).arrayBuffer());
    } catch (e) {
      unlessNotFound(e);
      return null;
    }
  }

  private where(file: string): string {
    return `opfs:${this.name}/${file}`;
  }
}

/**
 * Rewrites a file through a writable stream: `close()` swaps the result in atomically, and on
 * any failure (a full quota among them) the stream is aborted and the file stays as it was.
 */
async function replace(
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
