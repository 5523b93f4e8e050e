import { LedgerError } from '../errors.js';
import { buildItems } from './build-items.js';
import { explain } from './explain.js';
import { explainSession } from './explain-session.js';
import { costsOf } from './framing.js';
import { packUnits } from './pack.js';
import { type MaterializeContext, rankedCandidates } from './rank-candidates.js';
import { type ResolvedRequest, resolveMaterializeRequest } from './request.js';
import { sessionState } from './session.js';
import type { MaterializeRequest } from './types.js';
import { WorkingSet, type WorkingSetData } from './working-set.js';

export type { MaterializeContext } from './rank-candidates.js';

/**
 * The smallest evidence-closed working set that fits the budget (architecture §3), by operation:
 * rank (closure by recursive SQL from the roots, tiers, units, relevance order; cached across
 * budgets), pack (whole units tier by tier into the budget, then excerpts of ranked units left
 * out into what remains), build the items (each body once, in reading order) and explain every
 * candidate.
 */
export async function materialize(ctx: MaterializeContext, request: MaterializeRequest): Promise<WorkingSet> {
  const req = resolveMaterializeRequest(request, ctx.lastEpoch);
  if (req.roots) {
    req.roots.forEach((id, i) => {
      if (ctx.nidOf(id) === undefined) throw new LedgerError('UNKNOWN_NODE', { field: `roots[${i}]`, id });
    });
  }
  if (req.mode === 'session') return materializeSession(ctx, req);
  const ranked = await rankedCandidates(ctx, req);
  const costs = costsOf(ranked, req.framing, ctx.countTokens);
  const { included, excluded, excerpts } = packUnits(
    ranked.units,
    req.budget,
    costs.refCost,
    ranked.coveredBy,
    ranked.placement,
    req.excerpts ? ranked.excerpts : undefined,
    costs.frame,
  );
  const items = buildItems(included, excerpts, ranked, ctx.idOf, undefined, costs);
  return new WorkingSet({
    epoch: req.epoch,
    items,
    tokens: items.reduce((n, i) => n + i.tokens, 0),
    budget: budgetOf(req),
    graphTruncated: ranked.graph.graphTruncated,
    explanation: () => explain(items, included, excluded, ranked, ctx.nidOf),
  });
}

/**
 * The session mode (the default): the state of the session fold at the epoch (see session.ts),
 * explained against the ranking it was built from.
 */
async function materializeSession(ctx: MaterializeContext, req: ResolvedRequest): Promise<WorkingSet> {
  const { state, ranked } = await sessionState(ctx, req);
  const items = state?.items ?? [];
  return new WorkingSet({
    epoch: req.epoch,
    items,
    tokens: state?.tokens ?? 0,
    budget: budgetOf(req),
    graphTruncated: ranked.graph.graphTruncated,
    ...(state === null
      ? {}
      : { session: { step: state.repacked ? 'repack' : 'append', repackedAt: state.repackedAt, kept: state.kept } }),
    explanation: () =>
      state === null
        ? explain([], [], ranked.units, ranked, ctx.nidOf)
        : explainSession(state, ranked, req.budget.tokens, ctx.nidOf),
  });
}

function budgetOf(req: ResolvedRequest): WorkingSetData['budget'] {
  return {
    tokens: req.budget.tokens,
    ...(req.given.records ? { records: req.budget.records } : {}),
    ...(req.given.chars ? { chars: req.budget.chars } : {}),
  };
}
