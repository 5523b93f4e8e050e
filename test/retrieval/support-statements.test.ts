import { afterAll, describe, expect, it } from 'vitest';
import { fromConversation } from '../../src/adapters/chat/conversation.js';
import { calibratedSupport, DEFAULT_SUPPORT_THRESHOLD } from '../../src/rerank/support.js';
import { asksForInference, statementTerms } from '../../src/retrieval/entities.js';
import { textTerms } from '../../src/text/text-terms.js';
import { LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());

const CHAT = [
  {
    date: '3 March 2023',
    turns: [
      { speaker: 'Melanie', text: 'I ran a charity race for mental health last Sunday.' },
      { speaker: 'Caroline', text: 'Your charity race sounds amazing! How did it feel?' },
      { speaker: 'Melanie', text: 'It made me realize that self-care is really important.' },
      { speaker: 'Caroline', text: 'I took a pottery class, wanted to tell you. I love painting sunsets too.' },
      { speaker: 'Melanie', text: 'Thanks! I painted a sunset over the lake with my kids.' },
    ],
  },
];

describe('whose statement a sentence is', () => {
  it('a sentence addressing the listener is about them, unless the speaker speaks of themself in it', () => {
    const terms = new Set(textTerms('pottery class race great'));
    const addressed = statementTerms('Your race went great.', terms);
    expect([...addressed.listener].sort()).toEqual(textTerms('great race'));
    expect([...addressed.speaker]).toEqual([]);
    const news = statementTerms('I took a pottery class, wanted to tell you.', terms);
    expect([...news.speaker].sort()).toEqual(textTerms('class pottery'));
    expect([...news.listener]).toEqual([]);
  });

  it('asks for an inference: would, likely, might, could …', () => {
    expect(asksForInference('Would Caroline likely enjoy the song "The Four Seasons" by Vivaldi?')).toBe(true);
    expect(asksForInference("What might John's financial status be?")).toBe(true);
    expect(asksForInference('What did Caroline realize after her charity race?')).toBe(false);
  });

  it('an inference question is not scored by what others said', () => {
    const f = { coverage: 1, subjectCoverage: 0.5, otherCoverage: 1, unseen: 0 };
    expect(calibratedSupport({ ...f, inference: 1 })).toBeGreaterThan(calibratedSupport(f));
    expect(calibratedSupport({ ...f, inference: 0 })).toBe(calibratedSupport(f));
    expect(calibratedSupport({ ...f, inference: 1 })).toBe(calibratedSupport({ ...f, otherCoverage: 0, inference: 1 }));
  });
});

describe('support from what the named person states (default call)', () => {
  it("the subject's words to the listener about the listener's race are no evidence about the subject", async () => {
    const l = await pool.ledger();
    for (const tx of fromConversation(CHAT).transactions) await l.commit(tx);
    const swapped = await l.retrieve({ authority: ['user'], text: 'What did Caroline think of her charity race?' });
    // Caroline's only words about a charity race address Melanie's: stated about someone else.
    expect(swapped.supportFeatures!.subjectCoverage).toBe(0);
    expect(swapped.supportFeatures!.otherCoverage).toBeGreaterThan(0.3);
    expect(swapped.status).toBe('abstain');
    const right = await l.retrieve({ authority: ['user'], text: 'What did Melanie realize after her charity race?' });
    expect(right.status).toBe('supported');
    // Naming both people: what either tells the other is about someone the question names.
    const both = await l.retrieve({
      authority: ['user'],
      text: 'What did Caroline say to Melanie about her charity race?',
    });
    expect(both.supportFeatures!.subjectCoverage).toBe(both.supportFeatures!.coverage);
    expect(both.supportFeatures!.otherCoverage).toBe(0);
  });

  it("the speaker's own news told to the listener is evidence about the speaker", async () => {
    const l = await pool.ledger();
    for (const tx of fromConversation(CHAT).transactions) await l.commit(tx);
    const r = await l.retrieve({ authority: ['user'], text: 'What class did Caroline say she took?' });
    expect(r.status).toBe('supported');
    expect(r.evidence[0]!.id).toBe('1:4');
    expect(r.supportFeatures!.subjectCoverage).toBeGreaterThan(0.5);
  });

  it('an inference question is supported by what the subject states, whatever others said', async () => {
    const l = await pool.ledger();
    for (const tx of fromConversation(CHAT).transactions) await l.commit(tx);
    const r = await l.retrieve({ authority: ['user'], text: 'Would Caroline likely enjoy painting a lake sunset?' });
    expect(r.supportFeatures!.inference).toBe(1);
    // Melanie painted the lake sunset; Caroline only loves painting sunsets: no swap, an inference.
    expect(r.supportFeatures!.otherCoverage).toBeGreaterThan(r.supportFeatures!.subjectCoverage);
    expect(r.support).toBeGreaterThanOrEqual(DEFAULT_SUPPORT_THRESHOLD);
    expect(r.status).toBe('supported');
    const fact = await l.retrieve({ authority: ['user'], text: 'Where did Caroline paint a lake sunset?' });
    expect(fact.supportFeatures!.inference).toBe(0);
    expect(fact.support).toBeLessThan(r.support);
  });
});
