import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toJsPattern } from '../../src/tokenizer/piece-cache.js';
import { directTokenCounter, tokenCounterFrom } from '../../src/tokenizer/tiktoken-lite.js';
import { loadNodeTiktoken } from '../../src/tokenizer/tiktoken-node.js';
import { ENCODINGS } from '../../src/tokenizer/token-counter.js';

/** Real text to compare on: this project's sources (the shared data's prose is compared in
 * test/eval-data/piece-cache-locomo.test.ts). */
function corpus(): string[] {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const f of readdirSync(dir, { withFileTypes: true })) {
      const p = `${dir}/${f.name}`;
      if (f.isDirectory()) walk(p);
      else if (/\.(ts|md)$/.test(f.name)) texts.push(readFileSync(p, 'utf8'));
    }
  };
  walk('src');
  walk('demo');
  return texts;
}

describe.each(ENCODINGS)('piece-cached token counts equal tiktoken (%s)', async (encoding) => {
  const { lite, ranks } = await loadNodeTiktoken(encoding);
  const direct = directTokenCounter(lite, encoding, ranks);
  const cached = tokenCounterFrom(lite, encoding, ranks);

  it('on real code and prose, chunk by chunk', () => {
    let compared = 0;
    for (const text of corpus()) {
      for (let i = 0; i < text.length; i += 700) {
        const chunk = text.slice(i, i + 700);
        expect(cached.count(chunk), JSON.stringify(chunk.slice(0, 80))).toBe(direct.count(chunk));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(50);
  });

  it('on random Unicode, whitespace and contractions', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.constantFrom(
        "'s",
        "'LL",
        "'Re",
        ' \u0085 ',
        '\ufeff',
        '\r\n\r\n',
        '  \n',
        '\t',
        '123456',
        'ÀB',
        'ǅx',
        '٣٤',
        '\u3000',
        '🙂🙂',
        'x\u0301y',
        '\u180e',
        '\u200b',
        '\u001c',
        '\u00a0\u00a0',
      ),
      fc.string({ unit: 'binary', maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        expect(cached.count(text)).toBe(direct.count(text));
      }),
      { numRuns: 3000, seed: 7 },
    );
  });

  it('every one- and two-byte ASCII text, each counted twice (the second from the short-piece table)', () => {
    const wrong: string[] = [];
    for (let round = 0; round < 2; round++) {
      for (let a = 0; a < 128; a++) {
        const one = String.fromCharCode(a);
        if (cached.count(one) !== direct.count(one)) wrong.push(one);
        for (let b = 0; b < 128; b++) {
          const two = one + String.fromCharCode(b);
          if (cached.count(two) !== direct.count(two)) wrong.push(two);
        }
      }
    }
    expect(wrong.map((t) => JSON.stringify(t))).toEqual([]);
  });

  it('a text shorter than the one counted before it (stale bytes follow it in the scratch)', () => {
    // Read past its end, the stale bytes would extend its last piece into more tokens.
    for (const [long, short] of [
      ['zxqvkjwpfghzxqvkjw', 'zxq'],
      ['.,;:!?.,;:!?', '.,'],
      ['ab    \n\n cd', 'ab  '],
    ]) {
      cached.count(long!);
      expect(direct.count(long!)).toBeGreaterThan(direct.count(short!));
      expect(cached.count(short!), short).toBe(direct.count(short!));
    }
  });

  it('chunk boundaries: each text counted twice (the second time chunk by chunk from the chunk table)', () => {
    // Spaces after every kind of piece end: contractions, punctuation that takes newlines and
    // slashes, digit runs longer than three, white-space runs the cut must not split, a chunk
    // longer than the chunk table keeps, and a non-ASCII character after cached chunks.
    const texts = [
      "it's done 'LL 're x",
      'a.\n b ./ c .\r\n d',
      'x  y \t z   \n w',
      '12345 678 9 0x9C data[4]',
      `${'q'.repeat(70)} ${'.'.repeat(70)} end`,
      'foo bar baz ſ qux 😀 foo bar',
      'int16 int16 int16 int16',
    ];
    for (let round = 0; round < 2; round++)
      for (const text of texts) expect(cached.count(text), JSON.stringify(text)).toBe(direct.count(text));
  });

  it('special-token text counts as plain text', () => {
    expect(cached.count('a <|endoftext|> b')).toBe(direct.count('a <|endoftext|> b'));
    expect(cached.count('a <|endoftext|> b')).toBeGreaterThan(3);
  });
});

describe('toJsPattern', () => {
  it('rewrites case-insensitive groups and whitespace classes', () => {
    const js = toJsPattern("(?i:'s|'ll)|\\s+(?!\\S)|[^\\s\\p{L}]");
    expect(js).toContain("(?:'[sS]|'[lL][lL])");
    expect(js).not.toMatch(/\\[sS]/);
    expect(() => new RegExp(js, 'gu')).not.toThrow();
  });
});
