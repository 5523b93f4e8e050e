import { afterEach, describe, expect, it } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import { codeOf, openLedger } from '../helpers/ledgers.js';
import { MemoryStorage } from '../helpers/memory-storage.js';
import { transactionFor } from './fixtures/transactions.js';

const opened: Ledger[] = [];
const open = async (options: Parameters<typeof openLedger>[0]): Promise<Ledger> => {
  const ledger = await openLedger(options);
  opened.push(ledger);
  return ledger;
};
afterEach(async () => {
  for (const l of opened.splice(0)) await l.close();
});

describe('a storage belongs to the one ledger that opened it', () => {
  it('a second openLedger with the same storage object is refused with STORAGE_IN_USE', async () => {
    const storage = new MemoryStorage();
    const first = await open({ storage });
    await first.commit(transactionFor(1));
    const error = await openLedger({ storage }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'STORAGE_IN_USE', details: { field: 'storage' } });
    // The first ledger's storage is untouched and still its own.
    await first.commit(transactionFor(2));
    expect(storage.log).toHaveLength(2);
  });

  it('an open that failed leaves the storage free for another try', async () => {
    const storage = new MemoryStorage();
    storage.snapshot = new Uint8Array([1, 2, 3]);
    expect(await codeOf(() => openLedger({ storage }))).toBe('SNAPSHOT_CORRUPT');
    storage.snapshot = null;
    expect((await open({ storage })).lastTx).toBe(0);
  });

  it("compact() folds the ledger's own storage; compact(undefined) does the same (no TypeError)", async () => {
    const storage = new MemoryStorage();
    const ledger = await open({ storage });
    await ledger.commit(transactionFor(1));
    expect(await ledger.compact()).toBe(true);
    expect([storage.snapshot !== null, storage.log.length]).toEqual([true, 0]);
    await ledger.commit(transactionFor(2));
    expect(await (ledger.compact as (s?: unknown) => Promise<boolean>)(undefined)).toBe(true);
    expect(storage.log).toHaveLength(0);
  });

  it("a.compact(storageOfB) is refused (INVALID_REQUEST) and B's data is untouched", async () => {
    const a = await open({ storage: new MemoryStorage() });
    const storageOfB = new MemoryStorage();
    const b = await open({ storage: storageOfB });
    await a.commit(transactionFor(1));
    await b.commit(transactionFor(1));
    await b.commit(transactionFor(2));
    const error = await (a.compact as (s?: unknown) => Promise<boolean>)(storageOfB).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'storage' } });
    expect([storageOfB.snapshot, storageOfB.log.length]).toEqual([null, 2]);
  });

  it('compact() on a ledger without storage resolves to false', async () => {
    expect(await (await open({})).compact()).toBe(false);
  });
});
