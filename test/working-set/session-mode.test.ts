import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../src/schema/types.js';
import { validateAnthropicMessages, validateOpenAIMessages } from '../../src/working-set/validate-messages.js';
import type { WorkingSet } from '../../src/working-set/working-set.js';
import { arbitrarySession, commitSessionStep, sessionTransactions } from '../helpers/arbitrary-session.js';
import { LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());

const IN_CODES = ['selected', 'kept-with-unit', 'kept-in-prefix', 'notice'];
const OUT_CODES = ['budget', 'held-out', 'unanswered-call', 'beyond-bound', 'superseded', 'archived'];

/** What the model sees of an item, as the renderers draw it (its tier aside). */
const shown = (ws: WorkingSet) =>
  ws.items.map((i) => JSON.stringify([i.id, i.kind, i.body, i.ref, i.excerpt, i.status, i.path, i.range, i.unit]));

/** Anthropic content blocks in order, cache breakpoints aside (they move to each request's end). */
const blocks = (ws: WorkingSet) =>
  ws
    .toMessages('anthropic')
    .flatMap((m) => m.content.map(({ cache_control: _, ...b }) => `${m.role} ${JSON.stringify(b)}`));

describe('session mode (opt-in): an agent loop that materializes after every commit', () => {
  it('appends between re-packs, keeps every guarantee, marks what stopped being current, and is a function of the history', async () => {
    let appended = 0;
    let noticed = 0;
    await fc.assert(
      fc.asyncProperty(arbitrarySession, fc.integer({ min: 150, max: 1500 }), async (session, tokens) => {
        const ledger = await pool.ledger(0);
        const txs = sessionTransactions(session);
        let prev: WorkingSet | null = null;
        for (const tx of txs) {
          if (!(await commitSessionStep(ledger, tx))) continue;
          const ws = await ledger.materialize({ mode: 'session', budget: { tokens } });
          expect(ws.tokens).toBeLessThanOrEqual(tokens);
          expect(ws.tokens).toBe(ws.items.reduce((n, i) => n + i.tokens, 0));
          expect(validateOpenAIMessages(ws.toMessages('openai'))).toEqual([]);
          expect(validateAnthropicMessages(ws.toMessages('anthropic'))).toEqual([]);
          const view = await ledger.asOf({ epoch: ledger.lastEpoch });
          const ids = new Set(ws.items.map((i) => i.id));
          // A call is never shown without its results, nor a result without its call.
          for (const e of view.edges) if (e.kind === 'produces') expect(ids.has(e.from)).toBe(ids.has(e.to));
          // Every item is explained as included, every other record as excluded, each once.
          const included = ws.explanation.filter((r) => r.included).map((r) => r.id);
          expect(included).toEqual(ws.items.map((i) => i.id));
          expect(new Set(ws.explanation.map((r) => r.id)).size).toBe(ws.explanation.length);
          // Each record's code agrees with whether it is in, and a notice is coded as one.
          const notices = new Set(ws.items.filter((i) => i.notice).map((i) => i.id));
          for (const r of ws.explanation) {
            expect(r.included ? IN_CODES : OUT_CODES).toContain(r.code);
            expect(r.code === 'notice').toBe(notices.has(r.id));
          }
          // Bodies once among whole carriers; a carried body is the committed body (no recaps).
          const bodies = new Map(view.nodes.map((n) => [n.id, n.body]));
          const whole = ws.items.filter((i) => i.body !== undefined && i.excerpt === undefined && !i.notice);
          const long = whole.filter((i) => i.body!.length > 40).map((i) => i.body);
          expect(new Set(long).size).toBe(long.length);
          const valid = new Set(view.nodes.map((n) => n.id));
          for (const i of whole) if (valid.has(i.id)) expect(i.body).toBe(bodies.get(i.id));
          // Nothing no longer valid is shown without a notice after it saying so.
          ws.items.forEach((i, k) => {
            if (i.notice || valid.has(i.id)) return;
            const notice = ws.items.findIndex((n) => n.notice?.of === i.id);
            expect(notice, `${i.id} is no longer valid`).toBeGreaterThan(k);
            noticed++;
          });
          if (prev !== null && ws.session!.step === 'append') {
            appended++;
            expect(shown(ws).slice(0, prev.items.length)).toEqual(shown(prev));
            expect(blocks(ws).slice(0, blocks(prev).length)).toEqual(blocks(prev));
          }
          prev = ws;
        }
        if (prev === null) return;
        // A function of the ledger's history: the same bytes from a ledger that never
        // materialized before, from a restored one, and after restoring and going on.
        const once = await pool.ledger(1);
        for (const tx of txs) await commitSessionStep(once, tx);
        expect(JSON.stringify(await once.materialize({ mode: 'session', budget: { tokens } }))).toBe(
          JSON.stringify(prev),
        );
        const restored = await pool.ledger(1, await ledger.snapshot());
        expect(JSON.stringify(await restored.materialize({ mode: 'session', budget: { tokens } }))).toBe(
          JSON.stringify(prev),
        );
        const next: Transaction = {
          epoch: ledger.lastEpoch + 1,
          nodes: [{ id: 'late', kind: 'claim', status: 'open', authority: 'agent', body: 'one more claim' }],
        };
        await ledger.commit(next);
        await restored.commit(next);
        const a = await ledger.materialize({ mode: 'session', budget: { tokens } });
        expect(JSON.stringify(await restored.materialize({ mode: 'session', budget: { tokens } }))).toBe(
          JSON.stringify(a),
        );
        // `materialize` is a read: it committed nothing.
        expect(ledger.lastTx).toBe(restored.lastTx);
      }),
      { numRuns: 12, seed: 2811 },
    );
    // The property ran over appending steps and over shown items that stopped being current.
    expect(appended).toBeGreaterThan(10);
    expect(noticed).toBeGreaterThan(0);
  }, 600_000);

  it("opts out with mode: 'fresh' (the one-shot ranking), and rejects an unknown mode naming the field", async () => {
    const ledger = await pool.ledger(0);
    const session = fc.sample(arbitrarySession, { numRuns: 1, seed: 7 })[0]!;
    for (const tx of sessionTransactions({ ...session, lastOpen: false })) await commitSessionStep(ledger, tx);
    const fresh = await ledger.materialize({ budget: { tokens: 400 }, mode: 'fresh' });
    expect(fresh.session).toBeUndefined();
    expect(JSON.parse(JSON.stringify(fresh))).not.toHaveProperty('session');
    const stable = await ledger.materialize({ mode: 'session', budget: { tokens: 400 } });
    expect(stable.session).toBeDefined();
    await expect(ledger.materialize({ budget: { tokens: 400 }, mode: 'sticky' as never })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      details: { field: 'mode' },
    });
  });
});
