import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ledger } from '../../src/ledger/ledger.js';
import {
  type NodeDirectoryOptions,
  type NodeDirectoryStorage,
  nodeDirectoryStorage,
} from '../../src/storage/node-directory.js';
import { type LedgerPool, openLedger } from '../helpers/ledgers.js';
import { transactionFor } from './fixtures/transactions.js';

/** Temp directories made by one test file; `removeTempDirs` in afterEach/afterAll deletes them. */
const made: string[] = [];

export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ctxl-storage-'));
  made.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
}

export async function openDurable(
  dir: string,
  options: NodeDirectoryOptions = {},
): Promise<{ ledger: Ledger; storage: NodeDirectoryStorage }> {
  const storage = await nodeDirectoryStorage(dir, options);
  try {
    return { ledger: await openLedger({ storage }), storage };
  } catch (e) {
    await storage.close();
    throw e;
  }
}

/** Snapshot bytes of an in-memory ledger holding exactly transactions 1..n of the test stream. */
export async function referenceSnapshot(pool: LedgerPool, n: number, slot = 0): Promise<Uint8Array> {
  const ledger = await pool.ledger(slot);
  for (let i = 1; i <= n; i++) await ledger.commit(transactionFor(i));
  return ledger.snapshot();
}

/** Every as-of view from before the first epoch to after the last, serialised for comparison. */
export async function viewsOf(ledger: Ledger): Promise<string[]> {
  const views: string[] = [];
  for (let epoch = 0; epoch <= ledger.lastEpoch + 1; epoch++) views.push(JSON.stringify(await ledger.asOf({ epoch })));
  return views;
}

/**
 * Leaves in `dir` the lock a process that died holding it leaves: its `lock/owner` record, here
 * of the short-lived process `pid` (default: one that has just exited), so on this host and pid
 * namespace it is known dead; `start` overrides the recorded start time (a reused pid's is later).
 */
export async function leaveDeadLock(dir: string, pid?: number, start?: string): Promise<void> {
  const owner = pid ?? spawnSync(process.execPath, ['-e', '']).pid!;
  const proc = async (path: string): Promise<string> => (await readFile(path, 'utf8')).trim();
  const boot = await proc('/proc/sys/kernel/random/boot_id');
  const pidns = await readlink('/proc/self/ns/pid');
  await mkdir(join(dir, 'lock'), { recursive: true });
  await writeFile(
    join(dir, 'lock', 'owner'),
    JSON.stringify({ token: 'dead0000', pid: owner, boot, pidns, start: start ?? '1' }),
  );
}
