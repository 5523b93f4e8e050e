import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/schema/limits.js';
import { bpeTokenCount } from '../../src/tokenizer/heap-bpe.js';
import { RankTable } from '../../src/tokenizer/rank-table.js';
import { directTokenCounter, tokenCounterFrom } from '../../src/tokenizer/tiktoken-lite.js';
import { loadNodeTiktoken } from '../../src/tokenizer/tiktoken-node.js';
import { ENCODINGS } from '../../src/tokenizer/token-counter.js';

/** Characters whose long runs are one pre-tokenizer piece (or a few) in both encodings: letters
 * of each case, white space of each kind, punctuation that takes newlines and slashes, digits
 * (cut in threes), 2-, 3- and 4-byte UTF-8, combining marks, and pairs that alternate classes. */
const RUN_UNITS = [
  'a',
  'A',
  'z',
  ' ',
  '\n',
  '\t',
  '\r\n',
  '#',
  '-',
  '=',
  '/',
  '.',
  '*',
  '0',
  'é',
  'É',
  'ß',
  '中',
  '\u3000',
  '\u00a0',
  '\u0085',
  '🙂',
  '𝔸',
  '\u0301',
  'x\u0301',
  'ab',
  'aB',
  ' a',
  '-\n',
  "'s",
  'ſ',
];

const run = fc.record({
  unit: fc.oneof(fc.constantFrom(...RUN_UNITS), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 2 })),
  times: fc.integer({ min: 1, max: 1500 }),
});

describe.each(ENCODINGS)('over-long pieces count as tiktoken counts them (%s)', async (encoding) => {
  const { lite, ranks } = await loadNodeTiktoken(encoding);
  const direct = directTokenCounter(lite, encoding, ranks);
  const counter = tokenCounterFrom(lite, encoding, ranks);
  const table = new RankTable(ranks.bpe_ranks);

  it('bodies of repeated runs of random characters (the one-character-run freeze)', () => {
    fc.assert(
      fc.property(fc.array(run, { minLength: 1, maxLength: 4 }), (runs) => {
        const text = runs.map(({ unit, times }) => unit.repeat(times)).join('');
        expect(counter.count(text)).toBe(direct.count(text));
      }),
      { numRuns: 150, seed: 24 },
    );
  });

  it('the heap merge of a piece equals tiktoken on every run length up to 600 bytes', () => {
    const encode = new TextEncoder();
    const wrong: string[] = [];
    for (const unit of ['a', ' ', '#', '-', '=', 'é', '中', '🙂', 'aB', '.-']) {
      for (let times = 1; times * encode.encode(unit).length <= 600; times++) {
        const text = unit.repeat(times);
        const b = encode.encode(text);
        // Each of these runs is a single piece, so tiktoken's count of the text is its merge.
        if (bpeTokenCount(table, b, 0, b.length) !== direct.count(text)) wrong.push(`${unit}×${times}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('long runs well past the heap threshold, against tiktoken where it is still tractable', () => {
    for (const unit of ['a', ' ', '#', '\u3000', '中', 'x\u0301']) {
      const text = `head ${unit.repeat(4_000)} tail`;
      expect(counter.count(text), unit).toBe(direct.count(text));
    }
  });

  it('a body of the documented limit of one character counts (tiktoken traps on it)', () => {
    // `a`⁸ is one token and no longer run of `a` is, so tiktoken counts aⁿ as n/8 for every n
    // that is a multiple of 8 it can count; the limit is such an n.
    const a = (k: number) => new TextEncoder().encode('a'.repeat(k));
    expect(table.rank(a(8), 0, 8)).toBeGreaterThanOrEqual(0);
    for (let k = 9; k <= table.maxTokenBytes; k++) expect(table.rank(a(k), 0, k), `a×${k}`).toBe(-1);
    for (const n of [8, 64, 800, 8_000]) expect(direct.count('a'.repeat(n))).toBe(n / 8);
    expect(counter.count('a'.repeat(LIMITS.maxBodyChars))).toBe(LIMITS.maxBodyChars / 8);
    for (const unit of [' ', '中']) {
      const text = unit.repeat(LIMITS.maxBodyChars / unit.length);
      expect(counter.count(text), unit).toBeGreaterThan(0);
    }
  });
});
