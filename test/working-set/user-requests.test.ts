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

describe('a later user instruction', () => {
  /** The task, then `turns` turns: an instruction, a tool call and its result, and a reply. */
  function instructed(first: string, turns: number): unknown[] {
    const messages: unknown[] = [{ role: 'user', content: 'Fix the division by zero in calc.py' }];
    for (let i = 1; i <= turns; i++) {
      messages.push(
        {
          role: 'user',
          content: i === 1 ? first : `Please read part ${i} next and tell me what it says about the divisor.`,
        },
        {
          role: 'assistant',
          content: `Reading part ${i}.`,
          tool_calls: [
            { id: `c${i}`, type: 'function', function: { name: 'bash', arguments: `{"command":"cat part${i}.txt"}` } },
          ],
        },
        { role: 'tool', tool_call_id: `c${i}`, content: `part ${i}: ${'lorem ipsum dolor sit amet '.repeat(8)}` },
        { role: 'assistant', content: `Part ${i} read.` },
      );
    }
    return messages;
  }

  it('is answered like a request when it is one-off, and stays open when it says how to work from now on', async () => {
    const ledger = await ledgerOf(instructed("Don't touch the tests.", 3), 2);
    const view = await ledger.asOf();
    const status = (body: string) => view.nodes.find((n) => n.body === body)?.status;
    expect(view.nodes.filter((n) => n.kind === 'steering').length).toBe(3);
    expect(status("Don't touch the tests.")).toBe('open');
    for (const i of [2, 3])
      expect(status(`Please read part ${i} next and tell me what it says about the divisor.`)).toBe('resolved');
  });

  it('does not crowd the latest tool result out of a small budget over a long chat', async () => {
    const turns = 40;
    const ledger = await ledgerOf(instructed('Please read part 1 next.', turns).slice(0, -1), 3);
    const ws = await ledger.materialize({ budget: { tokens: 600 } });
    // The call's output is shown once, as the evidence it is; the result refers to it.
    expect(ws.items.some((i) => i.body?.startsWith(`part ${turns}:`))).toBe(true);
    expect(ws.items.find((i) => i.kind === 'tool_call' && i.body === `cat part${turns}.txt`)?.tier).toBe(2);
    expect(ws.items.filter((i) => i.kind === 'steering').map((i) => i.body)).toEqual([
      `Please read part ${turns} next and tell me what it says about the divisor.`,
    ]);
  });
});
