import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { fromOpenAI } from '../../../src/adapters/index.js';
import { validateAnthropicMessages, validateOpenAIMessages } from '../../../src/working-set/validate-messages.js';
import { LedgerPool } from '../../helpers/ledgers.js';

/**
 * `context-ledger replay test/fixtures/transcripts/openai-chat.json --budget 200` (found while
 * writing the CLI): at epoch 8 a budget cut kept an action whose assistant turn had no text and
 * none of its calls, and `toMessages('openai')` rendered `{role: 'assistant', content: null}`,
 * which OpenAI rejects ("empty assistant message").
 */
const transcript = JSON.parse(
  readFileSync(new URL('../../fixtures/transcripts/openai-chat.json', import.meta.url), 'utf8'),
) as unknown;

const pool = new LedgerPool();
afterAll(() => pool.close());

describe('openai-chat fixture: every rendered working set passes both APIs’ rules', () => {
  for (const budget of [200, 4000]) {
    it(`at every epoch with a ${budget}-token budget`, async () => {
      const { transactions } = fromOpenAI(transcript);
      const ledger = await pool.ledger(0);
      const problems: string[] = [];
      for (const tx of transactions) {
        await ledger.commit(tx);
        const ws = await ledger.materialize({ budget: { tokens: budget } });
        for (const e of validateOpenAIMessages(ws.toMessages('openai'))) problems.push(`epoch ${tx.epoch} openai ${e}`);
        for (const e of validateAnthropicMessages(ws.toMessages('anthropic')))
          problems.push(`epoch ${tx.epoch} anthropic ${e}`);
      }
      expect(problems).toEqual([]);
    });
  }
});
