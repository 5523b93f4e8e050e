import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../src/schema/types.js';
import { arbitrarySession, sessionTransactions } from '../helpers/arbitrary-session.js';
import { LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());

const SCOPES = ['user', 'agent', 'repo'];
const queryArb = fc.record({
  text: fc.constantFrom(
    'crc8 uint8_t',
    'FAILED test_speed',
    'parse_status_2 data',
    'drv can.c',
    'nothing matches zebra',
  ),
  records: fc.integer({ min: 1, max: 6 }),
  chars: fc.integer({ min: 1, max: 600 }),
  path: fc.option(fc.constantFrom('drv/can.c', 'tests/test_can.py'), { nil: undefined }),
});

/** The same session with every record outside `scopes` (and every edge touching one) removed. */
function onlyScopes(txs: Transaction[], scopes: readonly string[]): Transaction[] {
  const authority = new Map<string, string>();
  for (const tx of txs) for (const n of tx.nodes ?? []) authority.set(n.id, n.authority ?? 'agent');
  const keep = (id: string) => scopes.includes(authority.get(id) ?? 'agent');
  return txs.map((tx) => ({
    epoch: tx.epoch,
    nodes: (tx.nodes ?? []).filter((n) => keep(n.id)),
    edges: (tx.edges ?? []).filter((e) => keep(e.from) && keep(e.to)),
  }));
}

async function build(slot: number, txs: Transaction[]) {
  const l = await pool.ledger(slot);
  for (const tx of txs) {
    try {
      await l.commit(tx);
    } catch (e) {
      expect((e as { code?: string }).code).toBe('DANGLING_EDGE');
    }
  }
  return l;
}

describe('retrieval properties over random sessions', () => {
  it('authority is applied before ranking: nothing outside the scopes appears or changes a score; results are deterministic and within budget', async () => {
    await fc.assert(
      fc.asyncProperty(arbitrarySession, queryArb, async (session, q) => {
        const txs = sessionTransactions(session);
        const full = await build(0, txs);
        const scoped = await build(1, onlyScopes(txs, SCOPES));
        const query = {
          text: q.text,
          budget: { records: q.records, chars: q.chars },
          ...(q.path ? { artifacts: [{ path: q.path }] } : {}),
        };
        const a = await full.retrieve({ ...query, authority: SCOPES });
        const b = await scoped.retrieve(query);
        // Same ids, scores, channels, explanations and abstention as a ledger that never held them.
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        const view = new Map((await full.asOf({ epoch: full.lastEpoch })).nodes.map((n) => [n.id, n.authority]));
        for (const e of [...a.evidence, ...a.partial]) expect(SCOPES).toContain(view.get(e.id));
        for (const e of a.explanation) expect(SCOPES).toContain(view.get(e.id));
        const kept = [...a.evidence, ...a.partial];
        expect(kept.length).toBeLessThanOrEqual(q.records);
        expect(kept.reduce((n, e) => n + (e.body?.length ?? 0), 0)).toBeLessThanOrEqual(q.chars);
        expect(JSON.stringify(await full.retrieve({ ...query, authority: SCOPES }))).toBe(JSON.stringify(a));
      }),
      { numRuns: 15, seed: 31337 },
    );
  }, 900_000);
});
