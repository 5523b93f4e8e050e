import { afterAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { LedgerError } from '../../src/errors.js';
import type { Transaction } from '../../src/schema/types.js';
import { LedgerPool, openLedger } from '../helpers/ledgers.js';
import { MemoryStorage } from '../helpers/memory-storage.js';

/** No uncoded error leaves the public API: a bug or a runtime failure arrives as a LedgerError
 * (INTERNAL, ENGINE_FAILED, STORAGE_FAILED) with the original as its cause. */
const pool = new LedgerPool();
afterAll(() => pool.close());

const TX: Transaction = { epoch: 1, nodes: [{ id: 'task:1', kind: 'task', body: 'fix it' }] };

/** An engine whose queries throw a TypeError once `armed`, as a bug deep inside would. */
function buggy(engine: Engine, state: { armed: boolean }): Engine {
  return {
    ...engine,
    query: (sql) => {
      if (state.armed) return Promise.reject(new TypeError("Cannot read properties of undefined (reading 'tier')"));
      return engine.query(sql);
    },
  };
}

describe('the public API rejects only with coded LedgerErrors', () => {
  it('a TypeError from inside becomes INTERNAL with the cause, on every read', async () => {
    const state = { armed: false };
    const ledger = await pool.open(0, {}, (e) => buggy(e, state));
    await ledger.commit(TX);
    state.armed = true;
    const calls = [
      () => ledger.asOf({ epoch: 1 }),
      () => ledger.materialize({ budget: { tokens: 100 } }),
      () => ledger.retrieve({ text: 'fix' }),
      () => ledger.snapshot(),
      () => ledger.rerunCandidates(),
      () => ledger.archive({ tx: 1 }),
    ];
    for (const call of calls) {
      const e = await call().catch((x: unknown) => x);
      expect(e, String(call)).toBeInstanceOf(LedgerError);
      expect((e as LedgerError).code).toMatch(/^(INTERNAL|ARCHIVE_REFUSED)$/);
      if ((e as LedgerError).code === 'INTERNAL') expect((e as LedgerError).cause).toBeInstanceOf(TypeError);
    }
    state.armed = false;
    expect((await ledger.asOf({ epoch: 1 })).nodes.map((n) => n.id)).toEqual(['task:1']);
  });

  it('openLedger: bad options and a failing storage are coded', async () => {
    expect(await openLedger(null as never).catch((e: LedgerError) => e.code)).toBe('INVALID_OPTION');
    expect(await openLedger({ snapshot: 'bytes' as never }).catch((e: LedgerError) => e.code)).toBe('INVALID_OPTION');
    const storage = new MemoryStorage();
    storage.load = () => Promise.reject(new Error('EIO: i/o error'));
    const e = await pool.open(0, { storage }).catch((x: LedgerError) => x);
    expect(e).toMatchObject({ code: 'STORAGE_FAILED', details: { field: 'storage' } });
    const corrupt = new MemoryStorage();
    corrupt.log = [new TextEncoder().encode('{"op":"commit","tx":null}')];
    expect(await pool.open(0, { storage: corrupt }).catch((x: LedgerError) => x.code)).toBe('INVALID_TRANSACTION');
  });

  it('a transaction mutated after commit() is called commits as it was at the call', async () => {
    const storage = new MemoryStorage();
    const ledger = await pool.open(0, { storage });
    const tx = {
      epoch: 1,
      nodes: [{ id: 'task:1', kind: 'task', body: 'original', meta: { k: 'v' } }],
    } as { epoch: number; nodes: Array<Record<string, unknown>> };
    const pending = ledger.commit(tx as unknown as Transaction);
    tx.nodes[0]!.id = 'task:\ud800';
    tx.nodes[0]!.body = '\ufeffchanged';
    (tx.nodes[0]!.meta as Record<string, unknown>).k = { not: 'a scalar' };
    tx.nodes.push({ id: 'sneaked', kind: 'claim' });
    tx.epoch = -1;
    const receipt = await pending;
    expect(receipt.counts.nodes).toBe(1);
    const view = await ledger.asOf({ epoch: 1 });
    expect(view.nodes.map((n) => [n.id, n.body, n.meta])).toEqual([['task:1', 'original', { k: 'v' }]]);
    const reopened = await pool.open(1, { storage: storage.reopen() });
    expect(JSON.stringify(await reopened.asOf({ epoch: 1 }))).toBe(JSON.stringify(view));
  });

  it('a transaction whose getter throws is INVALID_TRANSACTION, not a thrown TypeError', async () => {
    const ledger = await pool.ledger(0);
    const tx = {
      epoch: 1,
      get nodes(): never {
        throw new TypeError('boom');
      },
    };
    expect(await ledger.commit(tx as never).catch((e: LedgerError) => e.code)).toBe('INVALID_TRANSACTION');
  });

  it('calls racing close(): those made before it complete, those after it are LEDGER_CLOSED', async () => {
    const ledger = await pool.ledger(0);
    const before = ledger.commit(TX);
    const read = ledger.asOf({ epoch: 1 });
    const closing = ledger.close();
    const after = ledger.commit({ epoch: 2, nodes: [{ id: 'x', kind: 'claim' }] }).catch((e: LedgerError) => e.code);
    const again = ledger.close();
    expect((await before).tx).toBe(1);
    expect((await read).nodes).toHaveLength(1);
    expect(await after).toBe('LEDGER_CLOSED');
    await closing;
    await again;
    expect(await ledger.asOf({ epoch: 1 }).catch((e: LedgerError) => e.code)).toBe('LEDGER_CLOSED');
  });
});
