/**
 * The recovery protocol of the file media (a Node directory, OPFS), written once over
 * `LogFiles`: `snapshot.bin` and `log.bin` in the byte layouts of file-format.ts.
 *
 * - A log whose generation the snapshot already covers (a crash between the snapshot's
 *   replacement and the log's reset) is dropped whole, so no record is applied twice.
 * - A torn tail (an append the crash interrupted, never acknowledged) is cut off.
 * - A failed append cuts off whatever part of its frame landed, so the next one starts on a
 *   frame boundary; if even that fails, the store refuses appends until it is reloaded.
 * - Compaction replaces the log, never deletes it: a missing log beside a snapshot means
 *   records were lost (SNAPSHOT_CORRUPT).
 */
import {
  corrupt,
  decodeLogHeader,
  decodeSnapshotFile,
  encodeFrame,
  encodeLogHeader,
  encodeSnapshotFile,
  HEADER_BYTES,
  scanLog,
  tailLooksWhole,
} from './file-format.js';
import type { Breakage, LogMedium, LogState } from './log-store.js';

export const SNAPSHOT_FILE = 'snapshot.bin';
export const LOG_FILE = 'log.bin';

/** The file access a medium binds: two named files, replaced atomically or written in place. */
export interface LogFiles {
  /** Names the medium in messages (a directory, `opfs:<name>`). */
  readonly where: string;
  /** How errors name one of its files. */
  path(file: string): string;
  /** The file's bytes, or null when it does not exist. */
  read(file: string): Promise<Uint8Array | null>;
  /** Replaces (or creates) the file durably and atomically: a crash leaves the old content or the new. */
  replace(file: string, bytes: Uint8Array): Promise<void>;
  /** Removes what an interrupted `replace` may have left beside the files (never part of the state). */
  clearDrafts(): Promise<void>;
  /** Opens an existing file for in-place writes. */
  openInPlace(file: string): Promise<InPlaceFile>;
  /** Releases the medium's lock. */
  release(): Promise<void>;
}

export interface InPlaceFile {
  /** Writes all of `bytes` at `at` and makes them durable before resolving. */
  write(bytes: Uint8Array, at: number): Promise<void>;
  /** Cuts the file to `size` bytes, durably. */
  truncate(size: number): Promise<void>;
  close(): Promise<void>;
}

interface OpenLog {
  file: InPlaceFile;
  /** The compaction count, shared with the snapshot the log continues. */
  generation: number;
  /** Where the next frame goes: just after the last acknowledged one. */
  end: number;
}

/** The framed-file medium over `files`. */
export function framedLog(files: LogFiles): LogMedium {
  return new FramedLog(files);
}

class FramedLog implements LogMedium {
  private log: OpenLog | null = null;

  constructor(private readonly files: LogFiles) {}

  get where(): string {
    return this.files.where;
  }

  async recover(): Promise<LogState> {
    await this.closeLog();
    await this.files.clearDrafts();
    const snapshotPath = this.files.path(SNAPSHOT_FILE);
    const snapshotFile = await this.files.read(SNAPSHOT_FILE);
    const { generation, snapshot } = snapshotFile
      ? decodeSnapshotFile(snapshotFile, snapshotPath)
      : { generation: 0, snapshot: null };
    const logPath = this.files.path(LOG_FILE);
    const logFile = await this.files.read(LOG_FILE);
    if (logFile === null && snapshotFile !== null) throw corrupt(logPath, 0, 'missing while a snapshot exists');
    const logGeneration = logFile === null ? null : decodeLogHeader(logFile, logPath);
    if (logGeneration !== null && logGeneration > generation) {
      throw corrupt(logPath, 0, `generation ${logGeneration} is newer than the snapshot's (${generation})`);
    }
    if (logFile === null || logGeneration !== generation) {
      // A fresh medium, or a log the snapshot already covers (a crash before its reset).
      await this.resetLog(generation);
      return { snapshot, log: [] };
    }
    const { records, end } = scanLog(logFile, logPath);
    const file = await this.files.openInPlace(LOG_FILE);
    this.log = { file, generation, end };
    if (end === logFile.length) return { snapshot, log: records };
    // A torn tail, an append the crash interrupted, was never acknowledged. A whole-looking last
    // frame that fails its checksum may have been: it is cut all the same (nothing after it can
    // be trusted), and reported.
    const wholeFrame = tailLooksWhole(logFile, end);
    const bytes = logFile.length - end;
    await file.truncate(end);
    const recovered = {
      file: logPath,
      offset: end,
      bytes,
      wholeFrame,
      reason: wholeFrame
        ? `cut the last frame of ${logPath} (${bytes} bytes at byte ${end}): whole, but its checksum fails; if it was acknowledged, that transaction is lost`
        : `cut an incomplete frame from ${logPath} (${bytes} bytes at byte ${end}): an append a crash interrupted, never acknowledged`,
    };
    return { snapshot, log: records, recovered };
  }

  async append(record: Uint8Array, broke: Breakage): Promise<void> {
    const log = this.opened();
    const frame = encodeFrame(record);
    try {
      await log.file.write(frame, log.end);
    } catch (e) {
      await log.file.truncate(log.end).catch(broke);
      throw e;
    }
    log.end += frame.length;
  }

  async compact(snapshot: Uint8Array, broke: Breakage): Promise<void> {
    const generation = this.opened().generation + 1;
    try {
      await this.files.replace(SNAPSHOT_FILE, encodeSnapshotFile(generation, snapshot));
    } catch (e) {
      // A replacement can fail after its atomic step (e.g. flushing the directory after the
      // rename): then the new snapshot is what a reload sees, and the old log is as good as gone.
      if (!(await this.holdsGeneration(generation))) throw e;
      broke(e);
      throw e;
    }
    // The new snapshot covers the old log now: records appended to it would be dropped by the
    // next load, so until the fresh log is in place a failure stops all appends.
    try {
      await this.closeLog();
      await this.resetLog(generation);
    } catch (e) {
      broke(e);
      throw e;
    }
  }

  async close(): Promise<void> {
    try {
      await this.closeLog();
    } finally {
      await this.files.release();
    }
  }

  /** Whether the stored snapshot is of `generation`; true when that cannot be told (the safe answer). */
  private async holdsGeneration(generation: number): Promise<boolean> {
    try {
      const bytes = await this.files.read(SNAPSHOT_FILE);
      return bytes !== null && decodeSnapshotFile(bytes, this.files.path(SNAPSHOT_FILE)).generation === generation;
    } catch {
      return true;
    }
  }

  private opened(): OpenLog {
    if (this.log === null) throw new Error(`${this.files.where}: the log is not open`);
    return this.log;
  }

  /** Installs an empty log of `generation`: the atomic replace leaves the old log or the new. */
  private async resetLog(generation: number): Promise<void> {
    await this.files.replace(LOG_FILE, encodeLogHeader(generation));
    this.log = { file: await this.files.openInPlace(LOG_FILE), generation, end: HEADER_BYTES };
  }

  /** Closes the in-place handle first: OPFS's sync access handle locks the file against replacement. */
  private async closeLog(): Promise<void> {
    const log = this.log;
    this.log = null;
    await log?.file.close();
  }
}
