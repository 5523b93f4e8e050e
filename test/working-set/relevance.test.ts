import { describe, expect, it } from 'vitest';
import { rankUnits } from '../../src/working-set/relevance.js';
import type { Candidate, Unit } from '../../src/working-set/types.js';

const node = (
  nid: number,
  kind: Candidate['kind'],
  body: string,
  tx: number,
  path: string | null = null,
): Candidate => ({
  nid,
  id: `n${nid}`,
  kind,
  status: null,
  authority: 'agent',
  path,
  revision: null,
  range: path ? [1, 10] : null,
  verifier: null,
  tool: null,
  role: null,
  meta: null,
  tx,
  validFrom: tx,
  bodyHash: `h${nid}`,
  body,
  tokens: 10,
  hop: 1,
});
const unit = (c: Candidate, tier = 6): Unit => ({ key: c.id, members: [c], tier, reason: 'recent history', tx: c.tx });

describe('rankUnits (relevance fused with recency)', () => {
  const units = [
    unit(node(1, 'tool_result', 'def parse_header(card): return card.split()', 1)),
    unit(node(2, 'tool_result', 'README setup.py docs', 2)),
    unit(node(3, 'tool_result', 'total 48 drwxr-xr-x', 3)),
    unit(node(4, 'evidence', 'class Card: pass', 4, 'io/card.py'), 4),
    unit(node(5, 'tool_result', 'ok', 5)),
    unit(node(0, 'task', 'the task', 0), 0),
  ];
  const query = { text: 'Fix parse_header for empty cards in io/card.py', paths: new Set<string>() };

  it('lets an old, relevant unit climb above newer unrelated ones, and says which signal placed it', () => {
    const r = rankUnits(units, query);
    expect(r.has('n0')).toBe(false); // guaranteed tiers are not ranked
    const order = [...r.entries()].sort((a, b) => a[1].rank - b[1].rank).map(([k]) => k);
    expect(order.indexOf('n1')).toBeLessThan(order.indexOf('n2'));
    expect(order.indexOf('n1')).toBeLessThan(order.indexOf('n3'));
    expect(r.get('n1')!.signal).toBe('bm25');
    // The file the query names, still a valid range: placed by its path.
    expect(order[0]).toBe('n4');
    expect(r.get('n4')!.signal).toBe('exact path');
    // Nothing relevant: placed by recency.
    expect(r.get('n5')!.signal).toBe('recency');
  });

  it('is deterministic and independent of input order', () => {
    const a = rankUnits(units, query);
    const b = rankUnits([...units].reverse(), query);
    expect([...b.entries()].sort()).toEqual([...a.entries()].sort());
  });

  it('without a query, ranks a valid file range first, then the rest newest first', () => {
    const r = rankUnits(units, { text: '', paths: new Set() });
    const order = [...r.entries()].sort((a, b) => a[1].rank - b[1].rank).map(([k]) => k);
    expect(order).toEqual(['n4', 'n5', 'n3', 'n2', 'n1']);
    expect(r.get('n4')!.signal).toBe('current evidence');
  });
});
