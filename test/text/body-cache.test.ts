import { describe, expect, it } from 'vitest';
import { BodyCache } from '../../src/text/body-cache.js';

const body = (bkey: number, chars: number) => ({ bkey, text: 'x'.repeat(chars), tokens: chars });

describe('body cache', () => {
  it('keeps the most recently used bodies within its characters, and none larger than them', () => {
    const cache = new BodyCache(10);
    cache.set(body(1, 4));
    cache.set(body(2, 4));
    expect(cache.get(1)?.bkey).toBe(1); // 1 is now the most recent
    cache.set(body(3, 4)); // 12 characters: the least recent (2) goes
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(1)?.text).toBe('xxxx');
    expect(cache.get(3)?.tokens).toBe(4);
    cache.set(body(4, 11));
    expect(cache.get(4)).toBeUndefined();
    expect(cache.get(1)).toBeDefined();
  });
});
