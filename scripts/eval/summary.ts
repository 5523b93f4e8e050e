/**
 * Per-event measurements → the report's figures: means over events (each event weighs the same),
 * bootstrap intervals resampling trajectories, and the ledger's per-tier diagnosis.
 */
import { TIERS, type TierName } from '../../src/working-set/types.js';
import { type BootstrapOptions, bootstrapMeanCI, mean } from './metrics.js';
import { addTally, type CacheTally, costOf, emptyTally, type Pricing } from './request-cost.js';
import {
  type BudgetSummary,
  type CostMethod,
  type CostReport,
  type CostSummary,
  type EventRecord,
  METHODS,
  type MethodName,
  type MethodSummary,
  type ReplayReport,
  type TrajectoryCost,
} from './types.js';

export interface SummaryInput {
  budgets: readonly number[];
  trajectories: number;
  skipped: Array<{ name: string; reason: string }>;
  usableGold: number;
  usableEditGold: number;
  droppedShort: number;
  maxNodes: number | null;
  hops: number | null;
  bootstrap: BootstrapOptions;
  costs: readonly TrajectoryCost[];
  pricing: Pricing;
}

export function summarise(records: readonly EventRecord[], input: SummaryInput): ReplayReport {
  const all = byTrajectory(records);
  const firsts = byTrajectory(records.filter((r) => r.firstEdit));
  const laters = byTrajectory(records.filter((r) => !r.firstEdit));
  const withEdit = records.filter((r) => r.edit !== undefined);
  const edits = byTrajectory(withEdit);
  const editFirsts = byTrajectory(withEdit.filter((r) => r.firstEdit));
  const editLaters = byTrajectory(withEdit.filter((r) => !r.firstEdit));
  const recall = (r: EventRecord, m: MethodName, budget: number) => at(r, budget).methods[m].recall;
  const editRecall = (r: EventRecord, m: MethodName, budget: number) => at(r, budget).methods[m].editRecall ?? 0;
  const ci = (groups: EventRecord[][], value: (r: EventRecord) => number) =>
    bootstrapMeanCI(
      groups.map((g) => g.map(value)),
      input.bootstrap,
    );
  const budgets = input.budgets.map((budget): BudgetSummary => {
    const perTier = (value: (r: EventRecord, tier: TierName) => number) =>
      Object.fromEntries(TIERS.map((t) => [t, mean(records.map((r) => value(r, t)))])) as Record<TierName, number>;
    return {
      budget,
      methods: methodSummaries(all, budget, input.bootstrap, recall),
      ledger: {
        tokensByTier: perTier((r, t) => at(r, budget).tiers[t] ?? 0),
        missedByTier: perTier((r, t) => (at(r, budget).missed[t] ?? 0) / r.goldLines),
      },
      firstEdits: methodSummaries(firsts, budget, input.bootstrap, recall),
      laterEdits: methodSummaries(laters, budget, input.bootstrap, recall),
      edit: {
        all: methodSummaries(edits, budget, input.bootstrap, editRecall),
        firstEdits: methodSummaries(editFirsts, budget, input.bootstrap, editRecall),
        laterEdits: methodSummaries(editLaters, budget, input.bootstrap, editRecall),
      },
    };
  });

  return {
    ceiling: mean(records.map((r) => r.ceiling)),
    ceilingCI: ci(all, (r) => r.ceiling),
    reach: mean(records.map((r) => r.reach)),
    events: records.length,
    firstEdits: {
      events: firsts.flat().length,
      ceiling: mean(firsts.flat().map((r) => r.ceiling)),
      reach: mean(firsts.flat().map((r) => r.reach)),
    },
    edit: {
      events: withEdit.length,
      firstEdits: editFirsts.flat().length,
      ceiling: mean(withEdit.map((r) => r.edit!.ceiling)),
      reach: mean(withEdit.map((r) => r.edit!.reach)),
      firstCeiling: mean(editFirsts.flat().map((r) => r.edit!.ceiling)),
      firstReach: mean(editFirsts.flat().map((r) => r.edit!.reach)),
    },
    trajectories: { total: input.trajectories, withEvents: all.length, skipped: input.skipped },
    goldLines: { usable: input.usableGold, ignoredShort: input.droppedShort, editUsable: input.usableEditGold },
    settings: { maxNodes: input.maxNodes, hops: input.hops, encoding: 'o200k_base', bootstrap: input.bootstrap },
    budgets,
    cost: costReport(input.costs, input.pricing, budgets, mean(records.map((r) => r.ceiling))),
    perEvent: [...records],
  };
}

