/**
 * Durable storage in a Node directory: `snapshot.bin` (the latest snapshot), `log.bin` (the
 * records appended since) and `lock` (the owning process). Byte layouts: file-format.ts; the
 * recovery protocol: framed-log.ts. This file only binds them to `node:fs`.
 */
import { type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { StorageAdapter } from '../ledger/storage.js';
import { framedLog, type InPlaceFile, LOG_FILE, type LogFiles, SNAPSHOT_FILE } from './framed-log.js';
import { acquireLock } from './lock-file.js';
import { LogStore, resolveCompactEvery } from './log-store.js';
import { readIfExists, syncDir, writeAll, writeFileSynced } from './sync-fs.js';

/** Options of `nodeDirectoryStorage`: when compaction is due. */
export interface NodeDirectoryOptions {
  /** `compactLedger` compacts only once the log holds this many records; without it, on every call. */
  compactEvery?: number;
}

export interface NodeDirectoryStorage extends StorageAdapter {
  /** The directory, as an absolute path. */
  readonly dir: string;
  /** Records in the log, i.e. appended since the snapshot. */
  readonly logRecords: number;
  /** Whether `compactLedger` would compact now. */
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
  const absolute = resolve(dir);
  const created = await mkdir(absolute, { recursive: true });
  // New directories' own entries must be durable too, or a power cut could take them, and the
  // records acknowledged inside, away.
  if (created !== undefined) for (let d = absolute; d !== dirname(created); d = dirname(d)) await syncDir(dirname(d));
  const release = await acquireLock(join(absolute, 'lock'));
  return new DirectoryStorage(absolute, compactEvery, release);
}

class DirectoryStorage extends LogStore implements NodeDirectoryStorage {
  constructor(
    readonly dir: string,
    compactEvery: number,
    release: () => Promise<void>,
  ) {
    super(framedLog(directoryFiles(dir, release)), compactEvery);
  }
}

/** A draft's suffix: written, flushed, then renamed over the file it replaces. */
const DRAFT = '.tmp';

/** `LogFiles` in a directory: replacement by a flushed draft renamed into place, then the directory flushed. */
export function directoryFiles(dir: string, release: () => Promise<void>): LogFiles {
  const path = (file: string): string => join(dir, file);
  return {
    where: dir,
    path,
    read: (file) => readIfExists(path(file)),
    async replace(file, bytes) {
      const target = path(file);
      try {
        await writeFileSynced(target + DRAFT, bytes);
        await rename(target + DRAFT, target);
      } catch (e) {
        await rm(target + DRAFT, { force: true });
        throw e;
      }
      await syncDir(dir);
    },
    async clearDrafts() {
      for (const file of [SNAPSHOT_FILE, LOG_FILE]) await rm(path(file + DRAFT), { force: true });
    },
    openInPlace: async (file) => inPlace(await open(path(file), 'r+')),
    release,
  };
}

function inPlace(handle: FileHandle): InPlaceFile {
  return {
    async write(bytes, at) {
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
