import type { EdgeKind, NodeKind, Status } from '../schema/kinds.js';
import type { LineRange } from '../schema/types.js';

/** What a caller asks the materializer for. */
export interface MaterializeRequest {
  /** Task epoch to materialize at; defaults to the last committed epoch. */
  epoch?: number;
  /** Node ids to start the closure from; default: open tasks, open steering and the current action. */
  roots?: readonly string[];
  /** `tokens` is required; `records` caps the item count, `chars` the body characters. */
  budget: { tokens: number; records?: number; chars?: number };
  /** Authority scopes the working set may draw from; default: every scope. */
  authority?: readonly string[];
  /** Closure bounds (defaults 6 hops, 128 nodes per hop level: when more are reachable at a level,
   * the newest 128 are walked on and the rest explained as `beyond the bound`). */
  hops?: number;
  maxNodes?: number;
}

/** Tiers, highest priority first. */
export const TIERS = [
  'steering-and-tasks',
  'requirements-and-claims',
  'current-action',
  'cited-by-open-work',
  'current-evidence',
  'verifier-dependencies',
  'recent-history',
] as const;
export type TierName = (typeof TIERS)[number];

/** A node the closure reached, with what ranking and packing need. */
export interface Candidate {
  nid: number;
  id: string;
  kind: NodeKind;
  status: Status | null;
  authority: string;
  path: string | null;
  revision: string | null;
  range: LineRange | null;
  verifier: string | null;
  tool: string | null;
  role: string | null;
  meta: Record<string, string | number | boolean | null> | null;
  tx: number;
  validFrom: number;
  bodyHash: string | null;
  body: string | null;
  tokens: number;
  /** Hop at which the walk reached it (Infinity for nodes added only to keep units whole). */
  hop: number;
}

export interface CandidateEdge {
  src: number;
  dst: number;
  kind: EdgeKind;
}

/** A group of candidates that is kept or dropped together. */
export interface Unit {
  /** The id that names the unit (the action's, the call's, or the node's own). */
  key: string;
  members: Candidate[];
  tier: number;
  reason: string;
  /** Most recent transaction among the members (recency within a tier). */
  tx: number;
}

export interface WorkingSetItem {
  id: string;
  kind: NodeKind;
  tier: number;
  tokens: number;
  tx: number;
  /** Present when this item carries the body… */
  body?: string;
  /** …otherwise the id of the item that carries the same body. */
  ref?: string;
  status?: Status;
  authority: string;
  path?: string;
  revision?: string;
  range?: LineRange;
  verifier?: string;
  tool?: string;
  role?: string;
  /** The unit the item belongs to (an action id for action transactions). */
  unit: string;
}

export type ExclusionReason = 'budget' | 'superseded' | 'archived' | 'beyond the bound' | 'unanswered call';

export interface ExplanationRecord {
  id: string;
  included: boolean;
  tier?: number;
  reason: string;
  /** For ranked items (current evidence, verifier dependencies, history): the signal that placed
   * it in the fused order and its rank there, e.g. `bm25 #2`, `action bm25 #1`, `exact path #1`,
   * `recency #4`. */
  signal?: string;
}
