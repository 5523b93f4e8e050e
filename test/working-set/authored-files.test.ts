import { afterAll, describe, expect, it } from 'vitest';
import { fromMiniSweAgent } from '../../src/adapters/index.js';
import { rankUnits } from '../../src/working-set/relevance.js';
import type { Candidate, Unit } from '../../src/working-set/types.js';
import { candidate } from '../helpers/candidate.js';
import { LedgerPool } from '../helpers/ledgers.js';

/**
 * A file the agent writes whole from its own text (a reproduction script by a here-doc) repeats
 * the task's example, so it matches the task's words better than the code the task is about.
 * BM25 does not place it or the command that wrote it: what the code showed (a run's traceback, a
 * file view) stays ahead of it in a small budget. Exact path still places it while open work
 * touches the file.
 */
const example = 'frobnicate_widget(spindle=None) raises KeyError spindle instead of returning the default widget';
const script = [
  'from widgets.core import frobnicate_widget',
  '# frobnicate_widget spindle KeyError: the default widget is expected',
  ...Array.from(
    { length: 12 },
    (_, i) => `print(${i}, frobnicate_widget(spindle=None))  # KeyError spindle default widget`,
  ),
].join('\n');
const source = [
  'def frobnicate_widget(spindle=None):',
  '    """Return the widget for a spindle, or the default widget."""',
  '    return WIDGETS[spindle]',
  ...Array.from({ length: 20 }, (_, i) => `HELPER_${i} = ${i}`),
].join('\n');
const traceback = [
  'Traceback (most recent call last):',
  '  File "/testbed/repro.py", line 3, in <module>',
  '    print(0, frobnicate_widget(spindle=None))',
  '  File "/testbed/widgets/core.py", line 3, in frobnicate_widget',
  '    return WIDGETS[spindle]',
  'KeyError: None',
].join('\n');
const trajectory = {
  info: { submission: '', config: { environment: { cwd: '/testbed' } } },
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: `<pr_description>\n${example}\n</pr_description>` },
    {
      role: 'assistant',
      content: `THOUGHT: Reproduce it first.\n\n\`\`\`bash\ncat <<'EOF' > repro.py\n${script}\nEOF\n\`\`\``,
    },
    { role: 'user', content: '<returncode>0</returncode>\n<output>\n</output>' },
    { role: 'assistant', content: 'THOUGHT: Run it.\n\n```bash\npython repro.py\n```' },
    { role: 'user', content: `<returncode>1</returncode>\n<output>\n${traceback}\n</output>` },
    { role: 'assistant', content: 'THOUGHT: Read the code.\n\n```bash\ncat widgets/core.py\n```' },
    { role: 'user', content: `<returncode>0</returncode>\n<output>\n${source}\n</output>` },
    { role: 'assistant', content: 'THOUGHT: List the tests.\n\n```bash\nls tests\n```' },
    { role: 'user', content: '<returncode>0</returncode>\n<output>\ntest_core.py\n</output>' },
  ],
};

const pool = new LedgerPool();
afterAll(() => pool.close());

