import { afterAll, describe, expect, it } from 'vitest';
import { fromConversation } from '../../src/adapters/chat/conversation.js';
import { inRanges, rankingTerms, timeExpressions } from '../../src/retrieval/time-expressions.js';
import { dayNumber } from '../../src/text/calendar.js';
import { LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());

describe('calendar expressions of a question', () => {
  it('reads days, months and years, with and without a year', () => {
    const day = (s: string, y: number, m: number, d: number) => inRanges(dayNumber(y, m, d), timeExpressions(s));
    expect(day('What did Gina find on 1 February, 2023?', 2023, 2, 3)).toBe(true);
    expect(day('Who did Maria have dinner with on May 3, 2023?', 2023, 5, 4)).toBe(true);
    expect(day('Who did Maria have dinner with on May 3, 2023?', 2023, 6, 4)).toBe(false);
    expect(day('What did Maria donate in December 2023?', 2023, 12, 22)).toBe(true);
    expect(day('What did Maria donate in December 2023?', 2022, 12, 22)).toBe(false);
    expect(day('When did Melanie go camping in June?', 2021, 6, 27)).toBe(true);
    expect(day('When did Melanie go camping in June?', 2021, 8, 27)).toBe(false);
    expect(day('What happened on 3 January?', 2022, 12, 30)).toBe(true);
    expect(day('What did Tim organize in 2024?', 2024, 7, 1)).toBe(true);
    expect(day('What did Tim organize in 2024?', 2023, 7, 1)).toBe(false);
    // The word relating the question to the range is part of the expression (a date term, not content).
    expect(timeExpressions('Where was John between August 11 and August 15 2023?').map((r) => r.text)).toEqual([
      'August 15 2023',
      'between August 11',
    ]);
    expect(timeExpressions('Did Andrew have a dog during March 2023?').map((r) => r.text)).toEqual([
      'during March 2023',
    ]);
    // It ranks nothing: a turn about that time need not say "during"; one that does is not about it.
    expect(rankingTerms('Did Andrew have a dog during March 2023?')).toEqual(['2023', 'andrew', 'dog', 'march']);
    expect(rankingTerms('What did Audrey do during the walk?')).toEqual(['audrey', 'dur', 'walk']);
    // "may" is a verb unless it follows "in" or a day.
    expect(timeExpressions('What may Caroline paint next?')).toEqual([]);
    expect(timeExpressions('When did Caroline last paint?')).toEqual([]);
  });
});

describe('the temporal channel (default call)', () => {
  it('ranks the turns dated as the question asks above the same words on other dates', async () => {
    const l = await pool.ledger();
    const chat = [
      {
        date: '2 March 2023',
        turns: [
          { speaker: 'Caroline', text: 'I went hiking by the lake with my friends.' },
          { speaker: 'Melanie', text: 'Lovely! I painted a sunset this weekend.' },
        ],
      },
      {
        date: '20 June 2023',
        turns: [
          { speaker: 'Caroline', text: 'Went hiking in the mountains, what a view.' },
          { speaker: 'Melanie', text: 'My kids started swimming lessons.' },
        ],
      },
      {
        date: '9 September 2023',
        turns: [
          { speaker: 'Caroline', text: 'Hiking again this weekend, by the lake.' },
          { speaker: 'Melanie', text: 'We baked cookies for the school fair.' },
        ],
      },
    ];
    for (const tx of fromConversation(chat).transactions) await l.commit(tx);
    const june = await l.retrieve({ authority: ['user'], text: 'Where did Caroline hike in June 2023?' });
    // The date's words are in no body: evidenced by the records' dates, they are not missing content.
    expect(june.status).toBe('supported');
    expect(june.supportFeatures!.unseen).toBe(0);
    expect(june.evidence[0]!.id).toBe('2:1');
    expect(june.evidence[0]!.channels.temporal).toBeGreaterThan(0);
    expect(june.evidence.filter((e) => e.channels.temporal > 0).map((e) => e.id)).toEqual(['2:1']);
    const undated = await l.retrieve({ authority: ['user'], text: 'Where did Caroline hike?' });
    expect(undated.evidence.every((e) => e.channels.temporal === 0)).toBe(true);
    // Only a name and a date some record is dated in: what was said then is the evidence.
    const then = await l.retrieve({
      authority: ['user'],
      text: 'Where was Caroline between June 18 and June 22, 2023?',
    });
    expect(then.status).toBe('supported');
    expect(then.evidence[0]!.id).toBe('2:1');
    // A date no record is dated in is content like any other word: nothing holds it.
    const never = await l.retrieve({ authority: ['user'], text: 'Where was Caroline on 3 January, 2021?' });
    expect(never.status).toBe('abstain');
  });
});

