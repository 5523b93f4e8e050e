import { describe, expect, it } from 'vitest';
import { BodyKeys } from '../../src/ledger/body-keys.js';

const hex = (i: number) => (i * 2654435761).toString(16).padStart(64, String(i % 10));

describe('BodyKeys', () => {
  it('finds every key it was given, through growth, and nothing else', () => {
    const keys = new BodyKeys();
    for (let i = 0; i < 5000; i++) keys.set(hex(i), i);
    expect(keys.size).toBe(5000);
    for (let i = 0; i < 5000; i++) expect(keys.get(hex(i))).toBe(i);
    expect(keys.get(hex(5000))).toBeUndefined();
    expect(keys.get(hex(1).slice(1))).toBeUndefined();
  });

  it('a key set from bytes is the same key as the string', () => {
    const keys = new BodyKeys();
    const bytes = new TextEncoder().encode(`xx${hex(7)}${hex(8)}`);
    keys.reserve(2, 64);
    keys.setBytes(bytes, 2, 66, 70);
    keys.setBytes(bytes, 66, 130, 80);
    expect([keys.get(hex(7)), keys.get(hex(8)), keys.size]).toEqual([70, 80, 2]);
    keys.set(hex(7), 71); // setting again replaces, never duplicates
    expect([keys.get(hex(7)), keys.size]).toEqual([71, 2]);
  });

  it('keeps keys with non-ASCII characters apart from their ASCII look-alikes', () => {
    const keys = new BodyKeys();
    keys.set('abc', 1);
    keys.set('ab\u00e7', 2);
    expect([keys.get('abc'), keys.get('ab\u00e7'), keys.get('ab\u00e8'), keys.size]).toEqual([1, 2, undefined, 2]);
  });
});
