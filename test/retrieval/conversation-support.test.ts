import { afterAll, describe, expect, it } from 'vitest';
import { fromConversation } from '../../src/adapters/chat/conversation.js';
import { calibratedSupport, DEFAULT_SUPPORT_THRESHOLD, supportFeatures } from '../../src/rerank/support.js';
import { queryNames, speakerNames, statementTerms } from '../../src/retrieval/entities.js';
import { LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());

const CHAT = [
  {
    date: '3 March 2023',
    turns: [
      { speaker: 'Melanie', text: 'Hey Caroline! I ran a charity race for mental health last Sunday.' },
      { speaker: 'Caroline', text: 'Wow Melanie, that is amazing! How did it feel?' },
      { speaker: 'Melanie', text: 'It made me realize that self-care is really important.' },
      { speaker: 'Caroline', text: 'I went to a support group meeting and painted a sunset afterwards.' },
    ],
  },
];

describe('names and subjects', () => {
  it('takes capitalised words that are not question words as names', () => {
    expect(queryNames("What did Caroline realize after Melanie's charity race?")).toEqual(['caroline', 'melanie']);
    expect(queryNames('When did the LGBTQ group meet?')).toEqual(['lgbtq']);
    expect(queryNames('how are you')).toEqual([]);
  });

  it("reads a record's speaker from meta", () => {
    expect(speakerNames('{"speaker":"Alice Smith"}')).toEqual(['alice smith', 'alice', 'smith']);
    expect(speakerNames('{"date":"2023"}')).toEqual([]);
    expect(speakerNames(null)).toEqual([]);
    expect(speakerNames('not json')).toEqual([]);
  });

  it('support features: content coverage by any record, by the named subject and about someone else', () => {
    const idf = new Map([
      ['caroline', 0.2],
      ['charity', 2],
      ['race', 2],
    ]);
    const f = supportFeatures(idf, new Set(), new Set(['caroline']), true, [
      // Melanie's own statement about her race: evidence about someone other than Caroline.
      {
        matched: new Set(['charity', 'race']),
        bySubject: false,
        stated: new Set(),
        other: new Set(['charity', 'race']),
      },
      { matched: new Set(['caroline', 'race']), bySubject: true },
    ]);
    expect(f.coverage).toBe(1);
    expect(f.subjectCoverage).toBe(0.5);
    expect(f.otherCoverage).toBe(1);
    expect(f.lacking).toEqual(['charity']);
    // The critical term: stated about Melanie only, never about Caroline.
    expect(f.unstated).toEqual([{ term: 'charity', why: 'others' }]);
    // Rises with subject coverage, falls with what is said about someone else; never rises with unseen words.
    expect(f.unseen).toBe(0);
    const at = (subjectCoverage: number, otherCoverage: number, unseen = 0) =>
      calibratedSupport({ coverage: Math.max(subjectCoverage, otherCoverage), subjectCoverage, otherCoverage, unseen });
    expect(at(1, 0)).toBeGreaterThan(at(0.5, 0));
    expect(at(0.5, 0)).toBeGreaterThan(at(0.5, 1));
    expect(at(0.5, 0)).toBeGreaterThanOrEqual(at(0.5, 0, 0.5));
    expect(at(0, 0)).toBeLessThan(DEFAULT_SUPPORT_THRESHOLD);
  });
});

