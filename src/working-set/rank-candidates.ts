import type { Engine } from '../engine/engine.js';
import type { NodeRow } from '../schema/rows.js';
import type { BodyCache } from '../text/body-cache.js';
import { Excerpter } from './excerpt.js';
import { extendCandidates } from './extend-candidates.js';
import { type CandidateGraph, loadCandidates } from './load-candidates.js';
import { rankingMemory } from './ranking-memory.js';
import { refText } from './ref-text.js';
import { type Placement, RANKED_FROM_TIER, type RelevanceQuery, rankUnits } from './relevance.js';
import type { ResolvedRequest } from './request.js';
import { type HashedBody, loadStepDelta, type StepLog } from './step-delta.js';
import { assignTiers, currentActions, type TierAssignment } from './tiers.js';
import type { Candidate, Unit } from './types.js';
import { buildUnits } from './units.js';

/** What the materializer needs from a ledger (kept narrow so it stays testable). */
export interface MaterializeContext {
  engine: Engine;
  lastEpoch: number;
  nidOf(id: string): number | undefined;
  idOf(nid: number): string | undefined;
  /** The latest version of a node (the ledger's index). */
  rowOf(nid: number): NodeRow | undefined;
  countTokens(text: string): number;
  /** The ledger's last transaction: with `cacheOwner`, what keys the ranking cache. */
  lastTx?: number;
  /** When given (the ledger itself), the last ranking is kept for it and reused while neither
   * the ledger nor the request (budget aside) changed. */
  cacheOwner?: object;
  /** The epoch of each committed transaction, by number (1 to lastTx): the session mode's steps.
   * Without it the session has one step, the requested epoch. */
  txEpoch?(tx: number): number | undefined;
  /** The nodes, edges and transitions a committed transaction wrote, by number. */
  txRows?(tx: number): number | undefined;
  /** Bodies committed lately, by key: what a session step reads its own bodies from. */
  bodies?: BodyCache<HashedBody>;
  /** The rows of the latest commits: what a session step reads its own rows from. */
  steps?: StepLog;
}

/** Everything the materializer decides before the budget: the closure, tiers, units and the
 * ranked order. Packing is the only step that depends on the budget. */
export interface Ranked {
  graph: CandidateGraph;
  tiers: Map<number, TierAssignment>;
  units: Unit[];
  unanswered: Candidate[];
  coveredBy: Map<number, number[]>;
  /** The relevance order of the ranked units (computed on first read). */
  readonly placement: Map<string, Placement>;
  refCost: number;
  /** Cuts excerpts against this ranking's query (its per-body work shared across budgets). */
  excerpts: Excerpter;
}

/**
 * The latest rankings, keyed by the ledger's state (its last transaction) and every request field
 * but the budget: a host that materializes the same moment at several budgets — a smaller set
 * for a cheaper model, a retry after the provider refused a request, the replay evaluation's
 * budget sweep — pays for the closure and the ranking once. Several epochs are kept while the
 * ledger does not change: the session mode folds over the epochs of a window (see session.ts),
 * once per budget. Read-only once built.
 */
const rankedCache = new WeakMap<object, { lastTx: number | undefined; byKey: Map<string, Promise<Ranked>> }>();
/** Rankings kept per ledger: a session window's epochs. */
const MAX_RANKINGS = 64;

export function dropRankings(owner: object): void {
  rankedCache.delete(owner);
}

/** The closure, tiers, units and ranked order for a request, from the cache when it still holds. */
export function rankedCandidates(ctx: MaterializeContext, req: ResolvedRequest): Promise<Ranked> {
  const owner = ctx.cacheOwner;
  const key = JSON.stringify([req.epoch, req.roots, req.authority, req.hops, req.maxNodes]);
  let cache = owner === undefined ? undefined : rankedCache.get(owner);
  if (cache !== undefined && cache.lastTx !== ctx.lastTx) cache = undefined;
  const hit = cache?.byKey.get(key);
  if (hit !== undefined) return hit;
  const out = rank(ctx, req);
  if (owner !== undefined) {
    if (cache === undefined) {
      cache = { lastTx: ctx.lastTx, byKey: new Map() };
      rankedCache.set(owner, cache);
    }
    const byKey = cache.byKey;
    byKey.set(key, out);
    if (byKey.size > MAX_RANKINGS) byKey.delete(byKey.keys().next().value!);
    // A failed load is not remembered.
    out.catch(() => {
      if (byKey.get(key) === out) byKey.delete(key);
    });
  }
  return out;
}

