/**
 * Durable storage in a Node directory: `snapshot.bin` (the latest snapshot), `log.bin` (the
 * records appended since) and `lock` (the owning process). Byte layouts: file-format.ts; the
 * recovery protocol: framed-log.ts. This file only binds them to `node:fs`.
 */
import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { LedgerError } from '../errors.js';
import type { StorageAdapter } from '../ledger/storage.js';
import { framedLog, type InPlaceFile, LOG_FILE, type LogFiles, SNAPSHOT_FILE } from './framed-log.js';
import { acquireLock, type HeldLock } from './lock-file.js';
import { LogStore, resolveCompactEvery } from './log-store.js';
import { readIfExists, syncDir, writeAll, writeFileSynced } from './sync-fs.js';

/** Options of `nodeDirectoryStorage`: when compaction is due. */
export interface NodeDirectoryOptions {
  /** `ledger.compact()` compacts only once the log holds this many records; without it, on every call. */
  compactEvery?: number;
  /**
   * How long (ms) a lock holder that cannot be checked exactly — one in another pid namespace
   * (container) or on another host — may go without refreshing its heartbeat before its lock
   * counts as stale. Holders on the same host and pid namespace are checked exactly and never
   * wait for this. Default 10 000; at least 100.
   */
  staleLockMs?: number;
  /**
   * Whether the ledger compacts by itself after a commit once the log holds 512 records (the
   * default, true), so that reopening replays at most that many transactions.
   */
  autoCompact?: boolean;
}

const DEFAULT_STALE_LOCK_MS = 10_000;

/** A ledger directory on a local file system, held under its lock until closed. */
export interface NodeDirectoryStorage extends StorageAdapter {
  /** The directory, as an absolute path. */
  readonly dir: string;
  /** Records in the log, i.e. appended since the snapshot. */
  readonly logRecords: number;
  /** Whether `ledger.compact()` would compact now. */
  readonly compactionDue: boolean;
  /** Closes the log and releases the lock (`ledger.close()` calls it). */
  close(): Promise<void>;
}

/**
 * Opens (creating it if needed) a storage directory and takes its lock; STORAGE_FAILED when
 * another running process holds it. Pass the result as `openLedger({ storage })`, which loads
 * it; close the storage yourself only if `openLedger` fails.
 */
export async function nodeDirectoryStorage(
  dir: string,
  options: NodeDirectoryOptions = {},
): Promise<NodeDirectoryStorage> {
  const compactEvery = resolveCompactEvery(options.compactEvery);
  const staleLockMs = options.staleLockMs ?? DEFAULT_STALE_LOCK_MS;
  if (!(Number.isSafeInteger(staleLockMs) && staleLockMs >= 100))
    throw new LedgerError('INVALID_OPTION', { field: 'staleLockMs', value: staleLockMs, reason: 'an integer ≥ 100' });
  const absolute = await prepareDirectory(dir);
  const autoCompact = options.autoCompact ?? true;
  if (typeof autoCompact !== 'boolean')
    throw new LedgerError('INVALID_OPTION', { field: 'autoCompact', value: autoCompact });
  const lock = await acquireLock(absolute, staleLockMs);
  return new DirectoryStorage(absolute, compactEvery, lock, autoCompact);
}

/** `dir` as an absolute path to an existing directory (created, durably, when missing); coded errors otherwise. */
async function prepareDirectory(dir: unknown): Promise<string> {
  const bad = (reason: string, cause?: unknown): LedgerError =>
    new LedgerError(
      'INVALID_OPTION',
      { field: 'dir', value: typeof dir === 'string' ? dir : typeof dir, reason },
      cause,
    );
  if (typeof dir !== 'string' || dir === '') throw bad('a non-empty path string');
  if (dir.includes('\0')) throw bad('a path without NUL characters');
  const absolute = resolve(dir);
  let created: string | undefined;
  try {
    created = await mkdir(absolute, { recursive: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw bad(`${absolute} is a file, not a directory`, e);
    if (code === 'ENOTDIR') throw bad(`a component of ${absolute} is a file, not a directory`, e);
    throw new LedgerError('STORAGE_FAILED', { field: 'dir', file: absolute, reason: String(e) }, e);
  }
  // mkdir with `recursive` succeeds on an existing path of any type on some platforms.
  if (!(await stat(absolute)).isDirectory()) throw bad(`${absolute} is a file, not a directory`);
  // New directories' own entries must be durable too, or a power cut could take them, and the
  // records acknowledged inside, away.
  if (created !== undefined) for (let d = absolute; d !== dirname(created); d = dirname(d)) await syncDir(dirname(d));
  return absolute;
}

class DirectoryStorage extends LogStore implements NodeDirectoryStorage {
  constructor(
    readonly dir: string,
    compactEvery: number,
    lock: HeldLock,
    autoCompact: boolean,
  ) {
    super(framedLog(directoryFiles(dir, lock)), compactEvery, autoCompact);
  }
}

/** Drafts end so: written, flushed, then renamed over the file they replace. */
const DRAFT = '.tmp';

/**
 * `LogFiles` in a directory: replacement by a flushed draft renamed into place, then the
 * directory flushed. Each opening names its drafts apart, so even two writers that should never
 * coexist cannot rename each other's draft away.
 * @internal Exported for its unit tests.
 */
export function directoryFiles(dir: string, lock: HeldLock): LogFiles {
  const path = (file: string): string => join(dir, file);
  const draftOf = (file: string): string => path(`${file}.${randomBytes(6).toString('hex')}${DRAFT}`);
  return {
    where: dir,
    path,
    read: (file) => readIfExists(path(file)),
    async replace(file, bytes) {
      await lock.check();
      const target = path(file);
      const draft = draftOf(file);
      try {
        await writeFileSynced(draft, bytes);
        await rename(draft, target);
      } catch (e) {
        await rm(draft, { force: true });
        throw e;
      }
      await syncDir(dir);
    },
    async clearDrafts() {
      const files = [SNAPSHOT_FILE, LOG_FILE];
      for (const name of await readdir(dir)) {
        if (name.endsWith(DRAFT) && files.some((f) => name.startsWith(`${f}.`))) await rm(path(name), { force: true });
      }
    },
    openInPlace: async (file) => inPlace(await open(path(file), 'r+'), lock),
    release: () => lock.release(),
  };
}

function inPlace(handle: FileHandle, lock: HeldLock): InPlaceFile {
  return {
    async write(bytes, at) {
      await lock.check();
      await writeAll(handle, bytes, at);
      await handle.datasync();
    },
    async truncate(size) {
      await handle.truncate(size);
      await handle.datasync();
    },
    close: () => handle.close(),
  };
}
