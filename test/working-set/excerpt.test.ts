import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { fromMiniSweAgent } from '../../src/adapters/index.js';
import { BodyLines } from '../../src/working-set/body-lines.js';
import { Excerpter } from '../../src/working-set/excerpt.js';
import { excerptText } from '../../src/working-set/ref-text.js';
import type { Candidate } from '../../src/working-set/types.js';
import { validateAnthropicMessages, validateOpenAIMessages } from '../../src/working-set/validate-messages.js';
import { candidate } from '../helpers/candidate.js';
import { LedgerPool } from '../helpers/ledgers.js';

/**
 * A long tool output that does not fit whole is shown as an excerpt: its lines relevant to the
 * task and the current action, the rest elided by markers naming the node whose stored body
 * holds them. Every kept line is the stored line at that position, and the output still answers
 * its call.
 */
const noise = (i: number) => `step ${i}: processed record batch ${i * 7} in ${(i % 13) + 3} ms`;
const output = Array.from({ length: 240 }, (_, i) =>
  i === 149 ? 'ERROR frobnicate_widget raised KeyError: spindle' : noise(i),
);
const trajectory = {
  info: { submission: '', config: { environment: { cwd: '/testbed' } } },
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    {
      role: 'user',
      content: '<pr_description>\nfrobnicate_widget fails with a KeyError on the spindle.\n</pr_description>',
    },
    { role: 'assistant', content: 'THOUGHT: Run the batch job.\n\n```bash\npython run_batch.py\n```' },
    { role: 'user', content: `<returncode>1</returncode>\n<output>\n${output.join('\n')}\n</output>` },
    { role: 'assistant', content: 'THOUGHT: Check the version.\n\n```bash\npython --version\n```' },
    { role: 'user', content: '<returncode>0</returncode>\n<output>\nPython 3.11.4\n</output>' },
  ],
};

const pool = new LedgerPool();
afterAll(() => pool.close());

const resultOf = (body: string, id = 'r1'): Candidate =>
  candidate({
    nid: 1,
    id,
    kind: 'tool_result',
    tx: 1,
    validFrom: 0,
    bodyHash: `h:${body.length}:${body.slice(0, 20)}`,
    body,
    tokens: 0,
    hop: 0,
  });

describe('Excerpter', () => {
  const count = (t: string) => Math.ceil(t.length / 4);

  it('keeps the relevant lines with their neighbours, each equal to the stored line, within the limit', () => {
    const body = output.join('\n');
    const ex = new Excerpter('frobnicate_widget fails with a KeyError', count).cut(resultOf(body), 200)!;
    expect(ex.lines).toEqual([[148, 152]]);
    expect(ex.of).toBe(240);
    const stored = body.split('\n');
    const kept = ex.body.split('\n');
    let k = 0;
    for (const [a, b] of ex.lines) for (let l = a; l <= b; l++) expect(kept[k++]).toBe(stored[l - 1]);
    expect(k).toBe(kept.length);
    expect(ex.tokens).toBe(count(excerptText('r1', ex.body, ex.lines, ex.of)));
    expect(ex.tokens).toBeLessThanOrEqual(200);
  });

  it('gives nothing when no line is relevant or none fits, and the same excerpt every time', () => {
    const body = output.join('\n');
    const e = new Excerpter('frobnicate_widget', count);
    expect(new Excerpter('unrelated words only', count).cut(resultOf(body), 500)).toBeNull();
    expect(e.cut(resultOf(body), 10)).toBeNull();
    expect(JSON.stringify(e.cut(resultOf(body), 300))).toBe(
      JSON.stringify(new Excerpter('frobnicate_widget', count).cut(resultOf(body), 300)),
    );
  });

  it('keeps a comment just above a kept window with it', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `    x_${i} = compute(${i})`);
    lines[18] = '    # pick the best scores of every fold';
    lines[21] = '    best_indices = np.argmax(scores, axis=1)';
    const body = lines.join('\n');
    const ex = new Excerpter('best_indices argmax', count).cut(resultOf(body), 200)!;
    // The window is lines 20-24 (the hit, 22, and two on each side); the comment is line 19.
    expect(ex.lines).toEqual([[19, 24]]);
    expect(ex.body.split('\n')[0]).toBe('    # pick the best scores of every fold');
    // Code above the window is not pulled in.
    lines[18] = '    x_18 = compute(18)';
    expect(new Excerpter('best_indices argmax', count).cut(resultOf(lines.join('\n')), 200)!.lines).toEqual([[20, 24]]);
  });

  it('renders each elided run as a marker naming the lines and the node', () => {
    expect(excerptText('r9', 'c\nd', [[3, 4]], 6)).toBe(
      '[lines 1-2 of 6 elided; whole body: r9]\nc\nd\n[lines 5-6 of 6 elided; whole body: r9]',
    );
    expect(excerptText('r9', '', [], 3)).toBe('[lines 1-3 of 3 elided; whole body: r9]');
  });
});

