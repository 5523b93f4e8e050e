import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { naturalCompare } from '../../demo/explorer/natural-order.js';
import { adaptTranscript, detectFormat } from '../../demo/explorer/transcripts.js';
import {
  budgetSegments,
  closureGraph,
  epochMarkers,
  exampleQueries,
  explanationRows,
  filterRows,
  workingSetDiff,
} from '../../demo/explorer/view-model.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { readRdfSource } from '../../src/rdf/view.js';
import { LedgerPool } from '../helpers/ledgers.js';
import { commitFixture } from '../rdf/fixture.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/transcripts/${name}`, import.meta.url), 'utf8'));

describe('explorer helpers', () => {
  it('natural order puts act:2 before act:10 and is total', () => {
    expect(['act:10', 'act:2', 'act:1', 'call:1', 'act:02'].sort(naturalCompare)).toEqual([
      'act:1',
      'act:02',
      'act:2',
      'act:10',
      'call:1',
    ]);
  });

  it('detects every supported transcript format, SWE-agent .traj included', () => {
    expect(detectFormat(fixture('swe-agent.traj'))).toBe('swe-agent');
    expect(detectFormat(fixture('mini-swe-agent.traj.json'))).toBe('mini-swe-agent');
    expect(detectFormat(fixture('openai-chat.json'))).toBe('openai');
    expect(detectFormat(fixture('anthropic-messages.json'))).toBe('anthropic');
    expect(() => detectFormat({ hello: 1 })).toThrow(TypeError);
    const swe = adaptTranscript(fixture('swe-agent.traj'), 'auto');
    expect(swe.format).toBe('swe-agent');
    expect(swe.transactions.length).toBeGreaterThan(1);
  });

  it('orders and filters the explanation rows', () => {
    const rows = explanationRows([
      { id: 'act:10', included: false, tier: 6, reason: 'budget (recent history)', code: 'budget' },
      { id: 'act:2', included: false, tier: 2, reason: 'budget', code: 'budget' },
      { id: 'task', included: true, tier: 0, reason: 'active task', code: 'selected' },
      { id: 'ev:1', included: false, reason: 'superseded by rev:2 at epoch 3', code: 'superseded' },
    ]);
    expect(rows.map((r) => r.id)).toEqual(['task', 'act:2', 'act:10', 'ev:1']);
    const name = (t: number | undefined) => (t === undefined ? '–' : `tier${t}`);
    expect(filterRows(rows, 'BUDGET', 'all', name).map((r) => r.id)).toEqual(['act:2', 'act:10']);
    expect(filterRows(rows, '', 'in', name).map((r) => r.id)).toEqual(['task']);
    expect(filterRows(rows, 'tier6', 'out', name).map((r) => r.id)).toEqual(['act:10']);
  });

  it('sums tokens per tier and diffs working sets', () => {
    const item = (id: string, tier: number, tokens: number) =>
      ({ id, tier, tokens, kind: 'claim', tx: 1, authority: 'agent', unit: id }) as const;
    expect(budgetSegments([item('a', 2, 10), item('b', 0, 5), item('c', 2, 7)])).toEqual([
      { tier: 0, tokens: 5, items: 1 },
      { tier: 2, tokens: 17, items: 2 },
    ]);
    expect(workingSetDiff([{ id: 'a' }, { id: 'x:10' }], [{ id: 'x:10' }, { id: 'x:9' }, { id: 'x:2' }])).toEqual({
      entered: ['x:2', 'x:9'],
      left: ['a'],
    });
  });
});

describe('explorer view model over a real ledger', () => {
  const pool = new LedgerPool();
  let ledger: Ledger;
  beforeAll(async () => {
    ledger = await pool.ledger();
    await commitFixture(ledger);
  });
  afterAll(() => pool.close());

  it('draws the closure with included, excluded and superseded nodes and the supersession links', async () => {
    const ws = await ledger.materialize({ mode: 'fresh', epoch: 3, budget: { tokens: 40 } });
    const { nodes, edges } = closureGraph(ws.explanation, await readRdfSource(ledger, 3));
    const state = (id: string) => nodes.find((n) => n.id === id)?.state;
    expect(nodes.length).toBe(ws.explanation.length);
    expect(
      nodes
        .filter((n) => n.state === 'included')
        .map((n) => n.id)
        .sort(),
    ).toEqual(ws.items.map((i) => i.id).sort());
    expect(state('ev:a1:1-10')).toBe('superseded');
    expect(nodes.some((n) => n.state === 'excluded')).toBe(true);
    expect(edges.some((e) => e.kind === 'supersedes' && e.target === 'ev:a1:1-10')).toBe(true);
    // Lanes: one per kind present, in the fixed order; rows count up within a lane.
    const lanes = new Map(nodes.map((n) => [n.kind, n.lane]));
    expect(lanes.get('task')).toBeLessThan(lanes.get('claim') ?? -1);
    expect(lanes.get('action')).toBeLessThan(lanes.get('verifier_outcome') ?? -1);
  });

  it('marks what happened at each epoch and derives example queries from the trace', async () => {
    const source = await readRdfSource(ledger, ledger.lastEpoch);
    const markers = epochMarkers(source, ledger.lastEpoch);
    expect(markers.map((m) => m.commit)).toEqual([0, 1, 1, 1]);
    expect(markers.map((m) => m.revision)).toEqual([0, 1, 1, 0]);
    expect(markers.map((m) => m.supersession)).toEqual([0, 0, 2, 0]);
    expect(markers.map((m) => m.contradiction)).toEqual([0, 1, 0, 0]);
    expect(markers[3]).toMatchObject({ verifier: 1, failed: 1 });
    expect(exampleQueries([...source.nodes, ...source.superseded])).toEqual([
      'Fix the CAN speed decoding',
      'SECRET-WEB forum says speed is unsigned',
      'src/can.c',
      'pytest',
    ]);
  });
});
