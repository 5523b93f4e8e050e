import { afterAll, describe, expect, it } from 'vitest';
import { fromMiniSweAgent } from '../../../src/adapters/index.js';
import { LedgerPool } from '../../helpers/ledgers.js';

/**
 * Found by auditing the replay's working sets for the body-once rule: the agent views a range,
 * edits elsewhere in the file (the view becomes stale evidence: shown above with a notice), then
 * views the same range again, unchanged. An appending step knew the prefix's bodies only through
 * current candidates, so the new view carried the whole text a second time (on every fourth
 * trajectory, 29 of 3,504 working sets, at 16,000 tokens). The text still on the page carries it:
 * the new view refers to it.
 */
const lines = (from: number, to: number) =>
  Array.from(
    { length: to - from + 1 },
    (_, i) => `${String(from + i).padStart(6)}\tdef handler_${from + i}(request): return route(request, ${from + i})`,
  ).join('\n');
const step = (thought: string, cmd: string, out: string) => [
  { role: 'assistant', content: `THOUGHT: ${thought}\n\n\`\`\`bash\n${cmd}\n\`\`\`` },
  { role: 'user', content: `<returncode>0</returncode>\n<output>\n${out}\n</output>` },
];
const trajectory = {
  info: { submission: '', config: { environment: { cwd: '/testbed' } } },
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: '<pr_description>\nhandler_55 routes to the wrong view.\n</pr_description>' },
    ...step('Read the top of the module.', 'nl -ba app/routes.py | sed -n 1,30p', lines(1, 30)),
    ...step('Fix handler 55.', "sed -i 's/route(request, 55)/route(request, 56)/' app/routes.py", ''),
    ...step('Read the top again.', 'nl -ba app/routes.py | sed -n 1,30p', lines(1, 30)),
  ],
};

const pool = new LedgerPool();
afterAll(() => pool.close());

describe('an appending step shows each body once, stale items included', () => {
  it('refers a re-viewed, unchanged range to the stale view still shown above', async () => {
    const ledger = await pool.ledger(0);
    for (const tx of fromMiniSweAgent(trajectory).transactions) await ledger.commit(tx);
    const ws = await ledger.materialize({ budget: { tokens: 16_000 } });
    expect(ws.session?.step).toBe('append');
    const byId = new Map(ws.items.map((i) => [i.id, i]));
    expect(byId.get('ev:1:1#superseded')?.notice?.of).toBe('ev:1:1');
    expect(byId.get('ev:3:1')?.ref).toBe('ev:1:1');
    const whole = ws.items.filter((i) => i.notice === undefined && i.ref === undefined && i.excerpt === undefined);
    const bodies = whole.map((i) => i.body).filter((b) => (b?.length ?? 0) > 200);
    expect(bodies.length).toBeGreaterThan(0);
    expect(new Set(bodies).size).toBe(bodies.length);
    expect(ws.tokens).toBeLessThanOrEqual(16_000);
    await ledger.close();
  });
});
