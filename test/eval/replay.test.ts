import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { untrimmed } from '../../scripts/eval/baselines.js';
import { LedgerPool } from '../../scripts/eval/ledger-pool.js';
import { type ContextRecord, METHODS, type ReplayInput, replayTrajectories } from '../../scripts/eval/replay.js';
import { costOf, DEFAULT_PRICING, requestBlocks } from '../../scripts/eval/request-cost.js';
import { transcriptOf } from '../../scripts/eval/transcript.js';
import { transcriptRequest } from '../../scripts/eval/transcript-request.js';
import { fromMiniSweAgent } from '../../src/adapters/index.js';

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/transcripts/mini-swe-agent.traj.json', import.meta.url), 'utf8'),
);
const realFile = fileURLToPath(
  new URL(
    '../../../shared/data/trajectories/mini-swe-agent-gemini3pro/astropy__astropy-12907.traj.json',
    import.meta.url,
  ),
);

/** The trajectory as it stood right after step `step` ran: later turns never happened. */
function truncateAfterStep(trajectory: { messages: Array<{ role: string }> }, step: number) {
  const messages: Array<{ role: string }> = [];
  let seen = 0;
  for (const m of trajectory.messages) {
    if (m.role === 'assistant' && ++seen > step) break;
    messages.push(m);
  }
  return { ...trajectory, messages };
}

const pool = new LedgerPool();
afterAll(() => pool.close());

async function replayWithContexts(input: ReplayInput, budgets: number[], cost = true) {
  const contexts = new Map<string, string>();
  const onContext = (c: ContextRecord) => contexts.set(`${c.epoch} ${c.budget} ${c.method}`, c.json);
  const report = await replayTrajectories([input], { budgets, pool, onContext, cost });
  return { report, contexts };
}

/** Contexts built for the edit at `epoch` from the full trajectory equal those from the trajectory
 * cut right after that edit — for the ledger's working set and every baseline, at every budget. */
async function expectNoFuture(trajectory: typeof fixture, epoch: number, budgets: number[]) {
  // The cost section sends a request after every step; the contexts at the edits are the same
  // without it (see 'the cost section leaves the contexts at the edits as they are').
  const full = await replayWithContexts({ name: 't', trajectory }, budgets, false);
  const cut = await replayWithContexts({ name: 't', trajectory: truncateAfterStep(trajectory, epoch) }, budgets, false);
  expect(full.report.perEvent.map((e) => e.epoch)).toContain(epoch);
  const at = (m: Map<string, string>) => [...m].filter(([k]) => k.startsWith(`${epoch} `));
  expect(at(full.contexts)).toHaveLength(budgets.length * METHODS.length);
  expect(at(cut.contexts)).toEqual(at(full.contexts));
  return { full, cut };
}

