import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { fromMiniSweAgent, fromSweAgent } from '../../../src/adapters/index.js';
import { LedgerPool } from '../../helpers/ledgers.js';

/**
 * Found while counting the middleware's renderings against their working sets: at a re-pack a
 * call kept its bytes and its place while its result changed (a reference before, an excerpt
 * now), so the result was laid out after everything kept, away from its call. The renderings pair
 * a call only with the results right after it, so they dropped the call and showed its result as
 * plain context: on every fourth trajectory of the replay evaluation, 965 of the 10,769 calls of
 * working sets at 1,000 and 4,000 tokens never reached the model, though the budget paid for them.
 * Every call of a working set must reach the model, in both providers' shapes.
 */
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/transcripts/${name}`, import.meta.url), 'utf8');
const traces = {
  'mini-swe-agent': () => fromMiniSweAgent(JSON.parse(fixture('mini-swe-agent.traj.json'))),
  'swe-agent': () => fromSweAgent(JSON.parse(fixture('swe-agent.traj'))),
};

const pool = new LedgerPool();
afterAll(() => pool.close());

describe('session re-packs keep each call with its results', () => {
  for (const [name, trace] of Object.entries(traces))
    it(`renders every call of the working set at every epoch of the ${name} fixture`, async () => {
      const lost: string[] = [];
      for (const budget of [400, 500, 600, 1000]) {
        const ledger = await pool.ledger(0);
        for (const tx of trace().transactions) {
          await ledger.commit(tx);
          const ws = await ledger.materialize({ budget: { tokens: budget } });
          const calls = ws.items.filter((i) => i.kind === 'tool_call' && i.notice === undefined).length;
          const openai = ws.toMessages('openai').flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
          const anthropic = ws
            .toMessages('anthropic')
            .flatMap((m) => (m.role === 'assistant' ? m.content.filter((b) => b.type === 'tool_use') : []));
          if (openai.length !== calls || anthropic.length !== calls)
            lost.push(
              `${budget} tokens, epoch ${tx.epoch}: ${calls} calls, rendered ${openai.length} / ${anthropic.length}`,
            );
        }
        await ledger.close();
      }
      expect(lost).toEqual([]);
    });
});
