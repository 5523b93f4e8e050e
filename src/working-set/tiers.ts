import type { Candidate, CandidateEdge } from './types.js';

export interface TierAssignment {
  tier: number;
  reason: string;
}

const OPEN_WORK_CITES = new Set(['cites', 'requires', 'supported_by', 'depends_on']);
const CITABLE = new Set(['evidence', 'artifact_revision', 'tool_result', 'message']);

/**
 * Ranks each candidate above recency (architecture §3): 0 steering and active tasks → 1 open
 * requirements, unresolved claims and unanswered user requests → 2 the current action transaction → 3 evidence cited by
 * open edits, open requests and failing verifiers (and the failing outcomes) → 4 the current
 * evidence: file ranges still valid (superseded views are already out) → 5 verifier
 * dependencies → 6 the rest by recency. The smallest tier a rule gives wins.
 *
 * Tier 4 and the demotion of "revisions a failing verifier checked" to tier 5 were measured on
 * the replay evaluation (100 real trajectories): with current evidence ranked with the rest of
 * history, 47 of the 61 points of recall lost at 1,000 tokens were gold lines whose best item sat
 * in the recency tier, while reproduction scripts pulled in by the verifier tiers took ~30% of
 * the budget.
 */
export function assignTiers(
  candidates: ReadonlyMap<number, Candidate>,
  edges: readonly CandidateEdge[],
  explicitRoots: ReadonlySet<number>,
  currentActions: ReadonlySet<number>,
): Map<number, TierAssignment> {
  const out = new Map<number, TierAssignment>();
  const give = (nid: number, tier: number, reason: string) => {
    const had = out.get(nid);
    if (!had || tier < had.tier) out.set(nid, { tier, reason });
  };
  const isOpen = (c: Candidate | undefined) => c?.status === 'open';
  const failing = (c: Candidate | undefined) =>
    c?.kind === 'verifier_outcome' && (c.status === 'failed' || c.status === 'error');

  for (const c of candidates.values()) {
    if (c.kind === 'task' && isOpen(c)) give(c.nid, 0, 'active task');
    else if (c.kind === 'steering' && isOpen(c)) give(c.nid, 0, 'steering');
    else if (explicitRoots.has(c.nid) && c.kind !== 'action') give(c.nid, 0, 'requested root');
    if (c.kind === 'claim' && isOpen(c)) give(c.nid, 1, 'unresolved claim');
    if (c.kind === 'message' && isOpen(c) && c.role === 'user') give(c.nid, 1, 'open user request');
    if (currentActions.has(c.nid)) give(c.nid, 2, 'current action');
    // A failing outcome is open work (its message is what the agent must fix); a passing one is
    // a dependency of what it verified.
    if (c.kind === 'verifier_outcome')
      give(c.nid, failing(c) ? 3 : 5, failing(c) ? 'failing verifier' : 'verifier outcome');
    if (c.kind === 'evidence') give(c.nid, 4, 'current evidence');
  }
  for (const e of edges) {
    const src = candidates.get(e.src);
    const dst = candidates.get(e.dst);
    if (!src || !dst) continue;
    if (e.kind === 'requires' && isOpen(src) && dst.status !== 'resolved' && dst.status !== 'terminal') {
      give(dst.nid, 1, 'open requirement');
    }
    if (OPEN_WORK_CITES.has(e.kind) && CITABLE.has(dst.kind)) {
      if (src.kind === 'action' && isOpen(src)) give(dst.nid, 3, 'cited by open edit');
      else if (src.kind === 'message' && isOpen(src) && src.meta?.projection === true)
        give(dst.nid, 3, 'cited by open request');
      else if (failing(src)) give(dst.nid, 3, 'cited by open verifier');
      else if (src.kind === 'verifier_outcome') give(dst.nid, 5, 'verifier dependency');
    }
    if (e.kind === 'verified_by' && dst.kind === 'verifier_outcome') give(src.nid, 5, 'verifier dependency');
  }
  // The current action transaction is its calls, their results and its revisions too.
  const unitEdges = new Set(['invokes', 'produces', 'mutates']);
  let frontier = [...currentActions];
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const e of edges) {
      if (frontier.includes(e.src) && unitEdges.has(e.kind) && candidates.has(e.dst) && out.get(e.dst)?.tier !== 2) {
        give(e.dst, 2, 'current action');
        next.push(e.dst);
      }
    }
    frontier = next;
  }
  for (const c of candidates.values()) give(c.nid, 6, 'recent history');
  return out;
}

/** The current action transaction: open actions, else the most recent action. */
export function currentActions(candidates: ReadonlyMap<number, Candidate>): Set<number> {
  const actions = [...candidates.values()].filter((c) => c.kind === 'action');
  const open = actions.filter((c) => c.status === 'open');
  if (open.length > 0) return new Set(open.map((c) => c.nid));
  const latest = actions.reduce<Candidate | null>(
    (best, c) => (!best || c.tx > best.tx || (c.tx === best.tx && c.nid > best.nid) ? c : best),
    null,
  );
  return new Set(latest ? [latest.nid] : []);
}
