import { afterAll, describe, expect, it } from 'vitest';
import { fromMiniSweAgent } from '../../src/adapters/index.js';
import { LedgerPool } from '../helpers/ledgers.js';

/**
 * The finished current action's thought is a unit of its own, packed after the evidence the
 * relevance ranking placed: its words are the ranking's focus query, so what they point at — the
 * file view — comes first in a small budget, and the action's call and result stay in with it.
 */
const source = [
  'def frobnicate_widget(spindle=None):',
  '    """Return the widget for a spindle, or the default widget."""',
  '    return WIDGETS[spindle]',
  ...Array.from({ length: 12 }, (_, i) => `HELPER_${i} = ${i}`),
].join('\n');
const musing = Array.from(
  { length: 12 },
  (_, i) => `Point ${i}: the lookup in frobnicate_widget indexes WIDGETS by spindle, so None raises a KeyError.`,
).join('\n');
const trajectory = {
  info: { submission: '', config: { environment: { cwd: '/testbed' } } },
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: '<pr_description>\nfrobnicate_widget(spindle=None) raises KeyError\n</pr_description>' },
    { role: 'assistant', content: 'THOUGHT: Read the code.\n\n```bash\ncat widgets/core.py\n```' },
    { role: 'user', content: `<returncode>0</returncode>\n<output>\n${source}\n</output>` },
    { role: 'assistant', content: `THOUGHT: ${musing}\n\n\`\`\`bash\nls tests\n\`\`\`` },
    { role: 'user', content: '<returncode>0</returncode>\n<output>\ntest_core.py\n</output>' },
  ],
};

const pool = new LedgerPool();
afterAll(() => pool.close());

describe("the current action's thought yields to the ranked evidence", () => {
  it('keeps the file view and the action’s call and result when the thought does not fit beside them', async () => {
    const { transactions } = fromMiniSweAgent(trajectory);
    const ledger = await pool.ledger(0);
    for (const tx of transactions) await ledger.commit(tx);
    const whole = await ledger.materialize({ mode: 'fresh', budget: { tokens: 100_000 } });
    const thought = whole.items.find((i) => i.kind === 'action' && (i.body ?? '').includes('Point 11'))!;
    const call = whole.items.find((i) => i.kind === 'tool_call' && i.body === 'ls tests')!;
    const result = whole.items.find((i) => i.kind === 'tool_result' && i.unit === call.unit)!;
    const view = whole.items.find((i) => i.kind === 'evidence' && i.path === 'widgets/core.py')!;
    expect(thought.tier).toBe(2);
    expect(call.tier).toBe(2);
    expect(thought.unit).not.toBe(call.unit);
    // The thought is longer than what the first step shows beside the view.
    const firstStep = whole.items.filter((i) => i.tier > 2 && i.id !== view.id).reduce((n, i) => n + i.tokens, 0);
    expect(thought.tokens).toBeGreaterThan(firstStep);

    const ws = await ledger.materialize({
      mode: 'fresh',
      budget: { tokens: whole.tokens - thought.tokens },
      excerpts: false,
    });
    const ids = ws.items.map((i) => i.id);
    expect(ids).toContain(view.id);
    expect(ids).toContain(call.id);
    expect(ids).toContain(result.id);
    expect(ids).not.toContain(thought.id);
    expect(ws.explanation.find((e) => e.id === thought.id)).toMatchObject({
      included: false,
      tier: 2,
      reason: 'budget (current action: its thought, packed after the ranked evidence)',
    });
    // The call is answered without its thought.
    const messages = ws.toMessages('openai');
    const assistant = messages.find((m) => m.tool_calls?.length)!;
    expect(assistant.content).toBeNull();
    expect(messages[messages.indexOf(assistant) + 1]!.role).toBe('tool');

    // With room for it, the thought is shown, in reading order before its call.
    const all = await ledger.materialize({ mode: 'fresh', budget: { tokens: whole.tokens }, excerpts: false });
    const order = all.items.map((i) => i.id);
    expect(order.indexOf(thought.id)).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(thought.id)).toBeLessThan(order.indexOf(call.id));
  });
});