describe('replayTrajectories on the fixture', () => {
  it('the context at an edit does not depend on the steps after it', async () => {
    const { full } = await expectNoFuture(fixture, 7, [150, 4000]);
    // The ledger's working set is compared whole (items, tokens, explanation).
    const ws = JSON.parse(full.contexts.get('7 4000 ledger')!);
    expect(ws.epoch).toBe(6);
    expect(ws.items.some((i: { id: string }) => i.id === 'task')).toBe(true);
  });

  it('measures the edit of pkg/calc.py against what the steps before it displayed', async () => {
    const { report } = await replayWithContexts({ name: 'fixture', trajectory: fixture }, [150, 4000]);
    expect(report.events).toBe(1);
    const [ev] = report.perEvent;
    expect(ev).toMatchObject({
      trajectory: 'fixture',
      epoch: 7,
      paths: ['pkg/calc.py'],
      firstEdit: true,
      goldLines: 1,
      ceiling: 1,
      reach: 1,
    });
    for (const b of ev!.budgets) {
      for (const m of METHODS) {
        expect(b.methods[m].tokens).toBeLessThanOrEqual(b.budget);
        expect(b.methods[m].recall).toBeLessThanOrEqual(ev!.ceiling);
      }
    }
    // 150 tokens of recency hold the last few steps, not the views of step 2 and 4; 4,000 hold everything.
    expect(ev!.budgets[0]!.methods.recency.recall).toBe(0);
    expect(ev!.budgets[1]!.methods.recency.recall).toBe(1);
    expect(ev!.budgets[1]!.methods.recencyPaired.pairsKept).toBe(true);
    expect(report.budgets.map((b) => b.budget)).toEqual([150, 4000]);
    expect(report.goldLines).toEqual({ usable: 1, ignoredShort: 0, editUsable: 1 });
    // The second gold: step 7's sed replaced line 9 as the view of step 4 showed it.
    expect(ev!.edit).toEqual({ goldLines: 1, ceiling: 1, reach: 1 });
    expect(ev!.budgets[1]!.methods.ledger.editRecall).toBe(1);
    expect(report.edit.events).toBe(1);
    // Evaluated as a user calls it: no lifted closure bound.
    expect(report.settings).toMatchObject({ maxNodes: null, hops: null });
  });

  it('prices a request after every step but the last, for every method at every budget', async () => {
    const { report } = await replayWithContexts({ name: 'fixture', trajectory: fixture }, [150, 4000]);
    const { transactions } = fromMiniSweAgent(fixture);
    const steps = transactions.length;
    const ledger = await pool.fresh();
    const t = transcriptOf(transactions, (s) => ledger.countTokens(s));
    const last = transcriptRequest(t, untrimmed(t, transactions[steps - 2]!.epoch, 0));
    const lastUntrimmed = requestBlocks(last).reduce((n, b) => n + ledger.countTokens(b.text), 0);
    const { cost } = report;
    expect(cost.trajectories).toBe(1);
    expect(cost.requests).toBe(steps - 1);
    expect(cost.pricing).toEqual(DEFAULT_PRICING);
    for (const b of cost.budgets) {
      expect(Object.keys(b.methods)).toEqual([...METHODS, 'untrimmed']);
      for (const m of Object.values(b.methods)) {
        expect(m.requests).toBe(steps - 1);
        expect(m.cached + m.written).toBe(m.sent);
        expect(m.cost).toBeCloseTo(costOf(m, DEFAULT_PRICING), 12);
      }
      expect(b.methods.recency.vsRecency).toBe(1);
      expect(b.methods.untrimmed.vsUntrimmed).toBe(1);
      // The untrimmed transcript only appends: each request reads the whole previous one from the
      // cache, so what it writes over the run adds up to its last request.
      expect(b.methods.untrimmed.written).toBe(lastUntrimmed);
      expect(b.methods.untrimmed.recall).toBe(report.ceiling);
    }
    // A 150-token budget sends less than the untrimmed transcript on this run.
    expect(cost.budgets[0]!.methods.recency.sent).toBeLessThan(cost.budgets[0]!.methods.untrimmed.sent);
  });

  it('the cost section leaves the contexts at the edits as they are', async () => {
    const on = await replayWithContexts({ name: 'fixture', trajectory: fixture }, [150, 4000]);
    const off = await replayWithContexts({ name: 'fixture', trajectory: fixture }, [150, 4000], false);
    expect([...on.contexts]).toEqual([...off.contexts]);
    expect(off.report.perEvent).toEqual(on.report.perEvent);
    expect(off.report.cost.trajectories).toBe(0);
  });

  it('is deterministic', async () => {
    const a = await replayTrajectories([{ name: 'f', trajectory: fixture }], { budgets: [300], pool });
    const b = await replayTrajectories([{ name: 'f', trajectory: fixture }], { budgets: [300], pool });
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  it('skips a trajectory without a final patch and rejects bad budgets', async () => {
    const r = await replayTrajectories([{ name: 'empty', trajectory: { messages: [], info: {} } }], {
      budgets: [100],
      pool,
    });
    expect(r.trajectories.skipped).toEqual([{ name: 'empty', reason: 'no final patch (info.submission)' }]);
    expect(r.events).toBe(0);
    await expect(replayTrajectories([], { budgets: [0] })).rejects.toThrow(RangeError);
  });
});

describe.skipIf(!existsSync(realFile))('replayTrajectories on a real trajectory', () => {
  it('the context at the first edit is the same with and without the later edits', async () => {
    const trajectory = JSON.parse(readFileSync(realFile, 'utf8'));
    const full = await replayWithContexts({ name: 't', trajectory }, [1000], false);
    const [first, ...later] = full.report.perEvent.map((e) => e.epoch);
    expect(later.length).toBeGreaterThan(0);
    const { cut } = await expectNoFuture(trajectory, first!, [1000, 4000]);
    expect(cut.report.events).toBe(1);
  });
});
