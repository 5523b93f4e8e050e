import { type FileHandle, open, readFile } from 'node:fs/promises';

/** Writes all of `bytes` at `position` (a single write may be short, e.g. at a size limit). */
export async function writeAll(handle: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}

/** Creates or replaces `path` with `bytes` and flushes it to the device before resolving. */
export async function writeFileSynced(path: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(path, 'w');
  try {
    await writeAll(handle, bytes, 0);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a directory's entries, making a rename or a new file in it survive a power cut. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The file's bytes as a plain Uint8Array (not a Buffer, whose `slice` shares memory), or null when absent. */
export async function readIfExists(path: string): Promise<Uint8Array | null> {
  try {
    const b = await readFile(path);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}
