import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import { validateAnthropicMessages, validateOpenAIMessages } from '../../src/working-set/validate-messages.js';
import type { WorkingSet } from '../../src/working-set/working-set.js';
import { arbitrarySession, sessionTransactions } from '../helpers/arbitrary-session.js';
import { LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());

async function commitSession(ledger: Ledger, txs: ReturnType<typeof sessionTransactions>) {
  for (const tx of txs) {
    try {
      await ledger.commit(tx);
    } catch (e) {
      // An edge to evidence an edit has meanwhile superseded is a legitimate rejection.
      expect((e as { code?: string }).code).toBe('DANGLING_EDGE');
    }
  }
}

/** Invariant 1: every included call has all its results, every included result its call. */
function pairsIntact(ws: WorkingSet, ledgerEdges: Array<{ from: string; to: string; kind: string }>) {
  const ids = new Set(ws.items.map((i) => i.id));
  for (const e of ledgerEdges) {
    if (e.kind !== 'produces') continue;
    expect(ids.has(e.from), `call ${e.from} and result ${e.to} split`).toBe(ids.has(e.to));
  }
}

describe('working-set properties over random sessions', () => {
  it('pairs never split, messages validate, budget respected, every candidate explained, output deterministic', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        arbitrarySession,
        fc.array(fc.integer({ min: 0, max: 1500 }), { minLength: 2, maxLength: 3 }),
        async (session, budgets) => {
          const ledger = await pool.ledger(0);
          await commitSession(ledger, sessionTransactions(session));
          const view = await ledger.asOf({ epoch: ledger.lastEpoch });
          for (const tokens of budgets) {
            const ws = await ledger.materialize({ mode: 'fresh', budget: { tokens } });
            expect(ws.tokens).toBeLessThanOrEqual(tokens);
            pairsIntact(ws, view.edges);
            expect(validateOpenAIMessages(ws.toMessages('openai'))).toEqual([]);
            expect(validateAnthropicMessages(ws.toMessages('anthropic'))).toEqual([]);
            const explained = new Set(ws.explanation.filter((e) => e.included).map((e) => e.id));
            expect(explained).toEqual(new Set(ws.items.map((i) => i.id)));
            // Bodies once: a body hash is carried by one item; others reference it.
            const whole = ws.items.filter((i) => i.body !== undefined && i.excerpt === undefined);
            const carriers = whole.filter((i) => i.body!.length > 40).map((i) => i.body);
            expect(new Set(carriers).size).toBe(carriers.length);
            // No recaps: every carried body is the committed body of that node…
            const bodies = new Map(view.nodes.map((n) => [n.id, n.body]));
            for (const i of whole) expect(i.body).toBe(bodies.get(i.id));
            // …and every excerpt line the committed line at that position.
            for (const i of ws.items) {
              if (i.excerpt === undefined) continue;
              const stored = bodies.get(i.id)!.split('\n');
              expect(i.excerpt.of).toBe(stored.length);
              const kept = i.excerpt.lines.flatMap(([a, b]) => stored.slice(a - 1, b));
              expect(i.body!.split('\n')).toEqual(kept);
            }
            const again = await ledger.materialize({ mode: 'fresh', budget: { tokens } });
            expect(JSON.stringify(again)).toBe(JSON.stringify(ws));
          }
          runs++;
        },
      ),
      { numRuns: 200, seed: 4242 },
    );
    expect(runs).toBe(200);
  }, 600_000);

  it('an open edit keeps the range it cites whenever the higher tiers fit, and a restored ledger gives the same bytes', async () => {
    await fc.assert(
      fc.asyncProperty(arbitrarySession, async (session) => {
        const s = { ...session, lastOpen: true };
        s.steps = [
          ...s.steps.slice(0, -1),
          { ...s.steps[s.steps.length - 1]!, calls: 1, view: { path: 0, start: 10, len: 5 } },
        ];
        const ledger = await pool.ledger(0);
        await commitSession(ledger, sessionTransactions(s));
        const cited = `ev:${s.steps.length}`;
        // What the higher tiers cost at this moment (the one-shot ranking); the session mode must
        // keep the cited range at that budget too.
        const generous = await ledger.materialize({ mode: 'fresh', budget: { tokens: 100_000 } });
        // Full body tokens of the higher tiers: an upper bound of what packing them costs (in the
        // generous set some of them may only be references to a lower-tier carrier).
        const full = new Map((await ledger.asOf({ epoch: ledger.lastEpoch })).nodes.map((n) => [n.id, n.tokens]));
        const needed = generous.items.filter((i) => i.tier <= 3).reduce((n, i) => n + full.get(i.id)!, 0);
        const tight = await ledger.materialize({ mode: 'session', budget: { tokens: needed } });
        expect(tight.items.map((i) => i.id)).toContain(cited);
        const restored = await pool.ledger(1, await ledger.snapshot());
        expect(JSON.stringify(await restored.materialize({ mode: 'session', budget: { tokens: needed } }))).toBe(
          JSON.stringify(tight),
        );
      }),
      { numRuns: 40, seed: 99 },
    );
  }, 600_000);
});
