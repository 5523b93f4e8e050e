import { execFileSync } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import type { StorageAdapter } from '../../src/ledger/storage.js';
import { nodeDirectoryStorage } from '../../src/storage/node-directory.js';
import { bytesEqual, LedgerPool, openLedger } from '../helpers/ledgers.js';
import { transactionFor } from './fixtures/transactions.js';
import { openDurable, referenceSnapshot, removeTempDirs, tempDir } from './helpers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());
afterEach(removeTempDirs);

/** Commits `tx`, expecting STORAGE_FAILED caused by `errno`, and the ledger unchanged byte for byte. */
async function expectRefused(ledger: Ledger, i: number, bodyChars: number, errno: string): Promise<void> {
  const before = await ledger.snapshot();
  const error = await ledger.commit(transactionFor(i, bodyChars)).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: 'STORAGE_FAILED', cause: { code: errno } });
  expect(bytesEqual(await ledger.snapshot(), before)).toBe(true);
  expect(ledger.lastTx).toBe(i - 1);
}

const hasPrlimit = (() => {
  try {
    execFileSync('prlimit', ['--version'], { stdio: 'ignore' });
    return process.platform === 'linux';
  } catch {
    return false;
  }
})();

/** Sets this process's file-size soft limit (RLIMIT_FSIZE; writes past it fail with EFBIG),
 * returning the previous one. */
const limitFileSize = (limit: string): string => {
  const pid = String(process.pid);
  const previous = execFileSync('prlimit', ['--pid', pid, '--fsize', '--output=SOFT', '--noheadings'], {
    encoding: 'utf8',
  }).trim();
  execFileSync('prlimit', ['--pid', pid, `--fsize=${limit}:`]);
  return previous;
};

describe('storage faults', () => {
  it('an append failing with ENOSPC fails that commit with STORAGE_FAILED and changes nothing', async () => {
    const dir = await tempDir();
    const storage = await nodeDirectoryStorage(dir);
    let appends = 0;
    const faulty: StorageAdapter = {
      load: () => storage.load(),
      append: (record) =>
        ++appends === 4
          ? Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))
          : storage.append(record),
      compact: (snapshot) => storage.compact(snapshot),
      close: () => storage.close(),
    };
    const ledger = await openLedger({ storage: faulty });
    for (let i = 1; i <= 3; i++) await ledger.commit(transactionFor(i));
    await expectRefused(ledger, 4, 0, 'ENOSPC');
    await ledger.commit(transactionFor(4));
    await ledger.commit(transactionFor(5));
    await ledger.close();

    const { ledger: again } = await openDurable(dir);
    expect(bytesEqual(await again.snapshot(), await referenceSnapshot(pool, 5))).toBe(true);
    await again.close();
  });

  // A real filesystem refusal mid-frame: under a file-size limit the frame's write is short,
  // then EFBIG (standing in for ENOSPC). The partial frame must be cut off, or the next append
  // would land after garbage.
  it.skipIf(!hasPrlimit)('a short write then EFBIG is rolled back in memory and on disk', async () => {
    const dir = await tempDir();
    const { ledger } = await openDurable(dir);
    for (let i = 1; i <= 3; i++) await ledger.commit(transactionFor(i));
    const log = join(dir, 'log.bin');
    const intact = (await stat(log)).size;
    const previous = limitFileSize(String(intact + 1500));
    try {
      await expectRefused(ledger, 4, 3000, 'EFBIG');
      expect((await stat(log)).size).toBe(intact);
      // Small transactions still fit under the limit, right after the last intact frame.
      await ledger.commit(transactionFor(4));
      await ledger.commit(transactionFor(5));
    } finally {
      limitFileSize(previous);
    }
    await ledger.close();

    const { ledger: again } = await openDurable(dir);
    expect(bytesEqual(await again.snapshot(), await referenceSnapshot(pool, 5))).toBe(true);
    await again.close();
  });
});
