import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { OpenAIMessage } from '../../src/working-set/render-messages.js';
import type { MaterializeRequest } from '../../src/working-set/types.js';
import { validateOpenAIMessages } from '../../src/working-set/validate-messages.js';
import { arbitrarySession, commitSessionStep, sessionTransactions } from '../helpers/arbitrary-session.js';
import { LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());

/** Tokens of what the OpenAI rendering says, as the framework integrations count a prompt:
 * message texts, tool names, call arguments and tool outputs (a result under its call's name). */
function renderedTokens(messages: readonly OpenAIMessage[], count: (text: string) => number): number {
  const names = new Map<string, string>();
  let n = 0;
  for (const m of messages) {
    if (m.content) n += count(m.content);
    for (const c of m.tool_calls ?? []) {
      names.set(c.id, c.function.name);
      n += count(c.function.name) + count(c.function.arguments);
    }
    if (m.role === 'tool') n += count(names.get(m.tool_call_id ?? '') ?? 'tool');
  }
  return n;
}

describe("framing: 'messages' — the budget counts items as the message rendering shows them", () => {
  it('counts each item with its header, tool name and JSON input, within the budget, as a function of the history', async () => {
    let framed = 0;
    let underNone = 0;
    await fc.assert(
      fc.asyncProperty(
        arbitrarySession,
        fc.integer({ min: 150, max: 1500 }),
        fc.constantFrom<MaterializeRequest['mode']>('session', 'fresh'),
        async (session, tokens, mode) => {
          const ledger = await pool.ledger(0);
          const count = (t: string) => ledger.countTokens(t);
          const txs = sessionTransactions(session);
          const request: MaterializeRequest = { mode, budget: { tokens }, framing: 'messages' };
          let last = '';
          for (const tx of txs) {
            if (!(await commitSessionStep(ledger, tx))) continue;
            const ws = await ledger.materialize(request);
            const messages = ws.toMessages('openai');
            expect(validateOpenAIMessages(messages)).toEqual([]);
            expect(ws.tokens).toBe(ws.items.reduce((n, i) => n + i.tokens, 0));
            expect(ws.tokens).toBeLessThanOrEqual(tokens);
            // What the rendering says is what the items were counted at, or less.
            const rendered = renderedTokens(messages, count);
            expect(rendered).toBeLessThanOrEqual(ws.tokens);
            if (ws.items.length > 0) framed++;
            // Counted as bodies (the default), the same kind of set renders above its count.
            const bodies = await ledger.materialize({ mode, budget: { tokens } });
            if (renderedTokens(bodies.toMessages('openai'), count) > bodies.tokens) underNone++;
            last = JSON.stringify(ws);
          }
          if (last === '') return;
          // The same ledger and request give the same bytes: again, and from a ledger that never
          // materialized before.
          expect(JSON.stringify(await ledger.materialize(request))).toBe(last);
          const once = await pool.ledger(1);
          for (const tx of txs) await commitSessionStep(once, tx);
          expect(JSON.stringify(await once.materialize(request))).toBe(last);
        },
      ),
      { numRuns: 16, seed: 2512 },
    );
    expect(framed).toBeGreaterThan(20);
    expect(underNone).toBeGreaterThan(0);
  }, 600_000);

  it('keeps one session fold per framing: each is the fold of its own request', async () => {
    const ledger = await pool.ledger(0);
    const session = fc.sample(arbitrarySession, { numRuns: 1, seed: 11 })[0]!;
    for (const tx of sessionTransactions(session)) await commitSessionStep(ledger, tx);
    const framed = await ledger.materialize({ budget: { tokens: 600 }, framing: 'messages' });
    const plain = await ledger.materialize({ budget: { tokens: 600 } });
    expect(JSON.stringify(await ledger.materialize({ budget: { tokens: 600 }, framing: 'none' }))).toBe(
      JSON.stringify(plain),
    );
    expect(JSON.stringify(await ledger.materialize({ budget: { tokens: 600 }, framing: 'messages' }))).toBe(
      JSON.stringify(framed),
    );
    // An item costs at least as much counted as rendered as its body alone; a context item (its
    // header) and a tool call or result (its tool name) more.
    const plainTokens = new Map(plain.items.map((i) => [i.id, i.tokens]));
    let compared = 0;
    for (const i of framed.items) {
      const was = plainTokens.get(i.id);
      if (was === undefined || i.ref !== undefined) continue;
      compared++;
      if (i.kind === 'action') expect(i.tokens).toBeGreaterThanOrEqual(was);
      else expect(i.tokens).toBeGreaterThan(was);
    }
    expect(compared).toBeGreaterThan(0);
  });

  it('rejects an unknown framing with INVALID_REQUEST naming the field', async () => {
    const ledger = await pool.ledger(0);
    for (const framing of ['anthropic', true, 1])
      await expect(ledger.materialize({ budget: { tokens: 400 }, framing: framing as never })).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        details: { field: 'framing' },
      });
  });
});
