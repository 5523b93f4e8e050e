import { describe, expect, it } from 'vitest';
import { EdgeAdjacency } from '../../src/retrieval/edge-adjacency.js';
import { graphChannel } from '../../src/retrieval/graph-channel.js';
import type { VisibleSet } from '../../src/retrieval/retrieval-index.js';

describe('graph channel', () => {
  it('returns every edge between walked records once, hubs included (their lists are not read for it)', () => {
    // s (seed) — A, B (hubs: 300 leaves each), x; A → B; x — a1 (a leaf of A); s → s2 (a supersedes edge).
    const A = 1;
    const B = 2;
    const x = 3;
    const s = 0;
    const leavesA = Array.from({ length: 300 }, (_, i) => 10 + i);
    const leavesB = Array.from({ length: 300 }, (_, i) => 400 + i);
    const raw: Array<[number, number, string]> = [
      [s, A, 'depends_on'],
      [B, s, 'cites'],
      [s, x, 'depends_on'],
      [A, B, 'depends_on'],
      [x, leavesA[0]!, 'cites'],
      ...leavesA.map((l): [number, number, string] => [A, l, 'plans']),
      ...leavesB.map((l): [number, number, string] => [l, B, 'depends_on']),
      [s, 900, 'supersedes'],
    ];
    const adjacency = new EdgeAdjacency();
    for (const [ekey, [src, dst, kind]] of raw.entries()) expect(adjacency.add(ekey, src, dst, kind, 1)).toBe(true);
    const visible = { nodes: new Uint8Array(1000).fill(1) } as unknown as VisibleSet;
    const between = (walked: Set<number>) =>
      raw
        .filter(([src, dst, kind]) => kind !== 'supersedes' && walked.has(src) && walked.has(dst))
        .map(([src, dst, kind]) => ({ src, dst, kind }))
        .sort((a, b) => a.src - b.src || a.dst - b.dst);
    // Walked: s; A, B, x at one hop (A and B not walked through); a1 at two.
    const two = graphChannel(adjacency, visible, 1, [], new Map([[s, 1]]), 2, 64);
    expect(two.edges).toEqual(between(new Set([s, A, B, x, leavesA[0]!])));
    // One hub walked: from a1, A and x at one hop, s at two.
    const one = graphChannel(adjacency, visible, 1, [], new Map([[leavesA[0]!, 1]]), 2, 64);
    expect(one.edges).toEqual(between(new Set([leavesA[0]!, A, x, s])));
  });
});
