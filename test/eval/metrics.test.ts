import { describe, expect, it } from 'vitest';
import {
  bootstrapMeanCI,
  LineMatcher,
  pairsIntact,
  precisionOf,
  recallOf,
  seededRandom,
  usableGold,
} from '../../scripts/eval/metrics.js';

describe('usableGold', () => {
  it('trims trailing whitespace and drops blank and very short lines, counting them', () => {
    const { lines, dropped } = usableGold([
      {
        path: 'a.py',
        kind: 'modified',
        lines: [
          { line: 1, text: '    return a / b   ' },
          { line: 2, text: '' },
          { line: 3, text: '    )' },
          { line: 4, text: '  else:' },
          { line: 5, text: 'x = 10' },
          { line: 6, text: 'x = 1' },
        ],
      },
    ]);
    expect(lines).toEqual([
      { path: 'a.py', line: 1, text: '    return a / b' },
      { path: 'a.py', line: 4, text: '  else:' },
      { path: 'a.py', line: 5, text: 'x = 10' },
    ]);
    expect(dropped).toBe(3);
  });
});

describe('LineMatcher', () => {
  const m = new LineMatcher([
    { path: 'pkg/calc.py', line: 9, text: '    return a / b' },
    { path: 'pkg/calc.py', line: 20, text: 'x = 1' },
  ]);

  it('sees a gold line in plain, numbered, grep and diff output', () => {
    expect([...m.shown('def div(a, b):\n    return a / b\n')]).toEqual([0]);
    expect([...m.shown('     9\t    return a / b')]).toEqual([0]);
    expect([...m.shown('pkg/calc.py:9:    return a / b')]).toEqual([0]);
    expect([...m.shown('-    return a / b  \n+    return a / b if b else 0')]).toEqual([0]);
    expect([...m.shown('20:x = 1')]).toEqual([1]);
  });

  it('does not see a line that only contains the gold text, or ends with it inside a longer name', () => {
    expect(m.shown('    return a / b if b else 0').size).toBe(0);
    expect(m.shown('    return a / bc').size).toBe(0);
    expect(m.shown('self.x = 1').size).toBe(0);
    expect(m.shown('max = 1').size).toBe(0);
    expect(m.shown('').size).toBe(0);
  });

  it('unions what several texts show', () => {
    expect([...m.shownBy(['x = 1', 'nothing', '  return a / b\n    return a / b'])].sort()).toEqual([0, 1]);
  });
});

describe('recall and precision', () => {
  it('recall is the share of the event gold present', () => {
    expect(recallOf(new Set([0, 2, 7]), [0, 1, 2, 3])).toBe(0.5);
    expect(recallOf(new Set([0]), [])).toBe(0);
  });

  it('precision counts each present gold line once, on its own tokens', () => {
    expect(precisionOf(new Set([0, 2]), [0, 1, 2], [5, 7, 3], 80)).toBe(0.1);
    expect(precisionOf(new Set([0]), [0], [5], 0)).toBe(0);
  });
});

describe('pairsIntact', () => {
  const pairing = {
    resultsOf: new Map([
      ['call:1', ['result:1']],
      ['call:2', ['result:2a', 'result:2b']],
    ]),
    callOf: new Map([
      ['result:1', 'call:1'],
      ['result:2a', 'call:2'],
      ['result:2b', 'call:2'],
    ]),
  };
  it('holds only when every shown call has all its results and every result its call', () => {
    expect(pairsIntact(new Set(['task', 'call:1', 'result:1']), pairing)).toBe(true);
    expect(pairsIntact(new Set(['result:1']), pairing)).toBe(false);
    expect(pairsIntact(new Set(['call:2', 'result:2a']), pairing)).toBe(false);
    expect(pairsIntact(new Set(['call:2', 'result:2a', 'result:2b', 'result:6']), pairing)).toBe(true);
  });
});

describe('bootstrapMeanCI', () => {
  const groups = [[0.2, 0.4], [1], [0.5, 0.5, 0.6], [0], [0.9, 0.7]];

  it('is deterministic for a seed and brackets the mean', () => {
    const a = bootstrapMeanCI(groups, { samples: 500, seed: 7, level: 0.95 });
    const b = bootstrapMeanCI(groups, { samples: 500, seed: 7, level: 0.95 });
    expect(a).toEqual(b);
    const all = groups.flat();
    const mean = all.reduce((x, y) => x + y, 0) / all.length;
    expect(a[0]).toBeLessThanOrEqual(mean);
    expect(a[1]).toBeGreaterThanOrEqual(mean);
    expect(a[0]).toBeLessThan(a[1]);
  });

  it('collapses to the value when there is no spread, and to [0, 0] without data', () => {
    expect(bootstrapMeanCI([[0.5], [0.5, 0.5]])).toEqual([0.5, 0.5]);
    expect(bootstrapMeanCI([[], []])).toEqual([0, 0]);
  });

  it('draws from a seeded generator in [0, 1)', () => {
    const r = seededRandom(42);
    const xs = Array.from({ length: 1000 }, r);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(Array.from({ length: 1000 }, seededRandom(42))).toEqual(xs);
  });
});
