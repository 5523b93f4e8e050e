import { afterAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/schema/limits.js';
import { LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());

describe('a body of the documented limit commits (it failed INTERNAL: a tiktoken wasm trap)', () => {
  it.each([
    ['a', 'a'],
    ['space', ' '],
  ])('%s × LIMITS.maxBodyChars', async (_name, unit) => {
    const ledger = await pool.ledger();
    const body = unit.repeat(LIMITS.maxBodyChars);
    const receipt = await ledger.commit({ epoch: 1, nodes: [{ id: 'result:big', kind: 'tool_result', body }] });
    expect(receipt.tx).toBe(1);
    const set = await ledger.materialize({ epoch: 1, budget: { tokens: 1_000_000 }, roots: ['result:big'] });
    const item = set.items.find((i) => i.id === 'result:big');
    expect(item?.tokens).toBe(ledger.countTokens(body));
    expect(item?.tokens).toBeGreaterThan(0);
  });
});