/** Totals over trajectories per method and budget, priced, against the recency window and the
 * untrimmed transcript, with each method's recall over the edit events. */
function costReport(
  costs: readonly TrajectoryCost[],
  pricing: Pricing,
  budgets: readonly BudgetSummary[],
  ceiling: number,
): CostReport {
  const untrimmed = emptyTally();
  for (const c of costs) addTally(untrimmed, c.untrimmed);
  const runs = Math.max(1, costs.length);
  const summary = (t: CacheTally, recall: number, recency: number): CostSummary => {
    const cost = costOf(t, pricing);
    const costPerRun = cost / runs;
    return {
      ...t,
      cachedShare: t.sent === 0 ? 0 : t.cached / t.sent,
      cost,
      costPerRun,
      vsRecency: recency === 0 ? 0 : cost / recency,
      vsUntrimmed: costOf(untrimmed, pricing) === 0 ? 0 : cost / costOf(untrimmed, pricing),
      recall,
      recallPerDollar: costPerRun === 0 ? 0 : recall / costPerRun,
    };
  };
  return {
    pricing,
    trajectories: costs.length,
    requests: untrimmed.requests,
    budgets: budgets.map((b) => {
      const totals = {} as Record<MethodName, CacheTally>;
      for (const m of METHODS) {
        totals[m] = emptyTally();
        for (const c of costs) addTally(totals[m], c.budgets.find((x) => x.budget === b.budget)!.methods[m]);
      }
      const recency = costOf(totals.recency, pricing);
      const methods = {} as Record<CostMethod, CostSummary>;
      for (const m of METHODS) methods[m] = summary(totals[m], b.methods[m].recall, recency);
      methods.untrimmed = summary(untrimmed, ceiling, recency);
      const repacks = emptyTally();
      for (const c of costs) addTally(repacks, c.budgets.find((x) => x.budget === b.budget)!.ledgerRepacks);
      const ledger = totals.ledger;
      const ledgerRepacks = {
        requests: repacks.requests,
        share: ledger.requests === 0 ? 0 : repacks.requests / ledger.requests,
        writeShare: ledger.written === 0 ? 0 : repacks.written / ledger.written,
        costShare: costOf(ledger, pricing) === 0 ? 0 : costOf(repacks, pricing) / costOf(ledger, pricing),
      };
      return { budget: b.budget, methods, ledgerRepacks };
    }),
    perTrajectory: [...costs],
  };
}

/** Events grouped by trajectory, the unit the bootstrap resamples. */
function byTrajectory(records: readonly EventRecord[]): EventRecord[][] {
  const groups = new Map<string, EventRecord[]>();
  for (const r of records) groups.set(r.trajectory, [...(groups.get(r.trajectory) ?? []), r]);
  return [...groups.values()];
}

const at = (r: EventRecord, budget: number) => r.budgets.find((b) => b.budget === budget)!;

function methodSummaries(
  groups: EventRecord[][],
  budget: number,
  bootstrap: BootstrapOptions,
  recallOf: (r: EventRecord, method: MethodName, budget: number) => number,
): Record<MethodName, MethodSummary> {
  const records = groups.flat();
  const out = {} as Record<MethodName, MethodSummary>;
  for (const method of METHODS) {
    const s = (r: EventRecord) => at(r, budget).methods[method];
    out[method] = {
      recall: mean(records.map((r) => recallOf(r, method, budget))),
      recallCI: bootstrapMeanCI(
        groups.map((g) => g.map((r) => recallOf(r, method, budget))),
        bootstrap,
      ),
      precision: mean(records.map((r) => s(r).precision)),
      tokens: mean(records.map((r) => s(r).tokens)),
      pairsKept: mean(records.map((r) => (s(r).pairsKept ? 1 : 0))),
    };
  }
  return out;
}