describe("Excerpter with the ledger's memory of body lines", () => {
  const count = (t: string) => Math.ceil(t.length / 4);
  const bodies = Array.from({ length: 6 }, (_, b) =>
    Array.from({ length: 120 }, (_, i) =>
      i % (17 + b) === 3 ? `# spindle ${b}\nwidget_${i} = frobnicate(spindle, ${i})` : `${noise(i)} widget_${i % 9}`,
    ).join('\n'),
  );
  const queries = [
    'frobnicate the spindle widget_3',
    'widget_4 KeyError record batch',
    'spindle 0 widget_7 frobnicate',
  ];

  // The memory is keyed by content hash, as bodies are stored.
  const hashed = (body: string, id: string) => ({
    ...resultOf(body, id),
    bodyHash: createHash('sha256').update(body).digest('hex'),
  });

  it('cuts the same excerpts as a fresh split, query after query, while the memory fills', () => {
    const memory = new BodyLines();
    for (const q of queries)
      for (const [b, body] of bodies.entries())
        for (const limit of [40, 120, 400]) {
          const c = hashed(body, `r${b}`);
          const shared = new Excerpter(q, count, undefined, memory).cut(c, limit);
          expect(shared).toEqual(new Excerpter(q, count).cut(c, limit));
        }
    expect(bodies.every((body, b) => memory.holds(hashed(body, `r${b}`).bodyHash))).toBe(true);
  });

  it('keeps at most a million characters of bodies, the least recently used going first', () => {
    const memory = new BodyLines();
    const big = (k: number) => `${k}\n${'widget frobnicate spindle\n'.repeat(12_000)}`;
    for (let k = 0; k < 4; k++) memory.of(`big${k}`, big(k));
    memory.of('big1', big(1));
    memory.of('big4', big(4));
    expect([0, 1, 2, 3, 4].map((k) => memory.holds(`big${k}`))).toEqual([false, true, false, true, true]);
  });
});

describe('materialize shows an output that does not fit whole as an excerpt', () => {
  it('keeps the call, the relevant lines and an explanation; excerpts: false leaves it out', async () => {
    const { transactions } = fromMiniSweAgent(trajectory);
    const ledger = await pool.ledger(0);
    for (const tx of transactions) await ledger.commit(tx);
    const view = await ledger.asOf({ epoch: ledger.lastEpoch });
    const stored = new Map(view.nodes.map((n) => [n.id, n]));
    const long = view.nodes.find((n) => n.kind === 'tool_result' && (n.body ?? '').includes('frobnicate'))!;
    const whole = await ledger.materialize({ mode: 'fresh', budget: { tokens: 100_000 } });
    const wholeTokens = whole.items.find((i) => i.id === long.id)!.tokens;
    // Room for everything but the long output, and a little more.
    const budget = whole.tokens - wholeTokens + 120;
    const ws = await ledger.materialize({ mode: 'fresh', budget: { tokens: budget } });
    const item = ws.items.find((i) => i.id === long.id)!;
    expect(item.excerpt).toBeDefined();
    expect(item.body).toContain('ERROR frobnicate_widget raised KeyError: spindle');
    const lines = stored.get(long.id)!.body!.split('\n');
    expect(item.excerpt!.of).toBe(lines.length);
    const kept = item.body!.split('\n');
    let k = 0;
    for (const [a, b] of item.excerpt!.lines) for (let l = a; l <= b; l++) expect(kept[k++]).toBe(lines[l - 1]);
    expect(k).toBe(kept.length);
    expect(ws.tokens).toBeLessThanOrEqual(budget);
    // Still paired with its call, and the messages say what was elided.
    const call = view.edges.find((e) => e.kind === 'produces' && e.to === long.id)!.from;
    expect(ws.items.map((i) => i.id)).toContain(call);
    const openai = ws.toMessages('openai');
    expect(validateOpenAIMessages(openai)).toEqual([]);
    expect(validateAnthropicMessages(ws.toMessages('anthropic'))).toEqual([]);
    const shown = openai.find((m) => m.role === 'tool' && (m.content ?? '').includes('frobnicate_widget'))!;
    expect(shown.content).toContain(`elided; whole body: ${long.id}]`);
    expect(ws.explanation.find((e) => e.id === long.id)!.reason).toMatch(/; excerpt: lines \d+-\d+ of \d+/);
    const off = await ledger.materialize({ mode: 'fresh', budget: { tokens: budget }, excerpts: false });
    expect(off.items.map((i) => i.id)).not.toContain(long.id);
    expect(off.items.some((i) => i.excerpt !== undefined)).toBe(false);
  });
});
