import { afterAll, describe, expect, it } from 'vitest';
import { fromOpenAI } from '../../src/adapters/index.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());

/** A chat: the task, a long tool loop and its answer, then a follow-up question. */
function chat(withAnswer: boolean): unknown[] {
  const messages: unknown[] = [{ role: 'user', content: 'Fix the division by zero in calc.py' }];
  for (let i = 1; i <= 12; i++) {
    messages.push(
      {
        role: 'assistant',
        content: `Looking at part ${i}.`,
        tool_calls: [
          { id: `c${i}`, type: 'function', function: { name: 'bash', arguments: `{"command":"cat part${i}.txt"}` } },
        ],
      },
      { role: 'tool', tool_call_id: `c${i}`, content: `part ${i}: ${'lorem ipsum dolor sit amet '.repeat(20)}` },
    );
  }
  messages.push({ role: 'assistant', content: 'Fixed: div() returns 0 when b is 0.' });
  messages.push({ role: 'user', content: 'Which parts mention the divisor?' });
  if (withAnswer) messages.push({ role: 'assistant', content: 'None of them.' });
  return messages;
}

async function ledgerOf(messages: unknown[], slot: number): Promise<Ledger> {
  const ledger = await pool.ledger(slot);
  for (const tx of fromOpenAI(messages).transactions) await ledger.commit(tx);
  return ledger;
}

describe('a later user question the agent has not answered', () => {
  it('is in the working set at a budget far below the session, in either mode, until answered', async () => {
    const open = await ledgerOf(chat(false), 0);
    for (const mode of ['session', 'fresh'] as const) {
      const ws = await open.materialize({ mode, budget: { tokens: 300 } });
      const question = ws.items.find((i) => i.body === 'Which parts mention the divisor?');
      expect(question, mode).toMatchObject({ kind: 'message', role: 'user', status: 'open' });
      expect(ws.explanation.find((e) => e.id === question!.id)?.reason).toBe('open user request');
    }
  });

  it('is resolved by the reply that answers it, and then ranks like the rest of the history', async () => {
    const answered = await ledgerOf(chat(true), 1);
    const view = await answered.asOf();
    const question = view.nodes.find((n) => n.body === 'Which parts mention the divisor?');
    expect(question?.status).toBe('resolved');
    const ws = await answered.materialize({ mode: 'fresh', budget: { tokens: 300 } });
    expect(ws.explanation.find((e) => e.id === question!.id)?.reason).not.toBe('open user request');
  });
});