describe('the word relating a question to its date', () => {
  it('does not rank turns that only share it ("during the walk" for "during March 2023")', async () => {
    const l = await pool.ledger();
    const chat = [
      { date: '5 March 2023', turns: [{ speaker: 'Andrew', text: 'Still looking for a pet-friendly apartment.' }] },
      { date: '2 June 2023', turns: [{ speaker: 'Audrey', text: 'During the walk the pups ran around.' }] },
    ];
    for (const tx of fromConversation(chat).transactions) await l.commit(tx);
    const r = await l.retrieve({ authority: ['user'], text: 'Did Andrew have a pet during March 2023?' });
    expect(r.explanation.find((e) => e.id === '1:1')?.ranks.lexical).toBe(1);
    expect(r.explanation.find((e) => e.id === '2:1')?.ranks.lexical).toBeUndefined();
  });
});

describe('event dates in retrieval (meta.when, written by fromConversation)', () => {
  it('a question naming a day ranks the turn whose words date an event then above one only said then', async () => {
    const l = await pool.ledger();
    const chat = [
      {
        date: '17 March 2022',
        turns: [
          { speaker: 'James', text: 'Reading a novel.' },
          { speaker: 'John', text: 'Nice, what else is new with you these days?' },
          { speaker: 'James', text: 'Yesterday I went bowling and got two strikes.' },
        ],
      },
      { date: '20 May 2022', turns: [{ speaker: 'James', text: 'My dog learned a new trick.' }] },
    ];
    for (const tx of fromConversation(chat).transactions) await l.commit(tx);
    const r = await l.retrieve({
      authority: ['user'],
      text: 'What was James doing on 16 March, 2022?',
      supportThreshold: 0,
    });
    // Both are dated then and share only the name: BM25 alone ranks the shorter turn first.
    const entry = (id: string) => r.explanation.find((e) => e.id === id)!;
    expect(entry('1:3').ranks.temporal).toBe(1);
    expect(entry('1:1').ranks.temporal).toBe(2);
    expect(entry('1:3').signals.join(' ')).toMatch(/tells of an event dated/);
    expect(entry('1:1').signals.join(' ')).not.toMatch(/tells of an event/);
  });

  it('a "when" question prefers the turn that dates what it tells; the same words without "when" do not', async () => {
    const l = await pool.ledger();
    const chat = [
      {
        date: '2 June 2023',
        turns: [
          { speaker: 'Nate', text: 'My turtles are my best friends.' },
          { speaker: 'Joanna', text: 'So cute! How are they?' },
          { speaker: 'Nate', text: "I've had my turtles for three years now, the best friends I could ask for." },
        ],
      },
    ];
    for (const tx of fromConversation(chat).transactions) await l.commit(tx);
    const ranked = async (text: string) => {
      const r = await l.retrieve({ authority: ['user'], text, supportThreshold: 0 });
      return (r.status === 'supported' ? r.evidence : r.partial).map((e) => e.id);
    };
    expect((await ranked('When did Nate get his turtles, his best friends?'))[0]).toBe('1:3');
    expect((await ranked('Are the turtles Nate his best friends?'))[0]).toBe('1:1');
  });
});