describe('retrieval over a conversation (default call)', () => {
  it("prefers the named speaker's turns and abstains when only the other speaker said it", async () => {
    const l = await pool.ledger();
    for (const tx of fromConversation(CHAT).transactions) await l.commit(tx);
    const asked = await l.retrieve({ authority: ['user'], text: 'What did Caroline paint after the support group?' });
    expect(asked.status).toBe('supported');
    expect(asked.evidence[0]!.id).toBe('1:4');
    expect(asked.supportFeatures!.subjectCoverage).toBeGreaterThan(0.5);
    expect(asked.rawSupport).toBe(asked.supportFeatures!.subjectCoverage);
    const swapped = await l.retrieve({
      authority: ['user'],
      text: 'What did Caroline realize after her charity race?',
    });
    expect(swapped.supportFeatures!.coverage).toBeGreaterThan(swapped.supportFeatures!.subjectCoverage);
    const right = await l.retrieve({ authority: ['user'], text: 'What did Melanie realize after her charity race?' });
    expect(right.support).toBeGreaterThan(swapped.support);
    expect(right.status).toBe('supported');
    expect(swapped.status).toBe('abstain');
    expect(swapped.missing[0]!.reason).toMatch(/by caroline/);
    // It names the word no record by Caroline states, and where the word is.
    expect(swapped.missing[0]!.reason).toMatch(/: "charity", "race", "realize" are stated only about someone else;/);
    expect(swapped.partial.length).toBeGreaterThan(0);
  });

  it('critical terms: rarest first, each with why it is not stated about the subject', () => {
    const idf = new Map([
      ['grandpa', 3],
      ['gift', 2],
      ['necklac', 1.5],
      ['tim', 1],
    ]);
    const f = supportFeatures(idf, new Set(['grandpa']), new Set(), true, [
      { matched: new Set(['gift', 'tim']), bySubject: true, stated: new Set(['tim']), other: new Set() },
      { matched: new Set(['necklac']), bySubject: true, stated: new Set(), other: new Set(['necklac']) },
    ]);
    expect(f.unstated).toEqual([
      { term: 'grandpa', why: 'unseen' },
      { term: 'gift', why: 'unstated' },
      { term: 'necklac', why: 'others' },
    ]);
    // Ties in IDF break by term, so the order is deterministic.
    const tie = supportFeatures(
      new Map([
        ['b', 1],
        ['a', 1],
      ]),
      new Set(),
      new Set(),
      false,
      [],
    );
    expect(tie.unstated.map((u) => u.term)).toEqual(['a', 'b']);
  });

  it("an abstention names the question's word that no valid record holds", async () => {
    const l = await pool.ledger();
    for (const tx of fromConversation(CHAT).transactions) await l.commit(tx);
    const r = await l.retrieve({
      authority: ['user'],
      text: 'What did Caroline realize about grandpa after the charity race?',
    });
    expect(r.status).toBe('abstain');
    expect(r.missing[0]!.reason).toContain('"grandpa" is in no valid record');
  });

  it('what a person asks is not evidence about them; what is said to them is', async () => {
    const terms = new Set(['run', 'marathon', 'train']);
    const spoken = statementTerms('Wow! What got you into running? I train daily.', terms);
    expect([...spoken.speaker, ...spoken.listener]).toEqual(['train']);
    expect([...statementTerms('Your marathon time was great. I run too.', terms).listener]).toEqual(['marathon']);
    const l = await pool.ledger();
    const chat = [
      {
        date: '4 March 2023',
        turns: [
          { speaker: 'Caroline', text: 'Wow! What got you into marathon running?' },
          { speaker: 'Melanie', text: 'My marathon running started after my dad got sick.' },
          { speaker: 'Melanie', text: 'Caroline, your pottery class sounded lovely.' },
        ],
      },
    ];
    for (const tx of fromConversation(chat).transactions) await l.commit(tx);
    // Caroline only asked about marathon running: the question is about Melanie's.
    const asked = await l.retrieve({ authority: ['user'], text: 'What got Caroline into marathon running?' });
    expect(asked.supportFeatures!.coverage).toBe(1);
    expect(asked.supportFeatures!.subjectCoverage).toBe(0);
    expect(asked.status).toBe('abstain');
    const own = await l.retrieve({ authority: ['user'], text: 'What got Melanie into marathon running?' });
    expect(own.status).toBe('supported');
    // Said to Caroline by Melanie, about Caroline's class.
    const told = await l.retrieve({ authority: ['user'], text: "How was Caroline's pottery class?" });
    expect(told.supportFeatures!.subjectCoverage).toBeGreaterThan(0.4);
    expect(told.supportFeatures!.subjectCoverage).toBe(told.supportFeatures!.coverage);
  });
});