async function rank(ctx: MaterializeContext, req: ResolvedRequest): Promise<Ranked> {
  return rankGraph(ctx, await loadCandidates(ctx.engine, req, ctx, ctx.lastEpoch));
}

/**
 * The ranking at a session step (`req.epoch`) from the previous step's, at epoch `from`: its
 * candidate graph extended by the step's own transactions (see extendCandidates), then tiered
 * and ranked afresh. Null when only the full closure can say what joins.
 */
export async function extendedRanking(
  ctx: MaterializeContext,
  req: ResolvedRequest,
  prev: Ranked,
  from: number,
): Promise<Ranked | null> {
  if (req.roots !== null || !(req.epoch > from)) return null;
  const delta = await loadStepDelta(ctx.engine, from, req.epoch, ctx);
  const graph = extendCandidates(prev.graph, delta, { from, hops: req.hops, authority: req.authority, idOf: ctx.idOf });
  return graph === null ? null : rankGraph(ctx, graph);
}

function rankGraph(ctx: MaterializeContext, graph: CandidateGraph): Ranked {
  const current = currentActions(graph.candidates);
  const tiers = assignTiers(graph.candidates, graph.edges, graph.explicitRoots, current);
  // Audit and projection records are the ledger's own bookkeeping: they steer ranking (an open
  // projection protects what it cites) but are never shown — no recaps of earlier contexts.
  let shown: ReadonlyMap<number, Candidate> = graph.candidates;
  for (const c of graph.candidates.values())
    if (isLedgerRecord(c)) {
      shown = new Map([...graph.candidates].filter(([, c]) => !isLedgerRecord(c)));
      break;
    }
  const { units, unanswered } = buildUnits(shown, graph.edges, tiers, graph.openDependants);
  const refCost = ctx.countTokens(refText('x'.repeat(24)));
  const coveredBy = carriedBodies(graph, refCost);
  const query = { ...relevanceQuery(shown, tiers), authored: authoredBodies(graph, coveredBy) };
  const memory = rankingMemory(ctx.cacheOwner);
  const excerpts = new Excerpter([query.text, query.focus ?? ''], ctx.countTokens, memory.queryTexts, memory.bodyLines);
  // Ranked when first read: a session step whose own units do not fit re-packs from the closure
  // without it.
  let placement: Map<string, Placement> | undefined;
  return {
    graph,
    tiers,
    units,
    unanswered,
    coveredBy,
    get placement() {
      placement ??= rankUnits(units, query, memory);
      return placement;
    },
    refCost,
    excerpts,
  };
}

/** Bodies other nodes carry once those are packed: nid → the nids that carry it. */
function carriedBodies(graph: CandidateGraph, refCost: number): Map<number, number[]> {
  const coveredBy = new Map<number, number[]>();
  for (const e of graph.edges) {
    const result = graph.candidates.get(e.src);
    if (e.kind !== 'cites' || result?.kind !== 'tool_result' || graph.candidates.get(e.dst)?.kind !== 'evidence')
      continue;
    // An elided output (the tool dropped its middle) holds lines no view carries: its tail.
    if (result.meta?.elided === true) continue;
    coveredBy.set(e.src, [...(coveredBy.get(e.src) ?? []), e.dst]);
  }
  for (const e of graph.edges) {
    // A file written whole by a command (a here-doc, `printf … >`) has its content in the
    // command's own text: shown once, in the call, with the revision a reference to it.
    const call = graph.candidates.get(e.src);
    const rev = graph.candidates.get(e.dst);
    if (e.kind !== 'mutates' || call?.kind !== 'tool_call' || rev?.kind !== 'artifact_revision') continue;
    if (rev.body === null || call.body === null || rev.bodyHash === call.bodyHash || rev.tokens <= refCost) continue;
    if (call.body.includes(rev.body) && !coveredBy.has(rev.nid)) coveredBy.set(rev.nid, [call.nid]);
  }
  for (const [inner, outer] of containedRanges(graph, refCost)) coveredBy.set(inner, [outer]);
  return coveredBy;
}

