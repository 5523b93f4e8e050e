import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { fromMiniSweAgent } from '../../src/adapters/index.js';
import { LedgerPool } from '../helpers/ledgers.js';

/**
 * The ranking is kept between calls that differ only in budget (the replay evaluation's sweep, a
 * host shrinking a set for a cheaper model): a reused ranking must give byte-identical working
 * sets to a fresh ledger's, and any commit must invalidate it.
 */
const trajectory = JSON.parse(
  readFileSync(new URL('../fixtures/transcripts/mini-swe-agent.traj.json', import.meta.url), 'utf8'),
);
const { transactions } = fromMiniSweAgent(trajectory);
const last = transactions[transactions.length - 1]!.epoch;

const pool = new LedgerPool();
afterAll(() => pool.close());

async function freshSet(upTo: number, epoch: number, tokens: number): Promise<string> {
  const ledger = await pool.ledger(1);
  for (const tx of transactions) if (tx.epoch <= upTo) await ledger.commit(tx);
  return JSON.stringify(await ledger.materialize({ mode: 'fresh', epoch, budget: { tokens } }));
}

describe('ranking cache', () => {
  it('gives the same working set at every budget as a fresh ledger, in any call order', async () => {
    const ledger = await pool.ledger(0);
    for (const tx of transactions) await ledger.commit(tx);
    const budgets = [4000, 300, 4000];
    const got: string[] = [];
    for (const tokens of budgets)
      got.push(JSON.stringify(await ledger.materialize({ mode: 'fresh', budget: { tokens } })));
    expect(got[0]).toBe(await freshSet(last, last, 4000));
    expect(got[1]).toBe(await freshSet(last, last, 300));
    expect(got[2]).toBe(got[0]);
    // Different budgets do give different sets (the comparison above can fail).
    expect(got[0]).not.toBe(got[1]);
  });

  it('is invalidated by a commit and keyed by the epoch', async () => {
    expect(last).toBeGreaterThan(2);
    const ledger = await pool.ledger(0);
    for (const tx of transactions) if (tx.epoch < last) await ledger.commit(tx);
    const before = JSON.stringify(await ledger.materialize({ mode: 'fresh', budget: { tokens: 100_000 } }));
    const earlier = JSON.stringify(
      await ledger.materialize({ mode: 'fresh', epoch: last - 2, budget: { tokens: 100_000 } }),
    );
    expect(earlier).not.toBe(before);
    for (const tx of transactions) if (tx.epoch === last) await ledger.commit(tx);
    const after = JSON.stringify(await ledger.materialize({ mode: 'fresh', budget: { tokens: 100_000 } }));
    expect(after).not.toBe(before);
    expect(after).toBe(await freshSet(last, last, 100_000));
    expect(earlier).toBe(await freshSet(last - 1, last - 2, 100_000));
  });

  it('hands out items whose ranges the caller may change without touching later sets', async () => {
    const ledger = await pool.ledger(0);
    for (const tx of transactions) await ledger.commit(tx);
    const first = await ledger.materialize({ mode: 'fresh', budget: { tokens: 100_000 } });
    const withRange = first.items.find((i) => i.range !== undefined);
    expect(withRange).toBeDefined();
    const original = [...withRange!.range!];
    (withRange!.range as unknown as number[])[0] = -1;
    const again = await ledger.materialize({ mode: 'fresh', budget: { tokens: 100_000 } });
    expect(again.items.find((i) => i.id === withRange!.id)!.range).toEqual(original);
  });
});
