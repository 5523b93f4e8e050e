import { afterAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import type { LedgerError } from '../../src/errors.js';
import type { Transaction } from '../../src/schema/types.js';
import { bytesEqual, codeOf, LedgerPool } from '../helpers/ledgers.js';
import { MemoryStorage } from '../helpers/memory-storage.js';
import { transactionFor } from './fixtures/transactions.js';

/**
 * Regression: a storage append that succeeds followed by a failed DuckDB COMMIT used to leave a
 * log record the ledger did not hold, so reopening brought back a transaction the caller was
 * told had failed. Now a `void` record cancels it. Only a commit written to the engine at once
 * (larger than a step) has a COMMIT after its log append; a step-sized one waits for the engine's
 * next read (write-behind), and a failure then fails the ledger.
 */
const pool = new LedgerPool();
afterAll(() => pool.close());

function failingCommit(engine: Engine, failAt: Set<number>): Engine {
  let commits = 0;
  return {
    ...engine,
    run: (sql) =>
      /\bCOMMIT$/.test(sql) && failAt.has(++commits)
        ? Promise.reject(new Error('COMMIT: out of memory'))
        : engine.run(sql),
  };
}

/** Transaction `i` with enough extra nodes to be written to the engine at once. */
function bulkTransactionFor(i: number): Transaction {
  const tx = transactionFor(i);
  const bulk = Array.from({ length: 300 }, (_, k) => ({ id: `bulk:${i}:${k}`, kind: 'message' as const }));
  return { ...tx, nodes: [...tx.nodes!, ...bulk] };
}

const opsOf = (storage: MemoryStorage) => storage.log.map((b) => JSON.parse(new TextDecoder().decode(b)).op);

describe('a COMMIT failing after the log append', () => {
  it('fails the commit with ENGINE_FAILED; reopening yields exactly the acknowledged transactions', async () => {
    const storage = new MemoryStorage();
    const ledger = await pool.open(0, { storage }, (e) => failingCommit(e, new Set([2, 4])));
    const acked: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const r = await ledger.commit(bulkTransactionFor(i)).catch((e: LedgerError) => e);
      if ('code' in r) expect(r.code).toBe('ENGINE_FAILED');
      else acked.push(i);
    }
    expect(acked).toEqual([1, 3, 5]);
    expect(opsOf(storage)).toEqual(['commit', 'commit', 'void', 'commit', 'commit', 'void', 'commit']);
    const live = await ledger.snapshot();
    const reopened = await pool.open(1, { storage: storage.reopen() });
    expect(bytesEqual(await reopened.snapshot(), live)).toBe(true);
    expect(reopened.lastTx).toBe(3);
  });

  it('when the void record cannot be written either, every later call is STORAGE_FAILED', async () => {
    const storage = new MemoryStorage();
    const ledger = await pool.open(0, { storage }, (e) => failingCommit(e, new Set([2])));
    await ledger.commit(bulkTransactionFor(1));
    const append = storage.append.bind(storage);
    let appends = 0;
    storage.append = (record) => (++appends === 2 ? Promise.reject(new Error('EIO')) : append(record));
    expect(await ledger.commit(bulkTransactionFor(2)).catch((e: LedgerError) => e.code)).toBe('ENGINE_FAILED');
    expect(await ledger.commit(bulkTransactionFor(3)).catch((e: LedgerError) => e.code)).toBe('STORAGE_FAILED');
    expect(await ledger.asOf({ epoch: 1 }).catch((e: LedgerError) => e.code)).toBe('STORAGE_FAILED');
  });
});

describe('step-sized commits failing to reach the engine at its next read', () => {
  it('fails that read and every later call with ENGINE_FAILED; reopening yields every acknowledged transaction', async () => {
    const storage = new MemoryStorage();
    const ledger = await pool.open(0, { storage }, (e) => failingCommit(e, new Set([1])));
    for (let i = 1; i <= 5; i++) await ledger.commit(transactionFor(i));
    const failed = await ledger.rerunCandidates().catch((e: LedgerError) => e);
    expect(failed).toMatchObject({ code: 'ENGINE_FAILED' });
    expect((failed as LedgerError).details).toMatchObject({ reason: expect.stringContaining('transactions 1–5') });
    expect(await codeOf(() => ledger.commit(transactionFor(6)))).toBe('ENGINE_FAILED');
    expect(await codeOf(() => ledger.asOf())).toBe('ENGINE_FAILED');
    expect(opsOf(storage)).toEqual(['commit', 'commit', 'commit', 'commit', 'commit']);
    const reopened = await pool.open(1, { storage: storage.reopen() });
    const reference = await pool.open(2, {});
    for (let i = 1; i <= 5; i++) await reference.commit(transactionFor(i));
    expect(reopened.lastTx).toBe(5);
    expect(bytesEqual(await reopened.snapshot(), await reference.snapshot())).toBe(true);
  });

  it('rejects, unlogged, the commit that found too much waiting and could not write it', async () => {
    const storage = new MemoryStorage();
    const ledger = await pool.open(0, { storage }, (e) => failingCommit(e, new Set([1])));
    let acknowledged = 0;
    let refused: string | null = null;
    for (let i = 1; i <= 100 && refused === null; i++) {
      const r = await ledger.commit(transactionFor(i)).catch((e: LedgerError) => e.code);
      if (typeof r === 'string') refused = r;
      else acknowledged = i;
    }
    expect(refused).toBe('ENGINE_FAILED');
    expect(acknowledged).toBeGreaterThan(1);
    expect(storage.log.length).toBe(acknowledged);
    const reopened = await pool.open(1, { storage: storage.reopen() });
    expect(reopened.lastTx).toBe(acknowledged);
  });
});
