/**
 * Durable storage in a Node directory: `snapshot.bin` (the latest snapshot), `log.bin` (the
 * records appended since) and `lock` (the owning process). Byte layouts: file-format.ts.
 */
import { type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { LedgerError } from '../errors.js';
import type { StorageAdapter } from '../ledger/storage.js';
import {
  corrupt,
  decodeLogHeader,
  decodeSnapshotFile,
  encodeFrame,
  encodeLogHeader,
  encodeSnapshotFile,
  HEADER_BYTES,
  scanLog,
} from './file-format.js';
import { acquireLock } from './lock-file.js';
import { readIfExists, syncDir, writeAll, writeFileSynced } from './sync-fs.js';

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
  const { compactEvery } = options;
  if (compactEvery !== undefined && !(Number.isSafeInteger(compactEvery) && compactEvery > 0)) {
    throw new LedgerError('INVALID_OPTION', { field: 'compactEvery', value: compactEvery });
  }
  const absolute = resolve(dir);
  const created = await mkdir(absolute, { recursive: true });
  // New directories' own entries must be durable too, or a power cut could take them, and the
  // records acknowledged inside, away.
  if (created !== undefined) for (let d = absolute; d !== dirname(created); d = dirname(d)) await syncDir(dirname(d));
  const release = await acquireLock(join(absolute, 'lock'));
  return new DirectoryStorage(absolute, compactEvery ?? 0, release);
}

const SNAPSHOT = 'snapshot.bin';
const LOG = 'log.bin';
const TMP = '.tmp';

interface LogFile {
  handle: FileHandle;
  /** The compaction count, shared with the snapshot the log continues. */
  generation: number;
  /** Where the next frame goes: just after the last acknowledged one. */
  end: number;
  records: number;
}

class DirectoryStorage implements NodeDirectoryStorage {
  private log: LogFile | null = null;
  /** Set when a failure left the log where further appends could be lost; `load` recovers. */
  private broken: unknown = null;
  private closed = false;

  constructor(
    readonly dir: string,
    private readonly compactEvery: number,
    private readonly releaseLock: () => Promise<void>,
  ) {}

  get logRecords(): number {
    return this.log?.records ?? 0;
  }

  get compactionDue(): boolean {
    return this.logRecords >= this.compactEvery;
  }

  /** Recovers the directory to its last acknowledged state, then reads it. */
  async load(): Promise<{ snapshot: Uint8Array | null; log: Uint8Array[] }> {
    if (this.closed) throw new Error(`${this.dir}: storage is closed`);
    await this.closeLog();
    this.broken = null;
    // Leftovers of a compaction the crash interrupted before its rename: never part of the state.
    await rm(this.path(SNAPSHOT + TMP), { force: true });
    await rm(this.path(LOG + TMP), { force: true });

    const snapshotPath = this.path(SNAPSHOT);
    const snapshotFile = await readIfExists(snapshotPath);
    const { generation, snapshot } = snapshotFile
      ? decodeSnapshotFile(snapshotFile, snapshotPath)
      : { generation: 0, snapshot: null };
    const logPath = this.path(LOG);
    const logFile = await readIfExists(logPath);
    // Compaction replaces the log, never deletes it: a missing one means records were lost.
    if (logFile === null && snapshotFile !== null) throw corrupt(logPath, 0, 'missing while a snapshot exists');
    const logGeneration = logFile === null ? null : decodeLogHeader(logFile, logPath);
    if (logGeneration !== null && logGeneration > generation) {
      throw corrupt(logPath, 0, `generation ${logGeneration} is newer than the snapshot's (${generation})`);
    }
    if (logFile === null || logGeneration !== generation) {
      // A fresh directory, or a log the snapshot already covers (crash before its reset).
      this.log = await this.createLog(generation);
      return { snapshot, log: [] };
    }
    const { records, end } = scanLog(logFile, logPath);
    const handle = await open(logPath, 'r+');
    this.log = { handle, generation, end, records: records.length };
    if (end < logFile.length) {
      // A torn tail: an append the crash interrupted, so never acknowledged.
      await handle.truncate(end);
      await handle.datasync();
    }
    return { snapshot, log: records };
  }

  async append(record: Uint8Array): Promise<void> {
    const log = this.writableLog();
    const frame = encodeFrame(record);
    try {
      await writeAll(log.handle, frame, log.end);
      await log.handle.datasync();
    } catch (e) {
      // Cut the partial frame off so the next append starts on a frame boundary; if even that
      // fails, later appends are refused rather than written after unknown bytes.
      await log.handle
        .truncate(log.end)
        .then(() => log.handle.datasync())
        .catch((cause: unknown) => {
          this.broken = cause;
        });
      throw e;
    }
    log.end += frame.length;
    log.records++;
  }

  async compact(snapshot: Uint8Array): Promise<void> {
    const log = this.writableLog();
    const generation = log.generation + 1;
    const target = this.path(SNAPSHOT);
    try {
      await writeFileSynced(target + TMP, encodeSnapshotFile(generation, snapshot));
      await rename(target + TMP, target);
    } catch (e) {
      await rm(target + TMP, { force: true });
      throw e;
    }
    // The new snapshot covers the old log now: records appended to it would be dropped by the
    // next load, so until the fresh log is in place a failure stops all appends.
    try {
      await syncDir(this.dir);
      this.log = await this.createLog(generation);
    } catch (e) {
      this.broken = e;
      throw e;
    }
    await log.handle.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.closeLog();
    } finally {
      await this.releaseLock();
    }
  }

  private path(name: string): string {
    return join(this.dir, name);
  }

  private writableLog(): LogFile {
    if (this.closed) throw new Error(`${this.dir}: storage is closed`);
    if (this.broken !== null)
      throw new Error(`${this.dir}: an earlier storage failure left the log unusable; reopen it`, {
        cause: this.broken,
      });
    if (this.log === null) throw new Error(`${this.dir}: load() must run before append() or compact()`);
    return this.log;
  }

  /** Installs an empty log of `generation` atomically: a crash leaves the old log or the new. */
  private async createLog(generation: number): Promise<LogFile> {
    const target = this.path(LOG);
    await writeFileSynced(target + TMP, encodeLogHeader(generation));
    await rename(target + TMP, target);
    await syncDir(this.dir);
    return { handle: await open(target, 'r+'), generation, end: HEADER_BYTES, records: 0 };
  }

  private async closeLog(): Promise<void> {
    const log = this.log;
    this.log = null;
    await log?.handle.close();
  }
}
