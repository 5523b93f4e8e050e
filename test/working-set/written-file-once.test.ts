import { afterAll, describe, expect, it } from 'vitest';
import { fromMiniSweAgent } from '../../src/adapters/index.js';
import { LedgerPool } from '../helpers/ledgers.js';

/**
 * A file written whole by a here-doc has its content twice in the ledger: in the command and in
 * the revision it produced. The working set shows it once — in the command — and the revision
 * refers to it, so a reproduction script does not cost its size twice.
 */
const script = Array.from({ length: 30 }, (_, i) => `print("check ${i}: value", ${i} * 2)`).join('\n');
const trajectory = {
  info: { submission: '', config: { environment: { cwd: '/testbed' } } },
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: '<pr_description>\nThe values are doubled wrongly.\n</pr_description>' },
    {
      role: 'assistant',
      content: `THOUGHT: Write a reproduction script.\n\n\`\`\`bash\ncat <<'EOF' > repro.py\n${script}\nEOF\n\`\`\``,
    },
    { role: 'user', content: '<returncode>0</returncode>\n<output>\n</output>' },
  ],
};

const pool = new LedgerPool();
afterAll(() => pool.close());

describe('a file written by a here-doc is shown once', () => {
  it('shows the content in the command and the revision as a reference to it', async () => {
    const { transactions } = fromMiniSweAgent(trajectory);
    const rev = transactions.flatMap((t) => t.nodes ?? []).find((n) => n.kind === 'artifact_revision')!;
    expect(rev.body!.trimEnd()).toBe(script);
    const ledger = await pool.ledger(0);
    for (const tx of transactions) await ledger.commit(tx);
    const ws = await ledger.materialize({ mode: 'fresh', budget: { tokens: 100_000 } });
    const call = ws.items.find((i) => i.kind === 'tool_call')!;
    const revision = ws.items.find((i) => i.kind === 'artifact_revision')!;
    expect(call.body).toContain(script);
    expect(revision.body).toBeUndefined();
    expect(revision.ref).toBe(call.id);
    expect(revision.tokens).toBeLessThan(20);
    expect(ws.explanation.find((e) => e.id === revision.id)!.reason).toContain(`body shared with ${call.id}`);
    // Rendered, the content appears once.
    const text = JSON.stringify(ws.toMessages('openai'));
    expect(text.split('check 17: value').length - 1).toBe(1);
  });
});
