import { randomBytes } from 'node:crypto';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { LedgerError } from '../errors.js';

/**
 * Takes `path` as this process's exclusive lock, holding its pid. The lock appears with its
 * content already written: a private draft is hard-linked into place, and link(2), like an
 * O_EXCL create, fails when the name exists, so no reader ever sees an empty lock. A lock
 * whose pid no longer runs was left by a crash and is taken over. Resolves to the release
 * function.
 *
 * Limits: pids mean something on one host only (not across containers or network shares), and
 * two processes taking over the same stale lock at the same instant may both succeed.
 */
export async function acquireLock(path: string): Promise<() => Promise<void>> {
  const mine = `${process.pid}\n`;
  const draft = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(draft, mine);
  try {
    // Each round wins, refuses, or clears one dead holder's lock; a few rounds bound the races.
    for (let round = 0; round < 3; round++) {
      if (await linkExclusive(draft, path)) return () => releaseLock(path, mine);
      const holder = await readText(path);
      if (holder === null) continue; // released meanwhile
      const pid = Number(holder.trim());
      // An unparsable pid counts as a dead holder: locks are never visible half written.
      if (Number.isSafeInteger(pid) && pid > 0 && isRunning(pid)) throw locked(path, `is held by process ${pid}`);
      await rm(path, { force: true });
    }
    throw locked(path, 'is contended by other openers');
  } finally {
    await rm(draft, { force: true });
  }
}

async function linkExclusive(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the lock unless another process has taken it over meanwhile. */
async function releaseLock(path: string, mine: string): Promise<void> {
  if ((await readText(path)) === mine) await rm(path, { force: true });
}

const locked = (path: string, why: string): LedgerError =>
  new LedgerError('STORAGE_FAILED', { field: 'storage', file: path, reason: `lock ${path} ${why}` });
