import { afterAll, describe, expect, it } from 'vitest';
import { fromConversation } from '../../src/adapters/chat/conversation.js';
import { LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());

describe('reply context (a turn is read with the turn it answers and the one that answers it)', () => {
  const chat = [
    {
      date: '4 November 2022',
      turns: [
        { speaker: 'Nate', text: 'I made coconut ice cream, want to come over and share recipes?' },
        { speaker: 'Joanna', text: "Sure! I'll be there tomorrow if that's fine." },
        { speaker: 'Nate', text: 'Perfect, the turtles will be happy.' },
        { speaker: 'Joanna', text: 'Any books on painting?' },
      ],
    },
  ];

  it('finds the reply that shares no word with the question through the turn it answers', async () => {
    const l = await pool.ledger();
    for (const tx of fromConversation(chat).transactions) await l.commit(tx);
    const r = await l.retrieve({
      authority: ['user'],
      text: 'Will Joanna share recipes at Nate place?',
      supportThreshold: 0,
    });
    const entry = (id: string) => r.explanation.find((e) => e.id === id);
    // "1:2" holds none of recipes / share / place, only the name, like the shorter "1:4" (which
    // BM25 alone ranks above it); it answers "1:1", which holds them.
    expect(entry('1:1')!.ranks.lexical).toBe(1);
    expect(entry('1:2')!.ranks.lexical!).toBeLessThan(entry('1:4')!.ranks.lexical!);
  });

  it('gives nothing across records that are not messages', async () => {
    const l = await pool.ledger();
    await l.commit({
      epoch: 1,
      nodes: [
        { id: 'call', kind: 'tool_call', authority: 'user', body: 'grep coconut recipes' },
        { id: 'out', kind: 'tool_result', authority: 'user', body: 'no matches' },
      ],
      edges: [{ from: 'out', to: 'call', kind: 'depends_on' }],
    });
    const r = await l.retrieve({ authority: ['user'], text: 'coconut recipes', supportThreshold: 0 });
    const out = r.explanation.find((e) => e.id === 'out');
    // The graph walk still reaches it; the lexical channel does not score it.
    expect(out?.ranks.lexical).toBeUndefined();
    expect(r.explanation.find((e) => e.id === 'call')!.ranks.lexical).toBe(1);
  });
});
