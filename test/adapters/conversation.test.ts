import { describe, expect, it } from 'vitest';
import { fromConversation, isoDate } from '../../src/adapters/chat/conversation.js';

const SESSIONS = [
  {
    date: '2:00 pm on 10 March, 2023',
    turns: [
      { speaker: 'Bob', text: 'I adopted a beagle called Pepper.' },
      { speaker: 'Alice', text: 'Congratulations!', images: ['a photo of a cake'] },
    ],
  },
  { date: '2023-03-03', turns: [{ id: 'hello', speaker: 'Alice Smith', text: 'Hi Bob!' }] },
];

describe('fromConversation', () => {
  it('writes one transaction per session in date order, turns as user-scoped messages with speaker and date', () => {
    const { transactions, sessions } = fromConversation(SESSIONS, { idPrefix: 'c1/' });
    expect(transactions.map((t) => t.epoch)).toEqual([1, 2]);
    expect(sessions).toEqual([
      { epoch: 1, date: '2023-03-03', turnIds: ['c1/hello'] },
      { epoch: 2, date: '2023-03-10', turnIds: ['c1/1:1', 'c1/1:2'] },
    ]);
    expect(transactions[1]!.nodes).toEqual([
      {
        id: 'c1/1:1',
        kind: 'message',
        role: 'user',
        authority: 'user',
        body: 'Bob: I adopted a beagle called Pepper.',
        meta: { speaker: 'Bob', session: 1, date: '2023-03-10' },
      },
      {
        id: 'c1/1:2',
        kind: 'message',
        role: 'user',
        authority: 'user',
        body: 'Alice: Congratulations! [shares a photo: a photo of a cake]',
        meta: { speaker: 'Alice', session: 1, date: '2023-03-10' },
      },
    ]);
    expect(transactions[1]!.edges).toEqual([{ from: 'c1/1:2', to: 'c1/1:1', kind: 'depends_on' }]);
    expect(transactions[0]!.edges).toEqual([]);
  });

  it('is deterministic and honours authority and firstEpoch', () => {
    const a = fromConversation(SESSIONS, { authority: 'chat', firstEpoch: 10 });
    expect(a).toEqual(fromConversation(SESSIONS, { authority: 'chat', firstEpoch: 10 }));
    expect(a.transactions.map((t) => t.epoch)).toEqual([10, 11]);
    expect(a.transactions.flatMap((t) => t.nodes!.map((n) => n.authority))).toEqual(['chat', 'chat', 'chat']);
  });

  it('keeps undated sessions first and in their given order; unparsable dates are kept as text', () => {
    const { sessions, transactions } = fromConversation([
      { date: 'someday', turns: [{ speaker: 'A', text: 'x' }] },
      { turns: [{ speaker: 'A', text: 'y' }] },
    ]);
    expect(sessions.map((s) => s.turnIds)).toEqual([['1:1'], ['2:1']]);
    expect(transactions[0]!.nodes![0]!.meta).toEqual({ speaker: 'A', session: 1, date: 'someday' });
    expect(transactions[1]!.nodes![0]!.meta).toEqual({ speaker: 'A', session: 2 });
    expect(() => fromConversation('nope' as never)).toThrow(TypeError);
  });

  it('parses ISO and LoCoMo-style dates', () => {
    expect(isoDate('1:56 pm on 8 May, 2023')).toBe('2023-05-08');
    expect(isoDate('2023-05-08T13:56')).toBe('2023-05-08');
    expect(isoDate('8 Smarch 2023')).toBeNull();
    expect(isoDate(undefined)).toBeNull();
  });
});
