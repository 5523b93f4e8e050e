/**
 * Replays with every context recorded, and the no-future check: the contexts built for an edit
 * from a whole trajectory equal those from the trajectory cut right after that edit.
 */
import { expect } from 'vitest';
import type { LedgerPool } from '../../scripts/eval/ledger-pool.js';
import { type ContextRecord, METHODS, type ReplayInput, replayTrajectories } from '../../scripts/eval/replay.js';

/** The trajectory as it stood right after step `step` ran: later turns never happened. */
export function truncateAfterStep(trajectory: unknown, step: number): unknown {
  const t = trajectory as { messages: Array<{ role: string }> };
  const messages: Array<{ role: string }> = [];
  let seen = 0;
  for (const m of t.messages) {
    if (m.role === 'assistant' && ++seen > step) break;
    messages.push(m);
  }
  return { ...t, messages };
}

export async function replayContexts(pool: LedgerPool, input: ReplayInput, budgets: number[], cost = true) {
  const contexts = new Map<string, string>();
  const onContext = (c: ContextRecord) => contexts.set(`${c.epoch} ${c.budget} ${c.method}`, c.json);
  const report = await replayTrajectories([input], { budgets, pool, onContext, cost });
  return { report, contexts };
}

/** For the ledger's working set and every baseline, at every budget. The cost section is off: it
 * sends a request after every step and leaves the contexts at the edits as they are (a test in
 * test/eval/replay.test.ts pins that). */
export async function expectSameContexts(pool: LedgerPool, trajectory: unknown, epoch: number, budgets: number[]) {
  const full = await replayContexts(pool, { name: 't', trajectory }, budgets, false);
  const cut = await replayContexts(
    pool,
    { name: 't', trajectory: truncateAfterStep(trajectory, epoch) },
    budgets,
    false,
  );
  expect(full.report.perEvent.map((e) => e.epoch)).toContain(epoch);
  const at = (m: Map<string, string>) => [...m].filter(([k]) => k.startsWith(`${epoch} `));
  expect(at(full.contexts)).toHaveLength(budgets.length * METHODS.length);
  expect(at(cut.contexts)).toEqual(at(full.contexts));
  return { full, cut };
}
