import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TermPostings } from '../../src/retrieval/term-postings.js';
import { IRREGULAR_BASE } from '../../src/text/irregular-forms.js';
import { stem, termCounts, textTerms } from '../../src/text/text-terms.js';

describe('irregular forms', () => {
  it('map past tenses, participles and irregular plurals to the base term', () => {
    const pairs: Array<[string, string]> = [
      ['won', 'win'],
      ['went', 'go'],
      ['gone', 'going'],
      ['ate', 'eating'],
      ['bought', 'buys'],
      ['met', 'meeting'],
      ['sold', 'selling'],
      ['took', 'taken'],
      ['spoke', 'speaking'],
      ['children', 'child'],
    ];
    for (const [a, b] of pairs) expect(textTerms(a), `${a} ~ ${b}`).toEqual(textTerms(b));
    expect(textTerms('She won the race and bought shoes')).toEqual(textTerms('she wins the race and buys shoe'));
  });

  it('stem a form and its base alike for every entry of the table', () => {
    for (const [form, base] of IRREGULAR_BASE) expect(stem(form), form).toBe(stem(base));
  });

  it('leave words that are more often something else alone', () => {
    expect(textTerms('left bit ground')).toEqual(['left', 'bit', 'ground']);
    expect(textTerms('thought')).not.toEqual(textTerms('think'));
  });

  it("drop the won of won't (will not), not turning it into win", () => {
    for (const t of ["I won't go", 'I won’t go', "I WON'T go"]) expect(textTerms(t)).toEqual(['t', 'go']);
    expect(textTerms("won'tx")).toEqual(['win', 'tx']);
    expect(textTerms('wont won')).toEqual(['wont', 'win']);
  });

  it("index won't the way termCounts does", () => {
    const piece = fc.constantFrom(
      "won't",
      'won’t',
      "WON'T",
      'won',
      "won'",
      "won't_",
      "won'tx",
      "'t",
      'won’',
      ' ',
      'x',
      'é',
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.array(piece, { maxLength: 12 }).map((p) => p.join('')),
          { maxLength: 6 },
        ),
        (texts) => {
          const postings = new TermPostings();
          for (const [i, t] of texts.entries()) expect(postings.add(i, t)).toBe(true);
          for (const [i, t] of texts.entries()) {
            const { counts, length } = termCounts(t);
            expect(postings.docLen[i]).toBe(length);
            for (const [term, tf] of counts) {
              const list = postings.list(term)!;
              const at = Array.from(list.bkeys.subarray(0, list.length)).indexOf(i);
              expect(at).toBeGreaterThanOrEqual(0);
              expect(list.tfs[at]).toBe(tf);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
