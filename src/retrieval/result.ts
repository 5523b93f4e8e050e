import type { ChannelScores } from '../rerank/fuse.js';
import type { DropCode } from '../rerank/select.js';
import type { SupportFeatures } from '../rerank/support.js';
import type { NodeKind, Status } from '../schema/kinds.js';
import type { MissingEvidence } from './exact-channel.js';

/** One retrieved record with its fused score, its per-channel scores and its body. */
export interface RetrievedEvidence {
  id: string;
  kind: NodeKind;
  score: number;
  channels: ChannelScores;
  status?: Status;
  authority: string;
  path?: string;
  revision?: string;
  range?: [number, number];
  body?: string;
  /** The record's scalar annotations (e.g. `speaker`, `date` from fromConversation). */
  meta?: Record<string, string | number | boolean | null>;
  tokens: number;
  tx: number;
}

/**
 * Why a retrieval candidate is in the result or out of it, as a code: `selected` (in `evidence`,
 * or in `partial` when the result abstains), `duplicate-body` (its body is another selected
 * record's), `near-duplicate-range` (it overlaps a selected range of the same file), `budget`
 * (past `budget.records` or `budget.chars`), `not-read` (ranked, but its record was not read).
 */
export type RetrievalExplanationCode = 'selected' | DropCode | 'not-read';

/**
 * Why one candidate ranks where it does, and whether it is in the result: the working set's
 * vocabulary (`included`, `reason`) plus a machine-readable `code`.
 */
export interface ExplanationEntry {
  id: string;
  /** Whether it is among the selected records (`evidence`, or `partial` when abstaining). */
  included: boolean;
  /** Why, in words: the signals that placed it when included, else why it was left out. */
  reason: string;
  /** Why, as a stable code. */
  code: RetrievalExplanationCode;
  score: number;
  contributions: Record<string, number>;
  ranks: Record<string, number>;
  /** Each channel's reason for the candidate (`exact: src/can/parser.ts:10-40`, `bm25 #2`, …). */
  signals: string[];
}

/** What `ledger.retrieve` returns: `supported` evidence, or `abstain` with what is missing. */
export interface RetrievalResult {
  status: 'supported' | 'abstain';
  /** Ranked support (empty when abstaining: no padding with weak results). */
  evidence: RetrievedEvidence[];
  /** What is missing, as specific requests (path, range, revision, claim). */
  missing: MissingEvidence[];
  /** The best candidates found when abstaining, for hosts that show partial support. */
  partial: RetrievedEvidence[];
  /**
   * Calibrated support in [0, 1]: for a text query, an estimate of the probability that the
   * returned records support it (rerank/support.ts); 1 or 0 for hard constraints; capped below
   * the threshold when something is missing. Compared with `threshold`.
   */
  support: number;
  /**
   * The uncalibrated measure: for a text query, the IDF-weighted share of its content words one
   * record (by the person it names, if any) contains; otherwise equal to `support` before capping.
   */
  rawSupport: number;
  /** The features `support` was computed from, for a text query (a host may refit the model on its own data). */
  supportFeatures?: SupportFeatures;
  threshold: number;
  contradictions: Array<{ from: string; to: string }>;
  /** Records matching the query that are no longer valid at the epoch (excluded, counted). */
  superseded: number;
  explanation: ExplanationEntry[];
}
