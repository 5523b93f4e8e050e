import { afterAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import type { LedgerError } from '../../src/errors.js';
import { bytesEqual, LedgerPool } from '../helpers/ledgers.js';
import { MemoryStorage } from '../helpers/memory-storage.js';
import { transactionFor } from './fixtures/transactions.js';

/**
 * Regression: a storage append that succeeds followed by a failed DuckDB COMMIT used to leave a
 * log record the ledger did not hold, so reopening brought back a transaction the caller was
 * told had failed. Now a `void` record cancels it.
 */
const pool = new LedgerPool();
afterAll(() => pool.close());

function failingCommit(engine: Engine, failAt: Set<number>): Engine {
  let commits = 0;
  return {
    ...engine,
    run: (sql) =>
      sql === 'COMMIT' && failAt.has(++commits) ? Promise.reject(new Error('COMMIT: out of memory')) : engine.run(sql),
  };
}

describe('a COMMIT failing after the log append', () => {
  it('fails the commit with ENGINE_FAILED; reopening yields exactly the acknowledged transactions', async () => {
    const storage = new MemoryStorage();
    const ledger = await pool.open(0, { storage }, (e) => failingCommit(e, new Set([2, 4])));
    const acked: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const r = await ledger.commit(transactionFor(i)).catch((e: LedgerError) => e);
      if ('code' in r) expect(r.code).toBe('ENGINE_FAILED');
      else acked.push(i);
    }
    expect(acked).toEqual([1, 3, 5]);
    expect(storage.log.map((b) => JSON.parse(new TextDecoder().decode(b)).op)).toEqual([
      'commit',
      'commit',
      'void',
      'commit',
      'commit',
      'void',
      'commit',
    ]);
    const live = await ledger.snapshot();
    const reopened = await pool.open(1, { storage: storage.reopen() });
    expect(bytesEqual(await reopened.snapshot(), live)).toBe(true);
    expect(reopened.lastTx).toBe(3);
  });

  it('when the void record cannot be written either, every later call is STORAGE_FAILED', async () => {
    const storage = new MemoryStorage();
    const ledger = await pool.open(0, { storage }, (e) => failingCommit(e, new Set([2])));
    await ledger.commit(transactionFor(1));
    const append = storage.append.bind(storage);
    let appends = 0;
    storage.append = (record) => (++appends === 2 ? Promise.reject(new Error('EIO')) : append(record));
    expect(await ledger.commit(transactionFor(2)).catch((e: LedgerError) => e.code)).toBe('ENGINE_FAILED');
    expect(await ledger.commit(transactionFor(3)).catch((e: LedgerError) => e.code)).toBe('STORAGE_FAILED');
    expect(await ledger.asOf({ epoch: 1 }).catch((e: LedgerError) => e.code)).toBe('STORAGE_FAILED');
  });
});
