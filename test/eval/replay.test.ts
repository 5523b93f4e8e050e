import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LedgerPool } from '../../scripts/eval/ledger-pool.js';
import { type ContextRecord, METHODS, type ReplayInput, replayTrajectories } from '../../scripts/eval/replay.js';

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

async function replayWithContexts(input: ReplayInput, budgets: number[]) {
  const contexts = new Map<string, string>();
  const onContext = (c: ContextRecord) => contexts.set(`${c.epoch} ${c.budget} ${c.method}`, c.json);
  const report = await replayTrajectories([input], { budgets, pool, onContext });
  return { report, contexts };
}

/** Contexts built for the edit at `epoch` from the full trajectory equal those from the trajectory
 * cut right after that edit — for the ledger's working set and every baseline, at every budget. */
async function expectNoFuture(trajectory: typeof fixture, epoch: number, budgets: number[]) {
  const full = await replayWithContexts({ name: 't', trajectory }, budgets);
  const cut = await replayWithContexts({ name: 't', trajectory: truncateAfterStep(trajectory, epoch) }, budgets);
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
    const full = await replayWithContexts({ name: 't', trajectory }, [1000]);
    const [first, ...later] = full.report.perEvent.map((e) => e.epoch);
    expect(later.length).toBeGreaterThan(0);
    const { cut } = await expectNoFuture(trajectory, first!, [1000, 4000]);
    expect(cut.report.events).toBe(1);
  });
});
