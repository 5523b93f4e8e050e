import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversation, placeStubs, unplaced } from '../../demo/explorer/conversation-model.js';
import { CELL, churn, presenceCells, presenceRows } from '../../demo/explorer/presence-model.js';
import { commonPrefix, recencyWindow, requestCosts, runTotal } from '../../demo/explorer/request-cost.js';
import { SPARQL_EXAMPLES } from '../../demo/explorer/sparql-examples.js';
import { adaptTranscript } from '../../demo/explorer/transcripts.js';
import { closureGraph, snippet, stepLabels } from '../../demo/explorer/view-model.js';
import {
  defaultBudget,
  droppedCurrentAction,
  stubText,
  tierRanks,
  unitNeeds,
  whyText,
} from '../../demo/explorer/why-text.js';
import { RMDX_SESSION } from '../../demo/traces/rmdx-can-session.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { sparql } from '../../src/rdf/sparql.js';
import { readRdfSource } from '../../src/rdf/view.js';
import type { ExplanationRecord } from '../../src/working-set/types.js';
import { TIERS } from '../../src/working-set/types.js';
import { LedgerPool } from '../helpers/ledgers.js';

const tierName = (t: number) => TIERS[t] ?? String(t);

/** A record of the recency tier the budget left out. */
const BUDGET_OUT: ExplanationRecord = {
  id: 'act:17',
  included: false,
  tier: 6,
  reason: 'budget (recent history)',
  code: 'budget',
  signal: 'recency #12',
};

describe('why a record is in or out', () => {
  it('why-out text names the tier once (was "budget (recent history) (recent-history)")', () => {
    const text = whyText(BUDGET_OUT, { tokens: 35, rank: { rank: 9, of: 14 }, needs: 35, free: 12 }, tierName);
    expect(text).toBe(
      'Out: budget (recent history) — tier 7 recent-history · rank 9 of 14 in its tier (recency #12) · 35 tok · its unit needs 35, 12 free',
    );
    expect(text).not.toContain('(recent history) (recent-history)');
  });

  it('a stub gives size, rank in tier and the room that was free', () => {
    const e = BUDGET_OUT;
    expect(stubText(e, { tokens: 35, rank: { rank: 9, of: 14 }, needs: 35, free: 12 })).toBe(
      '✗ act:17 · 35 tok · rank 9 of 14 · needs 35, 12 free',
    );
    expect(
      stubText(
        {
          id: 'x',
          included: false,
          reason: 'unanswered call: a call is never shown without its result',
          code: 'unanswered-call',
        },
        { free: 3 },
      ),
    ).toBe('✗ x · unanswered call: a call is never shown without its result');
  });

  it('ranks units within a tier by their signal, and sums what a dropped unit needs', () => {
    const explanation: ExplanationRecord[] = [
      { id: 'act:3', included: true, tier: 6, reason: 'recent history', code: 'selected', signal: 'recency #1' },
      { id: 'call:3', included: true, tier: 6, reason: 'recent history', code: 'selected', signal: 'recency #1' },
      {
        id: 'act:2',
        included: false,
        tier: 6,
        reason: 'budget (recent history)',
        code: 'budget',
        signal: 'recency #4',
      },
      {
        id: 'call:2',
        included: false,
        tier: 6,
        reason: 'budget (recent history)',
        code: 'budget',
        signal: 'recency #4',
      },
      {
        id: 'act:1',
        included: false,
        tier: 6,
        reason: 'budget (recent history)',
        code: 'budget',
        signal: 'recency #9',
      },
      { id: 'ev:1', included: true, tier: 4, reason: 'current evidence', code: 'selected', signal: 'bm25 #1' },
      { id: 'task', included: true, tier: 0, reason: 'active task', code: 'selected' },
    ];
    const ranks = tierRanks(explanation);
    expect(ranks.get('act:2')).toEqual({ rank: 2, of: 3 });
    expect(ranks.get('call:2')).toEqual({ rank: 2, of: 3 });
    expect(ranks.get('act:1')).toEqual({ rank: 3, of: 3 });
    expect(ranks.get('ev:1')).toEqual({ rank: 1, of: 1 });
    expect(ranks.has('task')).toBe(false);
    const tokens: Record<string, number> = { 'act:2': 10, 'call:2': 25, 'act:1': 7 };
    const needs = unitNeeds(explanation, (id) => tokens[id]);
    expect(needs.get('act:2')).toBe(35);
    expect(needs.get('call:2')).toBe(35);
    expect(needs.get('act:1')).toBe(7);
    expect(needs.has('act:3')).toBe(false);
  });

  it('flags a dropped current action', () => {
    expect(
      droppedCurrentAction([
        { id: 'act:9', included: false, tier: 2, reason: 'budget (current action)', code: 'budget' },
        { id: 'act:8', included: false, tier: 6, reason: 'budget (recent history)', code: 'budget' },
      ]).map((e) => e.id),
    ).toEqual(['act:9']);
  });

  it('opens a trace at the largest preset at most half of what it holds', () => {
    expect(defaultBudget(1_000)).toBe(4_000);
    expect(defaultBudget(35_000)).toBe(8_000);
    expect(defaultBudget(70_000)).toBe(32_000);
    expect(defaultBudget(10_000_000)).toBe(128_000);
  });
});

