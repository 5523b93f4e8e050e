import type { Engine } from '../engine/engine.js';
import { LedgerError } from '../errors.js';
import { compareStrings } from '../text/compare.js';
import { type CandidateGraph, loadCandidates } from './load-candidates.js';
import { readingOrder } from './order.js';
import { packUnits } from './pack.js';
import { refText } from './ref-text.js';
import { type Placement, RANKED_FROM_TIER, type RelevanceQuery, rankUnits } from './relevance.js';
import { type ResolvedRequest, resolveMaterializeRequest } from './request.js';
import { assignTiers, currentActions, type TierAssignment } from './tiers.js';
import type { Candidate, ExplanationRecord, MaterializeRequest, Unit, WorkingSetItem } from './types.js';
import { buildUnits } from './units.js';
import { WorkingSet } from './working-set.js';

/** What the materializer needs from a ledger (kept narrow so it stays testable). */
export interface MaterializeContext {
  engine: Engine;
  lastEpoch: number;
  nidOf(id: string): number | undefined;
  idOf(nid: number): string | undefined;
  countTokens(text: string): number;
  /** The ledger's last transaction: with `cacheOwner`, what keys the ranking cache. */
  lastTx?: number;
  /** When given (the ledger itself), the last ranking is kept for it and reused while neither
   * the ledger nor the request (budget aside) changed. */
  cacheOwner?: object;
}

/**
 * The smallest evidence-closed working set that fits the budget (architecture §3): closure by
 * recursive SQL from the roots, tiers above recency, whole units packed tier by tier, each body
 * once, and an explanation record for every candidate.
 */
export async function materialize(ctx: MaterializeContext, request: MaterializeRequest): Promise<WorkingSet> {
  const req = resolveMaterializeRequest(request, ctx.lastEpoch);
  if (req.roots) {
    req.roots.forEach((id, i) => {
      if (ctx.nidOf(id) === undefined) throw new LedgerError('UNKNOWN_NODE', { field: `roots[${i}]`, id });
    });
  }
  const { graph, tiers, units, unanswered, coveredBy, placement, refCost } = await ranked(ctx, req);
  const { included, excluded } = packUnits(units, req.budget, refCost, coveredBy, placement);
  const includedNids = new Set(included.flatMap((u) => u.members.map((m) => m.nid)));

  // Each body once: the first item in reading order carries it, later ones refer to it.
  const items: WorkingSetItem[] = [];
  const carrier = new Map<string, string>();
  for (const { member: m, unit } of readingOrder(included, graph.edges)) {
    const item: WorkingSetItem = {
      id: m.id,
      kind: m.kind,
      tier: unit.tier,
      tokens: 0,
      tx: m.tx,
      authority: m.authority,
      unit: unit.key,
    };
    const evidence = coveredBy.get(m.nid);
    if (m.bodyHash !== null && evidence?.every((e) => includedNids.has(e)) && m.tokens > refCost) {
      // A file view whose lines the working set already shows as exact evidence, or a file
      // revision whose content the command that wrote it shows.
      item.ref = ctx.idOf(Math.min(...evidence))!;
      item.tokens = refCost;
    } else if (m.bodyHash !== null) {
      const first = carrier.get(m.bodyHash);
      if (first !== undefined && m.tokens > refCost) {
        item.ref = first;
        item.tokens = Math.min(m.tokens, refCost);
      } else {
        if (first === undefined) carrier.set(m.bodyHash, m.id);
        item.body = m.body ?? '';
        item.tokens = m.tokens;
      }
    }
    if (m.status !== null) item.status = m.status;
    if (m.path !== null) item.path = m.path;
    if (m.revision !== null) item.revision = m.revision;
    // A copy: the candidate is shared with later calls through the ranking cache.
    if (m.range !== null) item.range = [m.range[0], m.range[1]];
    if (m.verifier !== null) item.verifier = m.verifier;
    if (m.tool !== null) item.tool = m.tool;
    if (m.role !== null) item.role = m.role;
    items.push(item);
  }

  const explanation: ExplanationRecord[] = [];
  const unitReason = new Map(included.map((u) => [u.key, u.reason]));
  for (const item of items) {
    const own = tiers.get(ctx.nidOf(item.id)!)!;
    const reason = own.tier === item.tier ? own.reason : `kept with ${item.unit} (${unitReason.get(item.unit)})`;
    explanation.push({
      id: item.id,
      included: true,
      tier: item.tier,
      reason: item.ref ? `${reason}; body shared with ${item.ref}` : reason,
      ...signalOf(placement.get(item.unit)),
    });
  }
  const out: ExplanationRecord[] = [];
  for (const unit of excluded) {
    for (const m of unit.members)
      out.push({
        id: m.id,
        included: false,
        tier: unit.tier,
        reason: `budget (${tiers.get(m.nid)!.reason})`,
        ...signalOf(placement.get(unit.key)),
      });
  }
  for (const c of unanswered)
    out.push({
      id: c.id,
      included: false,
      tier: tiers.get(c.nid)!.tier,
      reason: 'unanswered call: a call is never shown without its result',
    });
  for (const b of graph.beyondBound) out.push({ id: b.id, included: false, reason: 'beyond the bound' });
  for (const c of graph.closed) {
    out.push({
      id: c.id,
      included: false,
      reason: c.reason === 'archived' ? 'archived' : `superseded${c.by ? ` by ${c.by}` : ''} at epoch ${c.closedAt}`,
    });
  }
  out.sort((a, b) => compareStrings(a.id, b.id));
  explanation.push(...out);

  return new WorkingSet({
    epoch: req.epoch,
    items,
    tokens: items.reduce((n, i) => n + i.tokens, 0),
    budget: {
      tokens: req.budget.tokens,
      ...(request.budget.records === undefined ? {} : { records: req.budget.records }),
      ...(request.budget.chars === undefined ? {} : { chars: req.budget.chars }),
    },
    graphTruncated: graph.graphTruncated,
    explanation,
  });
}

