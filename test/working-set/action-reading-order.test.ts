import { afterAll, describe, expect, it } from 'vitest';
import { LedgerPool } from '../helpers/ledgers.js';

/**
 * Within one action the reading order is the action's thought, then each call with its results in
 * the order they were recorded — whatever the adapter's id scheme. Ids that sort the other way
 * (a call id before its action's, `step-10` before `step-2`) must not reorder the log.
 */
const pool = new LedgerPool();
afterAll(() => pool.close());

const calls = Array.from({ length: 12 }, (_, i) => i);

describe('reading order inside an action does not follow id order', () => {
  it('puts the thought first and the calls in recording order', async () => {
    const ledger = await pool.ledger(0);
    await ledger.commit({
      epoch: 1,
      nodes: [{ id: 'task', kind: 'task', status: 'open', authority: 'user', body: 'Count the widgets' }],
    });
    for (const step of [1, 2]) {
      await ledger.commit({
        epoch: 1,
        nodes: [
          {
            id: `z-thought-${step}`,
            kind: 'action',
            status: 'resolved',
            authority: 'agent',
            body: `Look again (${step})`,
          },
          ...calls.flatMap((i) => [
            { id: `a-call-${step}-${i}`, kind: 'tool_call' as const, authority: 'agent' as const, body: `ls dir${i}` },
            { id: `a-out-${step}-${i}`, kind: 'tool_result' as const, authority: 'tool' as const, body: `file${i}` },
          ]),
        ],
        edges: [
          { from: 'task', to: `z-thought-${step}`, kind: 'plans' },
          ...calls.flatMap((i) => [
            { from: `z-thought-${step}`, to: `a-call-${step}-${i}`, kind: 'invokes' as const },
            { from: `a-call-${step}-${i}`, to: `a-out-${step}-${i}`, kind: 'produces' as const },
          ]),
        ],
      });
    }
    const ws = await ledger.materialize({ mode: 'fresh', budget: { tokens: 100_000 } });
    const log = ws.items.map((i) => i.id).filter((id) => id !== 'task');
    const expected = [1, 2].flatMap((step) => [
      `z-thought-${step}`,
      ...calls.flatMap((i) => [`a-call-${step}-${i}`, `a-out-${step}-${i}`]),
    ]);
    expect(log).toEqual(expected);
    // Rendered: each step's thought comes before its calls, and the calls keep their order.
    const messages = ws.toMessages('openai');
    const assistants = messages.filter((m) => m.role === 'assistant');
    expect(assistants.filter((m) => m.content !== null).map((m) => m.content)).toEqual([
      'Look again (1)',
      'Look again (2)',
    ]);
    const rendered = assistants.flatMap((m) => [
      ...(m.content ? [m.content] : []),
      ...(m.tool_calls ?? []).map((c) => c.id),
    ]);
    expect(rendered).toEqual(
      [1, 2].flatMap((step) => [`Look again (${step})`, ...calls.map((i) => `a-call-${step}-${i}`)]),
    );
  });
});
