import { describe, expect, it } from 'vitest';
import { fromConversation, isoDate } from '../../src/adapters/chat/conversation.js';
import { eventDates } from '../../src/adapters/chat/event-dates.js';

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

describe('event dates of a turn (meta.when)', () => {
  // 17 August 2023 was a Thursday.
  const on = (text: string) => eventDates(text, '2023-08-17');
  it('resolves relative expressions against the day the turn was said', () => {
    expect(on('Yesterday I went bowling and got 2 strikes.')).toEqual(['2023-08-16']);
    expect(on('two days ago I wanted to be alone with nature')).toEqual(['2023-08-15']);
    expect(on("I'm leaving the day after tomorrow evening.")).toEqual(['2023-08-19']);
    expect(on("I'll come over tomorrow if that's fine.")).toEqual(['2023-08-18']);
    expect(on('I won the final last Saturday!')).toEqual(['2023-08-12']);
    expect(on('I had a great accomplishment this Tuesday!')).toEqual(['2023-08-15']);
    expect(on('I met back up with my teammates on the 15th after my trip.')).toEqual(['2023-08-15']);
    expect(on('I met them on the 20th of last year.')).toEqual(['2023-07-20', '2022-01-01/2022-12-31']);
    expect(on('Last week I had a crazy game.')).toEqual(['2023-08-07/2023-08-13']);
    expect(on("Let's do it next month when the weather is better.")).toEqual(['2023-09-01/2023-09-30']);
    expect(on('I painted that lake sunrise last year!')).toEqual(['2022-01-01/2022-12-31']);
  });
  it('reads abbreviated weekdays, "this past", seasons and "last <month>"', () => {
    expect(on('Last Fri I finally took my kids to a pottery workshop.')).toEqual(['2023-08-11']);
    expect(on('I just joined a new activist group last Tues.')).toEqual(['2023-08-15']);
    expect(on('That roadtrip this past weekend was insane!')).toEqual(['2023-08-12/2023-08-13']);
    expect(on('Last August I told you about the trivia.')).toEqual(['2022-08-01/2022-08-31']);
    // Summer is not over on 17 August: "last summer" is the one before; "this summer", this one.
    expect(on('Max and I had a blast on our camping trip last summer.')).toEqual(['2022-06-01/2022-08-31']);
    expect(on('We go to the lake this summer.')).toEqual(['2023-06-01/2023-08-31']);
    expect(eventDates('Organizing a camp last summer was great!', '2023-10-02')).toEqual(['2023-06-01/2023-08-31']);
    // A winter runs into the next year; "this winter" said in October is the coming one.
    expect(eventDates('This winter we ski.', '2023-10-02')).toEqual(['2023-12-01/2024-02-29']);
    expect(on('This sun is too hot.')).toEqual([]);
  });
  it('dates the start of a state that has lasted ("for three years"), not a plan', () => {
    expect(on("I've had them for 3 years now!")).toEqual(['2020-01-01/2020-12-31']);
    expect(on('Been playing it for a month now.')).toEqual(['2023-07-01/2023-07-31']);
    expect(on("I've been playing for about four months now.")).toEqual(['2023-04-01/2023-04-30']);
    expect(on("I've been playing professionally for just under a year now.")).toEqual(['2022-01-01/2022-12-31']);
    expect(on("I'm going to Toronto for two weeks.")).toEqual([]);
  });
  it('names nothing for words without a calendar anchor, or without a parsable session date', () => {
    expect(on('I took a writing class recently and lately I paint.')).toEqual([]);
    expect(eventDates('Yesterday I went bowling.', 'someday')).toEqual([]);
  });
  it('is written by fromConversation as meta.when', () => {
    const { transactions } = fromConversation([
      {
        date: '1:56 pm on 8 May, 2023',
        turns: [
          { speaker: 'Caroline', text: 'I went to a support group yesterday.' },
          { speaker: 'Melanie', text: 'Wow, tell me more!' },
        ],
      },
    ]);
    expect(transactions[0]!.nodes!.map((n) => n.meta)).toEqual([
      { speaker: 'Caroline', session: 1, date: '2023-05-08', when: '2023-05-07' },
      { speaker: 'Melanie', session: 1, date: '2023-05-08' },
    ]);
  });
});
