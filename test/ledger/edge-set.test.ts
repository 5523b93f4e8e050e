import { describe, expect, it } from 'vitest';
import { EdgeSet } from '../../src/ledger/edge-set.js';

describe('EdgeSet', () => {
  it('agrees with a Set over random adds, deletes and lookups (tombstones reused, growth, rehash)', () => {
    const set = new EdgeSet(4);
    const model = new Set<string>();
    let x = 12345;
    const rand = (n: number) => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return x % n;
    };
    for (let step = 0; step < 20_000; step++) {
      const src = rand(300);
      const target = rand(40) * 16 + rand(11);
      const key = `${src}:${target}`;
      const op = rand(3);
      if (op === 0) {
        expect(set.add(src, target)).toBe(!model.has(key));
        model.add(key);
      } else if (op === 1) {
        expect(set.delete(src, target)).toBe(model.has(key));
        model.delete(key);
      } else {
        expect(set.has(src, target)).toBe(model.has(key));
      }
      expect(set.size).toBe(model.size);
    }
    for (const key of model) {
      const [src, target] = key.split(':').map(Number) as [number, number];
      expect(set.has(src, target)).toBe(true);
    }
  });

  it('reserve keeps every pair', () => {
    const set = new EdgeSet();
    for (let i = 0; i < 1000; i++) set.add(i, i * 16 + 3);
    set.reserve(100_000);
    expect(set.size).toBe(1000);
    for (let i = 0; i < 1000; i++) expect(set.has(i, i * 16 + 3)).toBe(true);
    expect(set.has(1000, 1000 * 16 + 3)).toBe(false);
  });
});
