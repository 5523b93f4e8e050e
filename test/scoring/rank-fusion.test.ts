import { describe, expect, it } from 'vitest';
import { fuseRanks, rankByScore } from '../../src/scoring/rank-fusion.js';
import { compareStrings } from '../../src/text/compare.js';

describe('rankByScore', () => {
  it('ranks positive scores descending, equal scores by the id comparison, whatever the input order', () => {
    const scored: Array<[string, number]> = [
      ['c', 2],
      ['a', 2],
      ['z', 0],
      ['b', 5],
    ];
    const expected = new Map([
      ['b', 1],
      ['a', 2],
      ['c', 3],
    ]);
    expect(rankByScore(scored, compareStrings)).toEqual(expected);
    expect(rankByScore([...scored].reverse(), compareStrings)).toEqual(expected);
    // A reversed comparison reverses only the tie.
    expect([...rankByScore(scored, (x, y) => compareStrings(y, x)).keys()]).toEqual(['b', 'c', 'a']);
  });
});

describe('fuseRanks', () => {
  const ranks = new Map([
    [
      'x',
      new Map([
        ['a', 1],
        ['b', 2],
      ]),
    ],
    [
      'y',
      new Map([
        ['b', 1],
        ['c', 3],
      ]),
    ],
  ]);

  it('sums weight / (k + rank) in channel order, with shares, ranks and the best channel', () => {
    const fused = fuseRanks(['a', 'b', 'c', 'd'], ranks, {
      channels: ['x', 'y'],
      k: 10,
      weights: { x: 1, y: 0.5 },
      compareIds: compareStrings,
    });
    expect(fused.map((f) => f.id)).toEqual(['b', 'a', 'c', 'd']);
    const b = fused[0]!;
    expect(b.score).toBe(0 + 1 / 12 + 0.5 / 11);
    expect(b.shares).toEqual({ x: 1 / 12, y: 0.5 / 11 });
    expect(b.ranks).toEqual({ x: 2, y: 1 });
    expect(b.best).toEqual({ channel: 'x', rank: 2 });
    const d = fused[3]!;
    expect(d).toEqual({ id: 'd', score: 0, shares: { x: 0, y: 0 }, ranks: {}, best: null });
  });

  it('breaks equal scores by compareIds and starts from the base', () => {
    const equal = new Map([
      [
        'x',
        new Map([
          ['p', 1],
          ['q', 1],
        ]),
      ],
    ]);
    const spec = { channels: ['x'] as const, k: 60, weights: { x: 1 } };
    expect(fuseRanks(['q', 'p'], equal, { ...spec, compareIds: compareStrings }).map((f) => f.id)).toEqual(['p', 'q']);
    expect(
      fuseRanks(['q', 'p'], equal, { ...spec, compareIds: (a, b) => compareStrings(b, a) }).map((f) => f.id),
    ).toEqual(['q', 'p']);
    const based = fuseRanks(['p', 'q', 'r'], equal, {
      ...spec,
      compareIds: compareStrings,
      base: (id) => (id === 'r' ? 1 : 0),
    });
    expect(based.map((f) => [f.id, f.score])).toEqual([
      ['r', 1],
      ['p', 1 / 61],
      ['q', 1 / 61],
    ]);
  });
});
