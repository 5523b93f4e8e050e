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
  /**
   * `'session'` (the default): the working set of an agent loop that materializes after each
   * step, cache-stable from one step to the next — tasks and steering first, then what earlier
   * steps showed, byte-identical and in the order it was shown, then what this step adds (its
   * action, the open work it brings in, and what the action's own words and paths rank). When the
   * budget would overflow, the set is re-packed by relevance down to half the budget so that the
   * following steps append again. The set at an epoch is a function of the ledger's history up to
   * it (a fold over its epochs, re-packed at least every 64 steps), so the same ledger and request
   * give the same bytes, after a restore too. It costs a fraction of `'fresh'` with a prompt cache
   * on: see docs/guide/working-sets.md, "Prompt caching".
   * `'fresh'`: the one-shot ranking of this moment alone, filled to the budget and in reading
   * order (path and line, then the action log): for one-off looks (the explorer, the CLI's
   * `materialize`), and more recall at tight budgets when nothing is cached.
   */
  mode?: 'session' | 'fresh';
  /**
   * What the budget counts of each item. `'none'` (the default): its body, its excerpt or its
   * reference to a body shown elsewhere. `'messages'`: the item as `toMessages('openai')` renders
   * it, counted the way the framework integrations count a prompt (message texts, tool names,
   * tool inputs as JSON arguments, tool outputs): a context item's header line (`[id] kind
   * path…`) and the blank line after it, a tool call's name and its input JSON-escaped, a tool
   * result's tool name, `(action)` for an action with no thought. Each item's `tokens` includes
   * that, so the set's `tokens` is about what its rendering says: a host sending the rendering
   * within a limit asks for that limit, rather than for less by a reserve learnt as renderings
   * overflow (a budget that changes starts another session fold and breaks the cached prefix).
   * Items are counted one by one; the rendering joins some texts (a context turn's items, a
   * header and its body), whose count a tokenizer can make a token or so off their sum, so a host
   * with a hard limit still checks the rendering.
   */
  framing?: 'none' | 'messages';
  /** Authority scopes the working set may draw from; default: every scope. */
  authority?: readonly string[];
  /** Closure bounds (defaults 6 hops, 128 nodes per hop level: when more are reachable at a level,
   * the newest 128 are walked on and the rest explained as `beyond the bound`). */
  hops?: number;
  maxNodes?: number;
  /** The budget whole units leave may go to excerpts of the ranked tool outputs and file ranges
   * that did not fit whole (their lines relevant to the task and the current action; the rest
   * elided, by marker lines naming the node). Default true; false packs whole bodies only. */
  excerpts?: boolean;
}

/** What the budget counts of each item (see `MaterializeRequest.framing`). */
export type Framing = NonNullable<MaterializeRequest['framing']>;

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
  /** The finished current action's own reasoning (its thought), a unit apart from its calls and
   * results: packed after the evidence the relevance ranking placed (see packUnits). */
  reasoning?: true;
}

/** Some lines of a stored body: 1-based inclusive line ranges, ascending and disjoint. */
export interface Excerpt {
  /** The kept lines, joined by newlines: line for line the stored body's lines at `lines`. */
  body: string;
  lines: Array<[number, number]>;
  /** Line count of the stored body. */
  of: number;
  /** Tokens of the rendered excerpt (kept lines and elision markers). */
  tokens: number;
}

/** Cuts tool outputs to excerpts (see Excerpter). */
export interface Excerpts {
  /** The output's relevant lines within `maxTokens` rendered, or null when none fits. */
  cut(member: Candidate, maxTokens: number): Excerpt | null;
  /** The output with every line elided: only the marker naming it. */
  elided(member: Candidate): Excerpt;
}

/** One record of a working set, in reading order. */
export interface WorkingSetItem {
  id: string;
  kind: NodeKind;
  tier: number;
  tokens: number;
  tx: number;
  /** Present when this item carries the body (or, with `excerpt`, some of its lines)… */
  body?: string;
  /** …otherwise the id of the item that carries the same body. */
  ref?: string;
  /** Present when `body` holds only some lines of the stored body (a tool output that did not fit
   * whole, cut to its lines relevant to the task and the current action): the 1-based inclusive
   * line ranges it holds, ascending, and the stored body's line count. `body` is those lines
   * joined by newlines; the rest are elided (rendered as markers naming this item's id, whose
   * stored body holds them). */
  excerpt?: { lines: Array<[number, number]>; of: number };
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
  /** Present on a notice: an item the session mode appends when something it showed earlier (and
   * keeps, byte-identical, in the cached prefix) stopped being current — superseded, archived or
   * changed status. `of` names that item; `body` is the notice's text. A notice is no node: its
   * `id` is `of` followed by `#` and what happened, and it is never cited. */
  notice?: { of: string; reason: 'superseded' | 'archived' | 'status' };
}

/**
 * Why a working-set candidate is in or out, as a code; `selected` and `budget` mean what they
 * mean in retrieval's explanation. In: `selected` (its own tier placed it), `kept-with-unit` (kept
 * with the call, result or action it belongs to), `kept-in-prefix` (session mode: shown earlier and
 * kept byte-identical in the cached prefix, though the closure no longer reaches it, it is no
 * longer current, or a re-pack's low watermark left it out while the items after it kept it), `notice` (session mode: says an earlier item is no longer current). Out:
 * `budget`, `held-out` (session mode: not added between re-packs), `unanswered-call` (a call
 * without its result), `beyond-bound` (past the closure's hop or node bound), `superseded`,
 * `archived`.
 */
export type WorkingSetExplanationCode =
  | 'selected'
  | 'kept-with-unit'
  | 'kept-in-prefix'
  | 'notice'
  | 'budget'
  | 'held-out'
  | 'unanswered-call'
  | 'beyond-bound'
  | 'superseded'
  | 'archived';

/** Why one candidate is in the working set or out of it. */
export interface ExplanationRecord {
  id: string;
  included: boolean;
  tier?: number;
  /** Why, in words. */
  reason: string;
  /** Why, as a stable code. */
  code: WorkingSetExplanationCode;
  /** For ranked items (current evidence, verifier dependencies, history): the signal that placed
   * it in the fused order and its rank there, e.g. `bm25 #2`, `action bm25 #1`, `exact path #1`,
   * `recency #4`. */
  signal?: string;
}
