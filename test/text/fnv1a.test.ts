import { describe, expect, it } from 'vitest';
import { compareStrings } from '../../src/text/compare.js';
import { fnv1a, fnv1aHex } from '../../src/text/fnv1a.js';

describe('shared text helpers', () => {
  it('fnv1a gives the published 32-bit FNV-1a values, over a whole string or a slice', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1aHex('foobar')).toBe('bf9cf968');
    expect(fnv1a('xxfoobaryy', 2, 8)).toBe(0xbf9cf968);
  });

  it('compareStrings orders by code unit, independent of locale', () => {
    expect(['b', 'B', 'a', 'é', 'A'].sort(compareStrings)).toEqual(['A', 'B', 'a', 'b', 'é']);
    expect(compareStrings('x', 'x')).toBe(0);
  });
});