/** Files the agent wrote whole from its own text, and the commands that wrote them: the revisions
 * carriedBodies found in a command's text, and every call the adapter marked `meta.writesWhole` —
 * the closure does not return a revision a later write superseded, so its command is known by that
 * mark alone. */
function authoredBodies(graph: CandidateGraph, coveredBy: ReadonlyMap<number, readonly number[]>): Set<number> {
  const out = new Set<number>();
  for (const c of graph.candidates.values()) if (c.kind === 'tool_call' && c.meta?.writesWhole === true) out.add(c.nid);
  for (const [nid, carriers] of coveredBy) {
    if (graph.candidates.get(nid)?.kind !== 'artifact_revision') continue;
    out.add(nid);
    for (const c of carriers) out.add(c);
  }
  return out;
}

/**
 * File ranges that a larger view of the same file shows line for line (a `sed -n 40,60p` after a
 * `cat` of the file, the function the agent looked at again): inner nid → the smallest such view.
 * Once that view is packed whole the range shows no line of its own, so it costs a reference —
 * the lines are compared, not assumed from the revision, so the reference is exact.
 */
function containedRanges(graph: CandidateGraph, refCost: number): Map<number, number> {
  const byPath = new Map<string, Candidate[]>();
  for (const c of graph.candidates.values()) {
    if (c.kind !== 'evidence' || c.range === null || c.path === null || c.body === null) continue;
    const views = byPath.get(c.path);
    if (views) views.push(c);
    else byPath.set(c.path, [c]);
  }
  const out = new Map<number, number>();
  const width = (c: Candidate) => c.range![1] - c.range![0];
  for (const views of byPath.values()) {
    if (views.length < 2) continue;
    // Smallest enclosing view first, then the older node: deterministic.
    views.sort((a, b) => width(a) - width(b) || a.nid - b.nid);
    const lines = new Map<number, string[]>();
    const linesOf = (c: Candidate) => lines.get(c.nid) ?? lines.set(c.nid, c.body!.split('\n')).get(c.nid)!;
    for (const inner of views) {
      if (inner.tokens <= refCost) continue;
      const [from, to] = inner.range!;
      const outer = views.find(
        (o) =>
          width(o) > width(inner) &&
          o.range![0] <= from &&
          o.range![1] >= to &&
          linesOf(o)
            .slice(from - o.range![0], to - o.range![0] + 1)
            .join('\n') === inner.body,
      );
      if (outer !== undefined) out.set(inner.nid, outer.nid);
    }
  }
  return out;
}

/** What the ranked tiers are ranked against: the text of the open tasks, steering, unresolved
 * claims and the current action (its thought and commands; tiers 0–2), and the paths open work
 * touches. */
function relevanceQuery(
  shown: ReadonlyMap<number, Candidate>,
  tiers: ReadonlyMap<number, TierAssignment>,
): RelevanceQuery {
  const text: string[] = [];
  const focus: string[] = [];
  const commands = new Set<string>();
  const paths = new Set<string>();
  for (const c of [...shown.values()].sort((a, b) => a.nid - b.nid)) {
    const tier = tiers.get(c.nid)!.tier;
    // Open work's paths, and the files the agent has changed (each path's latest revision is
    // valid): where the next action most likely reads or edits again.
    if (tier < RANKED_FROM_TIER && c.path !== null) paths.add(c.path);
    // A result's output is evidence, not intent: a long test log would otherwise be the query.
    if (c.body === null || c.kind === 'tool_result') continue;
    if (tier <= 2 && c.kind === 'tool_call') commands.add(c.body);
    if (tier < 2) text.push(c.body);
    else if (tier === 2) focus.push(c.body);
  }
  return { text: text.join('\n'), focus: focus.join('\n'), commands, paths };
}

const isLedgerRecord = (c: Candidate): boolean =>
  c.kind === 'message' && (c.meta?.audit === true || c.meta?.projection === true);
