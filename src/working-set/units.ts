import type { TierAssignment } from './tiers.js';
import type { Candidate, CandidateEdge, Unit } from './types.js';

export interface UnitPlan {
  units: Unit[];
  /** Calls with no result among the candidates: never rendered alone. */
  unanswered: Candidate[];
}

/**
 * Groups candidates into the units packing keeps or drops whole (architecture §2 invariant 1,
 * issue "safe graph cut"):
 * - an action transaction — the action, its tool calls, their results, the revisions it
 *   produced — is one unit while the action is open or anything open outside it depends on a
 *   member (an open task or steering that only `plans` it does not);
 *   once terminal with its dependants closed it may be cut, but each tool call still
 *   stays with its results; the finished current action is cut in two: its thought, and its
 *   calls with their results and its revisions;
 * - a tool call and its results are one unit wherever they appear;
 * - every other node is a unit of its own.
 */
export function buildUnits(
  candidates: ReadonlyMap<number, Candidate>,
  edges: readonly CandidateEdge[],
  tiers: ReadonlyMap<number, TierAssignment>,
  openDependants: ReadonlyMap<number, readonly number[]>,
): UnitPlan {
  const out = (kind: string) => {
    const m = new Map<number, number[]>();
    for (const e of edges) {
      if (e.kind !== kind || !candidates.has(e.src) || !candidates.has(e.dst)) continue;
      const list = m.get(e.src);
      if (list) list.push(e.dst);
      else m.set(e.src, [e.dst]);
    }
    for (const list of m.values()) list.sort((a, b) => a - b);
    return m;
  };
  const invokes = out('invokes');
  const produces = out('produces');
  const mutates = out('mutates');
  // An open task or steering `plans` every action it led to: planning is not depending on what the
  // action did, so it alone does not keep a finished action whole (its tool calls still stay
  // with their results). Pairs joined by another edge too are still dependencies.
  const plansOnly = new Set<number>();
  const otherLinks = new Set<number>();
  for (const e of edges) (e.kind === 'plans' ? plansOnly : otherLinks).add(link(e.src, e.dst));
  for (const l of otherLinks) plansOnly.delete(l);
  const assigned = new Set<number>();
  const units: Unit[] = [];
  const unanswered: Candidate[] = [];
  const get = (nid: number) => candidates.get(nid)!;

  const makeUnit = (key: string, nids: number[], reasoning = false): void => {
    const members = nids.map(get);
    let best = { tier: Number.POSITIVE_INFINITY, reason: '' };
    for (const m of members) {
      const t = tiers.get(m.nid)!;
      if (t.tier < best.tier) best = t;
    }
    const tx = Math.max(...members.map((m) => m.tx));
    units.push({ key, members, tier: best.tier, reason: best.reason, tx, ...(reasoning ? { reasoning: true } : {}) });
    for (const n of nids) assigned.add(n);
  };
  const callGroup = (call: number): number[] => [call, ...(produces.get(call) ?? []).filter((r) => !assigned.has(r))];

  const byRecording = [...candidates.values()].sort((a, b) => a.tx - b.tx || a.nid - b.nid);
  for (const action of byRecording) {
    if (action.kind !== 'action') continue;
    const calls = (invokes.get(action.nid) ?? []).filter((c) => !assigned.has(c) && get(c).kind === 'tool_call');
    const answered = calls.filter((c) => (produces.get(c) ?? []).length > 0);
    for (const c of calls) if (!answered.includes(c)) unanswered.push(get(c));
    const revisions = [...(mutates.get(action.nid) ?? []), ...answered.flatMap((c) => mutates.get(c) ?? [])].filter(
      (r, i, all) => all.indexOf(r) === i && !assigned.has(r),
    );
    const groups = answered.map(callGroup);
    const members = [action.nid, ...groups.flat(), ...revisions];
    const memberSet = new Set(members);
    const dependedOn = members.some((m) =>
      (openDependants.get(m) ?? []).some((d) => !memberSet.has(d) && !plansOnly.has(link(d, m))),
    );
    if (action.status === 'open' || dependedOn) {
      makeUnit(action.id, members);
    } else if (tiers.get(action.nid)!.tier <= 2) {
      // The finished current action (tier 2): its calls, their results and its revisions stay one
      // unit — what the step just saw, every call with its result; its thought is a unit of its
      // own, packed after the ranked evidence (its words are the ranking's focus query: what they
      // point at comes first). Kept whole with its calls, a long thought crowded the very views it
      // was about out of small budgets.
      makeUnit(action.id, [action.nid], true);
      const rest = [...groups.flat(), ...revisions];
      if (rest.length > 0) makeUnit(get(rest[0]!).id, rest);
    } else {
      makeUnit(action.id, [action.nid]);
      for (const g of groups) makeUnit(get(g[0]!).id, g);
      for (const r of revisions) makeUnit(get(r).id, [r]);
    }
    for (const c of calls) assigned.add(c);
  }
  for (const c of byRecording) {
    if (assigned.has(c.nid)) continue;
    if (c.kind === 'tool_call') {
      if ((produces.get(c.nid) ?? []).length === 0) {
        unanswered.push(c);
        assigned.add(c.nid);
      } else makeUnit(c.id, callGroup(c.nid));
    }
  }
  for (const c of byRecording) if (!assigned.has(c.nid)) makeUnit(c.id, [c.nid]);
  return { units, unanswered };
}

/** A (src, dst) pair as one number: nids stay below 2^27 (see edgeTarget), so the pair is exact. */
const link = (src: number, dst: number): number => src * 134_217_728 + dst;
