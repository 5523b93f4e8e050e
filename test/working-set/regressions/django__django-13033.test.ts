import { afterAll, describe, expect, it } from 'vitest';
import { fromMiniSweAgent } from '../../../src/adapters/index.js';
import { LedgerPool } from '../../helpers/ledgers.js';

/**
 * django__django-13033, step 36 → 37 (replay evaluation, first edit of tests/ordering/tests.py):
 * `cat tests/ordering/tests.py` printed more than mini-swe-agent keeps, so the observation was
 * elided to a head and a tail. Only the head sits at known lines and became evidence; the working
 * set then showed the whole result as a reference to that evidence, and the tail — holding the
 * very line the edit appended after — was lost even with an unlimited budget (reach 0, ceiling 1).
 */
const head = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of the head`);
const tail = ['partial line cut by the tool', '        self.assertSequenceEqual(articles, [ca4, ca2, ca1, ca3])', ''];
const trajectory = {
  info: { submission: '', config: { environment: { cwd: '/testbed' } } },
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: '<pr_description>\nOrdering by a foreign key attname.\n</pr_description>' },
    { role: 'assistant', content: 'THOUGHT: Read the tests.\n\n```bash\ncat tests/ordering/tests.py\n```' },
    {
      role: 'user',
      content: `<returncode>0</returncode>\n<warning>\nThe output of your last command was too long.\n</warning><output_head>\n${head.join('\n')}\n</output_head>\n<elided_chars>\n12000 characters elided\n</elided_chars>\n<output_tail>\n${tail.join('\n')}\n</output_tail>`,
    },
  ],
};

const pool = new LedgerPool();
afterAll(() => pool.close());

describe('django__django-13033: an elided output keeps its tail in the working set', () => {
  it('cuts evidence from the head only, and shows the whole result rather than a reference to it', async () => {
    const { transactions } = fromMiniSweAgent(trajectory);
    const step = transactions.find((t) => t.epoch === 1)!;
    const ev = step.nodes!.find((n) => n.kind === 'evidence')!;
    // The head ends mid-line as far as the parser can tell, so its last line is not trusted.
    expect(ev.range).toEqual([1, 39]);
    expect(step.nodes!.find((n) => n.kind === 'tool_result')!.meta).toMatchObject({ elided: true });

    const ledger = await pool.ledger(0);
    for (const tx of transactions) await ledger.commit(tx);
    const ws = await ledger.materialize({ mode: 'fresh', budget: { tokens: 100_000 } });
    const result = ws.items.find((i) => i.kind === 'tool_result')!;
    expect(result.ref).toBeUndefined();
    expect(result.body).toContain('self.assertSequenceEqual(articles, [ca4, ca2, ca1, ca3])');
  });
});