describe('the step list and retrieval snippets', () => {
  it('labels each step with its command, else its action', () => {
    const rec = (id: string, kind: 'task' | 'action' | 'tool_call', validFrom: number, body: string) =>
      ({ id, kind, validFrom, body, tx: validFrom, tokens: 1, authority: 'agent' }) as const;
    expect(
      stepLabels(
        [
          rec('task', 'task', 0, 'Fix it'),
          rec('act:1', 'action', 1, 'THOUGHT: look first\nI will grep'),
          rec('call:1', 'tool_call', 1, 'grep -n foo src/a.py'),
          rec('act:2', 'action', 2, '\nNothing to run'),
        ],
        3,
      ),
    ).toEqual(['Fix it', '$ grep -n foo src/a.py', 'Nothing to run', '(no action recorded)']);
  });

  it('a snippet starts near the first query word the body holds', () => {
    const body = `${'x'.repeat(500)}\nthe hstack of zero rows\n${'y'.repeat(500)}`;
    const s = snippet(body, 'Hstack zero', 60);
    expect(s.startsWith('…the hstack of zero rows')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(snippet('short body', 'absent')).toBe('short body');
  });
});

describe('what each request costs with a prompt cache', () => {
  const b = (key: string, tokens: number) => ({ key, tokens });

  it('reads the common prefix of whole blocks from the cache and writes the rest', () => {
    expect(commonPrefix([b('a', 1), b('b', 2)], [b('a', 1), b('c', 2)])).toBe(1);
    const costs = requestCosts([
      { epoch: 0, blocks: [b('task', 100)] },
      { epoch: 1, blocks: [b('task', 100), b('s1', 50)] },
      // An earlier block changed: everything after it is written again (a re-pack).
      { epoch: 2, blocks: [b('task', 100), b('s1*', 40), b('s2', 30)] },
    ]);
    expect(costs.map((c) => [c.sent, c.cached, c.written, c.repacked])).toEqual([
      [100, 0, 100, false],
      [150, 100, 50, false],
      [170, 100, 70, true],
    ]);
    expect(costs[1]!.cost).toBeCloseTo(100 * 0.1 + 50 * 1.25);
    expect(runTotal(costs)).toMatchObject({ sent: 420, cached: 200, written: 220, repacks: 1 });
  });

  it('the recency window keeps the task and the newest steps that fit', () => {
    const records = [
      { id: 'task', tokens: 10, tx: 0, pinned: true },
      { id: 'act:1', tokens: 50, tx: 1, pinned: false },
      { id: 'act:2', tokens: 30, tx: 2, pinned: false },
      { id: 'act:3', tokens: 40, tx: 3, pinned: false },
    ];
    expect(recencyWindow(records, 80).map((x) => x.key)).toEqual(['task', 'act:2', 'act:3']);
    expect(recencyWindow(records, 60).map((x) => x.key)).toEqual(['task', 'act:3']);
  });
});

describe('the presence matrix', () => {
  it('marks each record per epoch: not yet recorded, in, out, superseded', () => {
    const rows = presenceRows([
      { id: 'act:2', kind: 'action', validFrom: 2 },
      { id: 'ev:1', kind: 'evidence', validFrom: 1, validTo: 3 },
      { id: 'task', kind: 'task', validFrom: 0 },
      { id: 'act:1', kind: 'action', validFrom: 1 },
    ]);
    // By step, then kind lane (evidence before action), then id.
    expect(rows.map((r) => r.id)).toEqual(['task', 'ev:1', 'act:1', 'act:2']);
    const included = [new Set(['task']), new Set(['task', 'ev:1', 'act:1']), new Set(['task', 'act:2']), undefined];
    const cells = presenceCells(rows, 4, included);
    const row = (i: number) => [...cells.slice(i * 4, i * 4 + 4)];
    expect(row(0)).toEqual([CELL.in, CELL.in, CELL.in, CELL.pending]);
    expect(row(1)).toEqual([CELL.unrecorded, CELL.in, CELL.out, CELL.superseded]);
    expect(row(2)).toEqual([CELL.unrecorded, CELL.in, CELL.out, CELL.pending]);
    expect(churn(cells, 2, 4)).toBe(1);
  });
});

describe('the conversation, the graph and SPARQL over real ledgers', () => {
  const pool = new LedgerPool();
  let trajectory: Ledger;
  let bundled: Ledger;
  beforeAll(async () => {
    trajectory = await pool.ledger(0);
    const json = JSON.parse(
      readFileSync(new URL('../fixtures/transcripts/mini-swe-agent.traj.json', import.meta.url), 'utf8'),
    );
    for (const tx of adaptTranscript(json, 'auto').transactions) await trajectory.commit(tx);
    bundled = await pool.ledger(1);
    for (const tx of RMDX_SESSION) await bundled.commit(tx);
    // Two ledgers committed up front: seconds on a busy machine, past the default hook bound.
  }, 120_000);
  afterAll(() => pool.close());

  it('traces every part of the rendered request to its item, and the blocks add up to the working set', async () => {
    for (const tokens of [300, 1_000, 100_000]) {
      const ws = await trajectory.materialize({ mode: 'fresh', budget: { tokens } });
      const messages = conversation(ws.items, ws.toMessages('anthropic'));
      expect(unplaced(ws.items, messages)).toEqual([]);
      const blocks = messages.flatMap((m) => m.blocks);
      expect(blocks.reduce((s, b) => s + b.tokens, 0)).toBe(ws.tokens);
      for (const b of blocks.filter((x) => x.type === 'tool_result'))
        expect(b.parts.every((p) => p.item?.kind === 'tool_result')).toBe(true);
      for (const b of blocks.filter((x) => x.type === 'tool_use'))
        expect(b.parts.every((p) => p.item?.kind === 'tool_call')).toBe(true);
    }
  });

  it('places left-out records of the action log before the first message recorded after them', async () => {
    const ws = await trajectory.materialize({ mode: 'fresh', budget: { tokens: 300 } });
    const messages = conversation(ws.items, ws.toMessages('anthropic'));
    const source = await readRdfSource(trajectory, trajectory.lastEpoch);
    const rec = new Map(source.nodes.map((n) => [n.id, n]));
    const stubs = ws.explanation
      .filter((e) => !e.included && e.reason.startsWith('budget'))
      .map((e) => ({ id: e.id, kind: rec.get(e.id)?.kind ?? '', tx: rec.get(e.id)?.tx ?? 0 }));
    expect(stubs.length).toBeGreaterThan(0);
    const rows = placeStubs(messages, stubs);
    expect(rows.filter((r) => 'message' in r).length).toBe(messages.length);
    expect(rows.flatMap((r) => ('stubs' in r ? r.stubs : [])).length).toBe(stubs.length);
    // Reading down the page, recording order never goes backwards across log stubs and messages.
    let last = -Infinity;
    for (const r of rows.slice(1)) {
      const txs =
        'stubs' in r
          ? r.stubs.filter((s) => ['action', 'tool_call', 'tool_result'].includes(s.kind)).map((s) => s.tx)
          : r.message.blocks.flatMap((b) => b.parts.flatMap((p) => (p.item ? [p.item.tx] : [])));
      if (txs.length === 0) continue;
      expect(Math.min(...txs)).toBeGreaterThanOrEqual(last);
      last = Math.max(...txs);
    }
  });

  it("draws a step's action, call and result on one row, and marks the task's edges", async () => {
    const ws = await trajectory.materialize({ mode: 'fresh', budget: { tokens: 100_000 } });
    const { nodes, edges, lanes } = closureGraph(ws.explanation, await readRdfSource(trajectory, trajectory.lastEpoch));
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const step = nodes.find((n) => n.kind === 'tool_call')!;
    const sameStep = nodes.filter(
      (n) => n.step === step.step && ['action', 'tool_call', 'tool_result'].includes(n.kind),
    );
    expect(sameStep.length).toBeGreaterThan(1);
    expect(new Set(sameStep.map((n) => n.row)).size).toBe(1);
    expect(lanes.indexOf('action')).toBeLessThan(lanes.indexOf('tool_result'));
    const hubs = edges.filter((e) => e.hub);
    expect(hubs.length).toBeGreaterThan(0);
    for (const e of hubs) expect([byId.get(e.source)?.kind, byId.get(e.target)?.kind]).toContain('task');
  });

  it('the superseded-records query lists every superseded record (it once missed verifier outcomes: 3 of 5)', async () => {
    const epoch = bundled.lastEpoch;
    const source = await readRdfSource(bundled, epoch);
    const query = SPARQL_EXAMPLES.find((x) => x.label === 'superseded records')!.query;
    const result = await sparql(bundled, query, { epoch });
    if (result.type !== 'bindings') throw new Error('expected bindings');
    expect(result.rows.length).toBe(source.superseded.length);
    expect(source.superseded.some((s) => s.kind === 'verifier_outcome')).toBe(true);
  });
});
