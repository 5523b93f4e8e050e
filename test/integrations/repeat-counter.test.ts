import { describe, expect, it } from 'vitest';
import { repeatCounter } from '../../src/integrations/repeat-counter.js';

describe('repeatCounter', () => {
  it('counts a text once while renderings keep repeating it, and forgets it a rendering after its last use', () => {
    const counted: string[] = [];
    const c = repeatCounter((t) => {
      counted.push(t);
      return t.length;
    });
    expect([c.count('abc'), c.count('de'), c.count('abc')]).toEqual([3, 2, 3]);
    c.nextRendering();
    expect([c.count('abc'), c.count('fgh')]).toEqual([3, 3]);
    c.nextRendering();
    c.nextRendering(); // 'abc' was last used two renderings ago
    expect(c.count('abc')).toBe(3);
    expect(counted).toEqual(['abc', 'de', 'fgh', 'abc']);
  });
});
