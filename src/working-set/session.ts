import { costsOf } from './framing.js';
import { extendedRanking, type MaterializeContext, type Ranked, rankedCandidates } from './rank-candidates.js';
import type { ResolvedRequest } from './request.js';
import { type SessionState, type StepInput, sessionAppend, sessionStep } from './session-step.js';
import { STEP_ROWS } from './step-delta.js';

/**
 * Steps between forced re-packs. The session's working set at an epoch is a fold over the
 * ledger's epochs; starting the fold afresh every this many steps bounds what a first call (after
 * a restore, or on a ledger built elsewhere) must recompute, at the price of one re-pack per
 * window — which keeps the head cached.
 */
const REPACK_WINDOW = 64;

/** One step of a fold: its state and the ranking it was built from. */
interface Step {
  state: SessionState;
  ranked: Ranked;
}

/** A fold's steps for one request (every field but the epoch), by step index. */
interface Fold {
  /** The ledger's last transaction when the steps were last checked against it. */
  txSeen: number;
  states: Map<number, Step>;
}

/** Per ledger, per request key: the states of the current window. Derived, never persisted. */
const folds = new WeakMap<object, Map<string, Fold>>();
/** Request keys kept per ledger (a host varying its budget every call must not grow this). */
const MAX_FOLDS = 16;

export function dropSessionFolds(owner: object): void {
  folds.delete(owner);
}

/**
 * The session-mode working set at `req.epoch`: the state of the fold at the last step epoch at or
 * before it, with the ranking it was built from. A step is an epoch some transaction was
 * committed at; step k of the fold is `sessionStep(state k-1, ranking at its epoch)`, re-packed
 * afresh at every multiple of REPACK_WINDOW. A step first tries to append on the previous step's
 * ranking extended by its own transactions (extendedRanking: no closure walked again); only when
 * that cannot be had, or does not fit, does it rank afresh (then appending or re-packing). Steps
 * are cached per ledger and request; a commit at an epoch a cached step covers drops the steps
 * from there on. Every step depends only on the ledger and the request, so a fold started cold
 * gives the same states.
 */
export async function sessionState(
  ctx: MaterializeContext,
  req: ResolvedRequest,
): Promise<{ state: SessionState | null; ranked: Ranked }> {
  const lastTx = ctx.lastTx ?? 0;
  const txEpoch = ctx.txEpoch ?? (() => req.epoch);
  const epochs: number[] = [];
  /** Rows each step's transactions wrote. */
  const written = new Map<number, number>();
  for (let tx = 1; tx <= Math.max(lastTx, 1); tx++) {
    const e = txEpoch(tx);
    if (e === undefined) continue;
    if (!written.has(e)) epochs.push(e);
    written.set(e, (written.get(e) ?? 0) + (ctx.txRows?.(tx) ?? 0));
  }
  epochs.sort((a, b) => a - b);
  // The last step at or before the requested epoch.
  let target = -1;
  for (let k = epochs.length - 1; k >= 0; k--)
    if (epochs[k]! <= req.epoch) {
      target = k;
      break;
    }
  if (target < 0) return { state: null, ranked: await rankedCandidates(ctx, req) };

  const fold = foldFor(ctx, req, lastTx);
  const start = target - (target % REPACK_WINDOW);
  let from = start;
  let last: Step | null = null;
  for (let k = target; k >= start; k--) {
    const s = fold?.states.get(k);
    if (s !== undefined) {
      last = s;
      from = k + 1;
      break;
    }
  }
  for (let k = from; k <= target; k++) {
    const epoch = epochs[k]!;
    const stepReq = { ...req, epoch };
    const input = (ranked: Ranked): StepInput => ({
      ranked,
      epoch,
      budget: req.budget,
      excerpts: req.excerpts,
      idOf: ctx.idOf,
      nidOf: ctx.nidOf,
      countTokens: ctx.countTokens,
      costs: costsOf(ranked, req.framing, ctx.countTokens),
    });
    let step: Step | null = null;
    // A bulk load is no appending step, and a step after a request with no room left for even a
    // reference appends nothing: both rank afresh, from the closure.
    if (
      k !== start &&
      last !== null &&
      written.get(epoch)! <= STEP_ROWS &&
      req.budget.tokens - last.state.tokens >= last.ranked.refCost
    ) {
      const extended = await extendedRanking(ctx, stepReq, last.ranked, last.state.epoch);
      const state = extended === null ? null : sessionAppend(last.state, input(extended));
      if (state !== null) step = { state, ranked: extended! };
    }
    if (step === null) {
      const ranked = await rankedCandidates(ctx, stepReq);
      step = { state: sessionStep(k === start ? null : (last?.state ?? null), input(ranked)), ranked };
    }
    if (fold !== null) {
      // Only the current window is kept.
      if (k === start) for (const key of [...fold.states.keys()]) if (key < start) fold.states.delete(key);
      fold.states.set(k, step);
    }
    last = step;
  }
  return { state: last!.state, ranked: last!.ranked };
}

/** The cached fold for this ledger and request, its states checked against commits since. */
function foldFor(ctx: MaterializeContext, req: ResolvedRequest, lastTx: number): Fold | null {
  const owner = ctx.cacheOwner;
  if (owner === undefined) return null;
  const key = JSON.stringify([req.roots, req.authority, req.hops, req.maxNodes, req.excerpts, req.framing, req.budget]);
  let byKey = folds.get(owner);
  if (byKey === undefined) {
    byKey = new Map();
    folds.set(owner, byKey);
  }
  let fold = byKey.get(key);
  if (fold === undefined) {
    fold = { txSeen: lastTx, states: new Map() };
    byKey.set(key, fold);
    if (byKey.size > MAX_FOLDS) byKey.delete(byKey.keys().next().value!);
  } else {
    // Most recently used last.
    byKey.delete(key);
    byKey.set(key, fold);
  }
  if (lastTx !== fold.txSeen) {
    let changedFrom = Number.POSITIVE_INFINITY;
    for (let tx = fold.txSeen + 1; tx <= lastTx; tx++)
      changedFrom = Math.min(changedFrom, ctx.txEpoch?.(tx) ?? Number.NEGATIVE_INFINITY);
    // A transaction at an epoch a state covers changes that state and every later one.
    for (const [k, s] of fold.states) if (s.state.epoch >= changedFrom) fold.states.delete(k);
    fold.txSeen = lastTx;
  }
  return fold;
}
