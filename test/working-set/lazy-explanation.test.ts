import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { fromMiniSweAgent } from '../../src/adapters/index.js';
import { LedgerPool } from '../helpers/ledgers.js';

/**
 * A working set's explanation is built when first read (see WorkingSet). Whatever the ledger
 * does in between — other budgets served from the kept ranking, later commits — a set read late
 * must serialise exactly as one read at once, and console.log must show the records.
 */
const trajectory = JSON.parse(
  readFileSync(new URL('../fixtures/transcripts/mini-swe-agent.traj.json', import.meta.url), 'utf8'),
);
const { transactions } = fromMiniSweAgent(trajectory);
const last = transactions[transactions.length - 1]!.epoch;

const pool = new LedgerPool();
afterAll(() => pool.close());

describe('the explanation, built when first read', () => {
  it('is the same read late, after other requests and commits, as read at once', async () => {
    const eager = await pool.ledger(1);
    for (const tx of transactions) if (tx.epoch < last) await eager.commit(tx);
    const atOnce = await eager.materialize({ mode: 'fresh', budget: { tokens: 1500 } });
    const expected = JSON.stringify(atOnce);
    expect(atOnce.explanation.length).toBeGreaterThan(0);

    const ledger = await pool.ledger(0);
    for (const tx of transactions) if (tx.epoch < last) await ledger.commit(tx);
    const late = await ledger.materialize({ mode: 'fresh', budget: { tokens: 1500 } });
    // The same ranking serves other budgets, whose explanations are read and changed by the caller.
    for (const tokens of [300, 1500, 100_000]) {
      const other = await ledger.materialize({ mode: 'fresh', budget: { tokens } });
      for (const record of other.explanation) (record as { reason: string }).reason = 'changed by the caller';
    }
    for (const tx of transactions) if (tx.epoch === last) await ledger.commit(tx);
    await ledger.materialize({ mode: 'fresh', budget: { tokens: 1500 } });
    expect(JSON.stringify(late)).toBe(expected);
    // Read twice, the same records.
    expect(late.explanation).toBe(late.explanation);
  });

  it('is shown by console.log as records, not as a getter', async () => {
    const ledger = await pool.ledger(0);
    for (const tx of transactions) await ledger.commit(tx);
    const ws = await ledger.materialize({ mode: 'fresh', budget: { tokens: 2000 } });
    const shown = inspect(ws, { depth: 4 });
    expect(shown).not.toContain('[Getter]');
    expect(shown).toContain(ws.explanation[0]!.id);
    expect(Object.keys(ws)).toContain('explanation');
  });
});
