import { costsOf } from './framing.js';
import { type MaterializeContext, type Ranked, rankedCandidates } from './rank-candidates.js';
import type { ResolvedRequest } from './request.js';
import { type SessionState, sessionStep } from './session-step.js';

/**
 * Steps between forced re-packs. The session's working set at an epoch is a fold over the
 * ledger's epochs; starting the fold afresh every this many steps bounds what a first call (after
 * a restore, or on a ledger built elsewhere) must recompute, at the price of one re-pack per
 * window — which keeps the head cached.
 */
const REPACK_WINDOW = 64;

/** A fold's states for one request (every field but the epoch), by step index. */
interface Fold {
  /** The ledger's last transaction when the states were last checked against it. */
  txSeen: number;
  states: Map<number, SessionState>;
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
 * afresh at every multiple of REPACK_WINDOW. States are cached per ledger and request; a commit at
 * an epoch a cached state covers drops the states from there on.
 */
export async function sessionState(
  ctx: MaterializeContext,
  req: ResolvedRequest,
): Promise<{ state: SessionState | null; ranked: Ranked }> {
  const lastTx = ctx.lastTx ?? 0;
  const txEpoch = ctx.txEpoch ?? (() => req.epoch);
  const epochs: number[] = [];
  const seen = new Set<number>();
  for (let tx = 1; tx <= Math.max(lastTx, 1); tx++) {
    const e = txEpoch(tx);
    if (e !== undefined && !seen.has(e)) {
      seen.add(e);
      epochs.push(e);
    }
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
  let prev: SessionState | null = null;
  for (let k = target; k >= start; k--) {
    const s = fold?.states.get(k);
    if (s !== undefined) {
      prev = s;
      from = k + 1;
      break;
    }
  }
  let ranked: Ranked | null = null;
  for (let k = from; k <= target; k++) {
    const epoch = epochs[k]!;
    ranked = await rankedCandidates(ctx, { ...req, epoch });
    prev = sessionStep(k === start ? null : prev, {
      ranked,
      epoch,
      budget: req.budget,
      excerpts: req.excerpts,
      idOf: ctx.idOf,
      nidOf: ctx.nidOf,
      countTokens: ctx.countTokens,
      costs: costsOf(ranked, req.framing, ctx.countTokens),
    });
    if (fold !== null) {
      // Only the current window is kept.
      if (k === start) for (const key of [...fold.states.keys()]) if (key < start) fold.states.delete(key);
      fold.states.set(k, prev);
    }
  }
  ranked ??= await rankedCandidates(ctx, { ...req, epoch: epochs[target]! });
  return { state: prev, ranked };
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
    for (const [k, s] of fold.states) if (s.epoch >= changedFrom) fold.states.delete(k);
    fold.txSeen = lastTx;
  }
  return fold;
}
