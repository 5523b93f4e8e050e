/** The evaluation's records and report shape (JSON-serialisable). */
import type { TierName } from '../../src/working-set/types.js';
import type { BootstrapOptions } from './metrics.js';
import type { CacheTally, Pricing } from './request-cost.js';

export const METHODS = ['ledger', 'recency', 'recencyPaired', 'bm25', 'observationMasking', 'compaction'] as const;
export type MethodName = (typeof METHODS)[number];

/** The cost section's methods: every budgeted one, and the untrimmed transcript. */
export type CostMethod = MethodName | 'untrimmed';

export interface MethodScore {
  recall: number;
  precision: number;
  tokens: number;
  /** Every tool call shown with all its results, and every result with its call. */
  pairsKept: boolean;
  /** Recall of the second gold (the edit's exact pre-image), when the event has one. */
  editRecall?: number;
}

/** One event's measurements; `tiers` and `missed` feed the ledger diagnosis. */
export interface EventRecord {
  trajectory: string;
  epoch: number;
  paths: string[];
  /** No earlier step edited any of these paths: the gold lines are still in the file. (At a
   * later edit some were already replaced, and only stale earlier output still shows them.) */
  firstEdit: boolean;
  goldLines: number;
  ceiling: number;
  /** Ledger recall with an unlimited budget: what its closure can reach at all. */
  reach: number;
  /** The second gold — the lines the edit replaces as they stood just before it — when the
   * adapter knew that pre-image exactly. */
  edit?: { goldLines: number; ceiling: number; reach: number };
  budgets: Array<{
    budget: number;
    methods: Record<MethodName, MethodScore>;
    /** Ledger working-set tokens per tier name. */
    tiers: Record<string, number>;
    /** Gold lines the unlimited working set shows but this one lacks, by the tier that carried them there. */
    missed: Record<string, number>;
  }>;
}

export interface MethodSummary {
  /** Mean over events of the share of gold lines in context. */
  recall: number;
  recallCI: [number, number];
  /** Mean over events of the share of context tokens that are gold lines. */
  precision: number;
  /** Mean context tokens. */
  tokens: number;
  /** Share of events whose context kept every tool call with its results. */
  pairsKept: number;
}

export interface BudgetSummary {
  budget: number;
  methods: Record<MethodName, MethodSummary>;
  /** Where the ledger's budget goes and which tiers hold the gold lines it reaches but drops. */
  ledger: {
    /** Mean working-set tokens per tier. */
    tokensByTier: Record<TierName, number>;
    /** Mean share of an event's gold lines that the unlimited working set shows (in an item of
     * this tier) and this budget's lacks; summed over tiers it is `reach - recall`. */
    missedByTier: Record<TierName, number>;
  };
  /** The same measures over first edits of a file only (see EventRecord.firstEdit)… */
  firstEdits: Record<MethodName, MethodSummary>;
  /** …and over later edits. */
  laterEdits: Record<MethodName, MethodSummary>;
  /** Recall of the second gold (the edit's exact pre-image), over the events that have one
   * (precision, tokens and pairs are those of the first gold's contexts, the same contexts). */
  edit: {
    all: Record<MethodName, MethodSummary>;
    firstEdits: Record<MethodName, MethodSummary>;
    laterEdits: Record<MethodName, MethodSummary>;
  };
}

export interface ReplayReport {
  /** Mean over events of the share of gold lines that some earlier message displayed. */
  ceiling: number;
  ceilingCI: [number, number];
  /** Mean over events of the ledger's recall with an unlimited budget. */
  reach: number;
  events: number;
  firstEdits: { events: number; ceiling: number; reach: number };
  /** Events with a second gold (an exact pre-image), and its ceiling and ledger reach. */
  edit: {
    events: number;
    firstEdits: number;
    ceiling: number;
    reach: number;
    firstCeiling: number;
    firstReach: number;
  };
  trajectories: { total: number; withEvents: number; skipped: Array<{ name: string; reason: string }> };
  /** Gold lines of the final patches: those measured, and those ignored as blank or shorter than MIN_GOLD_CHARS. */
  goldLines: { usable: number; ignoredShort: number; editUsable: number };
  /** Closure bounds: null = the materializer's defaults (what a user gets). */
  settings: {
    maxNodes: number | null;
    hops: number | null;
    mode?: 'fresh' | 'session' | null;
    encoding: 'o200k_base';
    bootstrap: BootstrapOptions;
  };
  budgets: BudgetSummary[];
  /** The agent loop's input cost over every step (see CostSummary). */
  cost: CostReport;
  perEvent: EventRecord[];
}

/** One trajectory's requests — one after each step but the last — per method and budget. */
export interface TrajectoryCost {
  trajectory: string;
  /** Per budget, per budgeted method; the untrimmed transcript is the same at every budget. */
  budgets: Array<{ budget: number; methods: Record<MethodName, CacheTally>; ledgerRepacks: CacheTally }>;
  untrimmed: CacheTally;
}

/** The ledger's re-pack steps at one budget (session mode; none in the fresh mode, where every
 * request is ranked afresh): how many of its requests re-packed, and what they cost. */
export interface RepackSummary {
  requests: number;
  /** requests / the ledger's requests. */
  share: number;
  /** Their cache writes / all the ledger's cache writes. */
  writeShare: number;
  /** Their cost / the ledger's cost. */
  costShare: number;
}

export interface CostSummary extends CacheTally {
  /** cached / sent. */
  cachedShare: number;
  /** USD over every trajectory, and per trajectory (a run). */
  cost: number;
  costPerRun: number;
  /** Total cost over the recency window's and over the untrimmed transcript's. */
  vsRecency: number;
  vsUntrimmed: number;
  /** Mean recall over the edit events (the untrimmed transcript's is the ceiling). */
  recall: number;
  /** recall / costPerRun: recall per USD spent on a run's input. */
  recallPerDollar: number;
}

export interface CostReport {
  pricing: Pricing;
  trajectories: number;
  requests: number;
  budgets: Array<{ budget: number; methods: Record<CostMethod, CostSummary>; ledgerRepacks: RepackSummary }>;
  perTrajectory: TrajectoryCost[];
}
