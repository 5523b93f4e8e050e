import { afterAll, describe, expect, it } from 'vitest';
import { fromMiniSweAgent } from '../../src/adapters/index.js';
import { LedgerPool } from '../helpers/ledgers.js';

/**
 * An agent often reads a function, then the whole file (or a wider window) around it. The wider
 * view shows every line of the narrow one, so once it is in the working set whole the narrow
 * range costs only a reference — and only when its lines are really the same lines.
 */
const file = Array.from({ length: 40 }, (_, i) => `    value_${i + 1} = compute(${i + 1})  # line ${i + 1}`);
const step = (command: string, output: string) => [
  { role: 'assistant', content: `THOUGHT: Look at the code.\n\n\`\`\`bash\n${command}\n\`\`\`` },
  { role: 'user', content: `<returncode>0</returncode>\n<output>\n${output}\n</output>` },
];
const trajectory = (later: string[]) => ({
  info: { submission: '', config: { environment: { cwd: '/testbed' } } },
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: '<pr_description>\nvalue_12 is computed wrongly.\n</pr_description>' },
    ...step("sed -n '10,15p' pkg/mod.py", file.slice(9, 15).join('\n')),
    ...step('cat pkg/mod.py', later.join('\n')),
  ],
});

const pool = new LedgerPool();
afterAll(() => pool.close());

async function workingSet(later: string[]) {
  const { transactions } = fromMiniSweAgent(trajectory(later));
  const ledger = await pool.ledger(0);
  for (const tx of transactions) await ledger.commit(tx);
  const ws = await ledger.materialize({ mode: 'fresh', budget: { tokens: 100_000 } });
  const views = ws.items.filter((i) => i.kind === 'evidence');
  return { ws, narrow: views.find((v) => v.range?.[0] === 10)!, wide: views.find((v) => v.range?.[0] === 1)! };
}

describe('a file range a wider view of the file shows line for line', () => {
  it('is a reference to that view', async () => {
    const { ws, narrow, wide } = await workingSet(file);
    expect(narrow.range).toEqual([10, 15]);
    expect(wide.range).toEqual([1, 40]);
    expect(wide.body).toBe(file.join('\n'));
    expect(narrow.body).toBeUndefined();
    expect(narrow.ref).toBe(wide.id);
    expect(narrow.tokens).toBeLessThan(20);
    expect(ws.explanation.find((e) => e.id === narrow.id)!.reason).toContain(`body shared with ${wide.id}`);
    // Rendered, each line appears once.
    const text = JSON.stringify(ws.toMessages('openai'));
    expect(text.split('value_12 = compute(12)').length - 1).toBe(1);
  });

  it('keeps its own body when the wider view shows other text at those lines', async () => {
    // Two views of the same file whose texts differ at the narrow one's lines (another revision).
    const changed = file.map((l, i) => (i === 11 ? '    value_12 = compute(12) * 2  # fixed' : l));
    const ledger = await pool.ledger(0);
    await ledger.commit({
      epoch: 0,
      nodes: [
        { id: 'task:fix', kind: 'task', authority: 'user', status: 'open', body: 'value_12 is computed wrongly.' },
        {
          id: 'ev:narrow',
          kind: 'evidence',
          authority: 'repo',
          path: 'pkg/mod.py',
          revision: 'r0',
          range: [10, 15],
          body: file.slice(9, 15).join('\n'),
        },
        {
          id: 'ev:wide',
          kind: 'evidence',
          authority: 'repo',
          path: 'pkg/mod.py',
          revision: 'r1',
          range: [1, 40],
          body: changed.join('\n'),
        },
      ],
      edges: [
        { from: 'task:fix', to: 'ev:narrow', kind: 'cites' },
        { from: 'task:fix', to: 'ev:wide', kind: 'cites' },
      ],
    });
    const ws = await ledger.materialize({ mode: 'fresh', budget: { tokens: 100_000 } });
    const narrow = ws.items.find((i) => i.id === 'ev:narrow')!;
    expect(narrow.range).toEqual([10, 15]);
    expect(ws.items.find((i) => i.id === 'ev:wide')!.body).toBe(changed.join('\n'));
    expect(narrow.ref).toBeUndefined();
    expect(narrow.body).toBe(file.slice(9, 15).join('\n'));
  });
});
