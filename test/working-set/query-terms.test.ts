import { describe, expect, it } from 'vitest';
import { textTerms } from '../../src/text/text-terms.js';
import { QueryTexts } from '../../src/working-set/query-terms.js';

describe('query-text memory', () => {
  const memory = new QueryTexts();
  const distinctTerms = (text: string) => memory.distinctTerms(text);
  const textIncludes = (text: string, needle: string) => memory.textIncludes(text, needle);
  const texts = ['Fix parseStatus2 in src/can/parser.ts', 'the the REPLY_BASE camping camped', '', 'a\nb/c.py b/c.py'];

  it('distinctTerms: the distinct terms in first-occurrence order, the same array on a repeat', () => {
    for (let round = 0; round < 3; round++)
      for (const t of texts) expect(distinctTerms(t)).toEqual([...new Set(textTerms(t))]);
    // More texts than it keeps, then an old one again: still right.
    for (let i = 0; i < 10; i++) distinctTerms(`filler ${i}`);
    expect(distinctTerms(texts[0]!)).toEqual([...new Set(textTerms(texts[0]!))]);
    expect(distinctTerms(texts[0]!)).toBe(distinctTerms(texts[0]!));
  });

  it('textIncludes answers as String.includes, across texts and repeats', () => {
    const needles = ['parser.ts', 'can/parser.ts', 'c.py', 'b/c.py', 'a\nb', 'missing.rs', '', 'camp'];
    for (let round = 0; round < 3; round++)
      for (const t of [...texts, ...Array.from({ length: 6 }, (_, i) => `text ${i} c.py`)])
        for (const n of needles) expect(textIncludes(t, n)).toBe(t.includes(n));
  });
});