/** Everything the materializer decides before the budget: the closure, tiers, units and the
 * ranked order. Packing is the only step that depends on the budget. */
interface Ranked {
  graph: CandidateGraph;
  tiers: Map<number, TierAssignment>;
  units: Unit[];
  unanswered: Candidate[];
  coveredBy: Map<number, number[]>;
  placement: Map<string, Placement>;
  refCost: number;
}

/**
 * The last ranking, keyed by the ledger's state (its last transaction) and every request field
 * but the budget: a host that materializes the same moment at several budgets — a smaller set
 * for a cheaper model, a retry after the provider refused a request, the replay evaluation's
 * budget sweep — pays for the closure and the ranking once. Read-only once built.
 */
const rankedCache = new WeakMap<object, { key: string; ranked: Promise<Ranked> }>();

function ranked(ctx: MaterializeContext, req: ResolvedRequest): Promise<Ranked> {
  const owner = ctx.cacheOwner;
  const key = JSON.stringify([ctx.lastTx, req.epoch, req.roots, req.authority, req.hops, req.maxNodes]);
  const hit = owner === undefined ? undefined : rankedCache.get(owner);
  if (hit?.key === key) return hit.ranked;
  const out = rank(ctx, req);
  if (owner !== undefined) {
    rankedCache.set(owner, { key, ranked: out });
    // A failed load is not remembered.
    out.catch(() => {
      if (rankedCache.get(owner)?.ranked === out) rankedCache.delete(owner);
    });
  }
  return out;
}

async function rank(ctx: MaterializeContext, req: ResolvedRequest): Promise<Ranked> {
  const graph = await loadCandidates(ctx.engine, req, ctx.nidOf, ctx.idOf, ctx.lastEpoch);
  const current = currentActions(graph.candidates);
  const tiers = assignTiers(graph.candidates, graph.edges, graph.explicitRoots, current);
  // Audit and projection records are the ledger's own bookkeeping: they steer ranking (an open
  // projection protects what it cites) but are never shown — no recaps of earlier contexts.
  const shown = new Map([...graph.candidates].filter(([, c]) => !isLedgerRecord(c)));
  const { units, unanswered } = buildUnits(shown, graph.edges, tiers, graph.openDependants);
  const refCost = ctx.countTokens(refText('x'.repeat(24)));
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
  const placement = rankUnits(units, relevanceQuery(shown, tiers));
  return { graph, tiers, units, unanswered, coveredBy, placement, refCost };
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

/** The signal that placed a ranked unit, and its rank in that channel. */
const signalOf = (p: Placement | undefined): { signal?: string } =>
  p === undefined ? {} : { signal: `${p.signal} #${p.signalRank}` };

const isLedgerRecord = (c: Candidate): boolean =>
  c.kind === 'message' && (c.meta?.audit === true || c.meta?.projection === true);
