import { describe, expect, it } from 'vitest';
import { rankUnits } from '../../src/working-set/relevance.js';
import type { Candidate, Unit } from '../../src/working-set/types.js';
import { candidate } from '../helpers/candidate.js';

const node = (nid: number, kind: Candidate['kind'], body: string, tx: number, path: string | null = null): Candidate =>
  candidate({ nid, kind, body, tx, validFrom: tx, path, range: path ? [1, 10] : null, tokens: 10 });
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

describe('rankUnits: the current action and the commands that name its files', () => {
  const call = (nid: number, body: string, tx: number): Candidate => ({
    ...node(nid, 'tool_call', body, tx),
    range: null,
  });
  // (nids unlike the suite above: bodies are cached by hash, and the fixture's hashes are `h<nid>`)
  const units = [
    // An old view of the file the agent is editing now: its evidence was superseded, only the
    // command names the path.
    unit(call(11, 'nl -ba pkg/parser.py | sed -n 40,80p', 1)),
    unit(node(12, 'tool_result', 'collected 12 items, 12 passed', 2)),
    unit(node(13, 'tool_result', 'def tokenize(stream): yield from stream', 3)),
    unit(node(14, 'tool_result', 'total 48 drwxr-xr-x', 4)),
  ];

  it('places a command that names a path open work touches by that path', () => {
    const r = rankUnits(units, { text: 'Fix the bug', paths: new Set(['pkg/parser.py']) });
    expect(r.get('n11')!.signal).toBe('exact path');
    expect(r.get('n11')!.rank).toBe(0);
    // Without the path, the command is only recency's.
    const none = rankUnits(units, { text: 'Fix the bug', paths: new Set() });
    expect(none.get('n11')!.signal).toBe('recency');
  });

  it('ranks by the current action’s own words apart from the task’s', () => {
    const r = rankUnits(units, {
      text: 'Fix the parser',
      focus: 'check how tokenize reads the stream',
      paths: new Set(),
    });
    expect(r.get('n13')!.signal).toBe('action bm25');
    const order = [...r.entries()].sort((a, b) => a[1].rank - b[1].rank).map(([k]) => k);
    expect(order[0]).toBe('n13');
  });
});

describe('rankUnits: a command run again', () => {
  const call = (nid: number, body: string, tx: number): Candidate => ({
    ...node(nid, 'tool_call', body, tx),
    range: null,
  });
  const run = (nid: number, tx: number, output: string): Unit => {
    const c = call(nid, 'python check_widget.py', tx);
    const r = node(nid + 100, 'tool_result', output, tx);
    return { key: c.id, members: [c, r], tier: 6, reason: 'recent history', tx };
  };
  const units = [
    run(21, 1, 'widget resize failed: width -1'),
    run(22, 3, 'widget resize failed: width 0'),
    unit(node(23, 'tool_result', 'ls output', 4)),
  ];

  it('places older runs by recency only; the newest run keeps its relevance', () => {
    const r = rankUnits(units, { text: 'widget resize fails', paths: new Set() });
    expect(r.get('n21')!.signal).toBe('recency');
    expect(r.get('n22')!.signal).toBe('bm25');
    expect(r.get('n22')!.rank).toBe(0);
  });

  it('counts a run by the current action as the newest', () => {
    const r = rankUnits(units, {
      text: 'widget resize fails',
      paths: new Set(),
      commands: new Set(['python check_widget.py']),
    });
    expect(r.get('n22')!.signal).toBe('recency');
  });
});