describe('a file the agent wrote whole is not placed by BM25', () => {
  it('keeps what the code did ahead of the reproduction script that repeats the task', async () => {
    const { transactions } = fromMiniSweAgent(trajectory);
    const ledger = await pool.ledger(0);
    for (const tx of transactions) await ledger.commit(tx);
    const whole = await ledger.materialize({ mode: 'fresh', budget: { tokens: 100_000 } });
    const writer = whole.items.find((i) => i.kind === 'tool_call' && (i.body ?? '').includes('repro.py'))!;
    const view = whole.items.find((i) => i.kind === 'evidence' && i.path === 'widgets/core.py')!;
    const signal = (id: string) => whole.explanation.find((e) => e.id === id)!.signal!;
    expect(signal(writer.id)).toMatch(/^recency #/);
    expect(signal(view.id)).toMatch(/^(bm25|action bm25|exact path|current evidence) #/);
    // Room for the view, the run's traceback or the script, not both: the traceback is kept.
    const run = whole.items.find((i) => i.kind === 'tool_result' && (i.body ?? '').includes('Traceback'))!;
    const tokensOf = (unit: string) => whole.items.filter((i) => i.unit === unit).reduce((n, i) => n + i.tokens, 0);
    const rest = whole.tokens - tokensOf(run.unit) - tokensOf(writer.unit);
    expect(tokensOf(writer.unit)).toBeGreaterThan(tokensOf(run.unit));
    const ws = await ledger.materialize({
      mode: 'fresh',
      budget: { tokens: rest + tokensOf(writer.unit) },
      excerpts: false,
    });
    const ids = ws.items.map((i) => i.id);
    expect(ids).toContain(view.id);
    expect(ids).toContain(run.id);
    expect(ids).not.toContain(writer.id);
  });
});

describe('rankUnits: authored bodies', () => {
  const node = (nid: number, kind: Candidate['kind'], body: string, tx: number): Candidate =>
    candidate({ nid, id: `a${nid}`, kind, tx, validFrom: tx, bodyHash: `authored-${nid}`, body, tokens: 10 });
  const unit = (members: Candidate[]): Unit => ({
    key: members[0]!.id,
    members,
    tier: 6,
    reason: 'recent history',
    tx: members[0]!.tx,
  });
  const units = [
    unit([node(31, 'tool_call', `cat <<'EOF' > repro.py\n${script}\nEOF`, 1), node(131, 'tool_result', '', 1)]),
    unit([node(32, 'tool_result', source, 2)]),
  ];
  const query = { text: example, paths: new Set<string>() };

  it('scores an authored body by BM25 only when it is not marked authored', () => {
    const plain = rankUnits(units, query);
    expect(plain.get('a31')!.signal).toBe('bm25');
    const marked = rankUnits(units, { ...query, authored: new Set([31]) });
    expect(marked.get('a31')!.signal).toBe('recency');
    expect(marked.get('a32')!.signal).toBe('bm25');
    expect(marked.get('a32')!.rank).toBe(0);
  });
});

describe('a script the agent rewrote: the older writing command is still authored', () => {
  // The closure does not return the revision a later write superseded, so the first command is
  // known as authored by the adapter's `meta.writesWhole` mark alone.
  const rewritten = `${script}\nprint('again', frobnicate_widget(spindle=None))  # KeyError spindle default widget`;
  const messages = [
    ...trajectory.messages.slice(0, 8),
    {
      role: 'assistant',
      content: `THOUGHT: Extend the script.\n\n\`\`\`bash\ncat <<'EOF' > repro.py\n${rewritten}\nEOF\n\`\`\``,
    },
    { role: 'user', content: '<returncode>0</returncode>\n<output>\n</output>' },
    ...trajectory.messages.slice(8),
  ];

  it('marks both writing commands in the adapter and places neither by BM25', async () => {
    const { transactions } = fromMiniSweAgent({ ...trajectory, messages });
    const calls = transactions.flatMap((tx) => tx.nodes ?? []).filter((n) => n.kind === 'tool_call');
    const writers = calls.filter((n) => (n.body ?? '').startsWith("cat <<'EOF' > repro.py"));
    expect(writers).toHaveLength(2);
    for (const w of writers) expect(w.meta?.writesWhole).toBe(true);
    // Commands that write nothing, or write what they do not spell out, carry no mark.
    for (const c of calls.filter((n) => !writers.includes(n))) expect(c.meta?.writesWhole).toBeUndefined();

    const ledger = await pool.ledger(1);
    for (const tx of transactions) await ledger.commit(tx);
    const whole = await ledger.materialize({ mode: 'fresh', budget: { tokens: 100_000 } });
    const shown = whole.items.filter(
      (i) => i.kind === 'tool_call' && (i.body ?? '').startsWith("cat <<'EOF' > repro.py"),
    );
    expect(shown).toHaveLength(2);
    for (const w of shown) expect(whole.explanation.find((e) => e.id === w.id)!.signal).toMatch(/^recency #/);
  });
});
