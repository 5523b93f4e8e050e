import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without declarations
import { commentProblems } from '../../scripts/check-comments.mjs';

const check = (text: string): string[] => commentProblems(text, 'x.ts');

describe('the comment check of npm run lint', () => {
  it('fails on a load average, a date, a figure that moved, a was/now story and a list of figures', () => {
    expect(check('/** Took 12 ms (load ~3). */')).toEqual(['x.ts:1: a load average']);
    expect(check('// measured on 2026-12-04')).toEqual(['x.ts:1: a date']);
    expect(check('const a = 1;\n/**\n * p50 110 → 92 ms\n */')).toEqual(['x.ts:2: a figure that moved (a → b)']);
    expect(check('// the limit was 16, now 4')).toEqual(['x.ts:1: a "was … now" story']);
    expect(check('// costs ~0.3 ms and ~0.7 ms')).toEqual([
      'x.ts:1: 2 measured figures (~0.3 ms, ~0.7 ms); at most one',
    ]);
  });

  it('passes a reason with one figure, dates quoted as code, and code that is not a comment', () => {
    expect(check('/** A round trip costs ~0.5 ms, so a commit is one batch. */')).toEqual([]);
    expect(check('/** Parses `2023-05-08` and `1:56 pm on 8 May, 2023`. */')).toEqual([]);
    expect(check("const url = 'https://x.test/2026-01-01'; // the mirror")).toEqual([]);
    expect(check('const ms = 110; const next = ms > 92 ? 1 : 0;')).toEqual([]);
  });
});
