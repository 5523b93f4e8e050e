import type { CandidateGraph } from './load-candidates.js';
import type { StepDelta } from './step-delta.js';
import type { Candidate, CandidateEdge } from './types.js';

export interface ExtendOptions {
  /** The previous step's epoch: what the delta starts after. */
  from: number;
  hops: number;
  authority: readonly string[] | null;
  idOf(nid: number): string | undefined;
}

const ROOT_KINDS: ReadonlySet<string> = new Set(['task', 'steering', 'claim', 'action']);
const UNIT_KINDS: ReadonlySet<string> = new Set(['invokes', 'produces', 'mutates']);

/** A default root of the closure (see defaultRootsSql): open tasks, steering, claims, actions,
 * user messages and request projections. */
const isRoot = (c: Candidate): boolean =>
  c.status === 'open' &&
  (ROOT_KINDS.has(c.kind) || (c.kind === 'message' && (c.role === 'user' || c.meta?.projection === true)));

/**
 * The candidate graph of a session step, as the previous step's graph extended by the step's own
 * transactions, instead of the closure walked again (an appending step reads the step's rows, not
 * the graph): what the step closed leaves (listed as closed when it was a candidate), a
 * candidate's new version replaces it, and the step's new nodes join as the walk would reach them
 * — the new roots at hop 0, then along the step's edges from walked candidates within the hop
 * bound — with their units completed. The walk's other bounds are not re-run: what the last full
 * closure reached stays, and nodes it did not reach stay out.
 *
 * Null when the step reaches past what the previous graph holds — an edge from a walked
 * candidate, or a unit edge from a candidate, to an older node that is not a candidate; an older
 * node that becomes a root or opens; a closed edge — and only the full closure can tell what
 * joins. Pure and deterministic.
 */
export function extendCandidates(prev: CandidateGraph, delta: StepDelta, opts: ExtendOptions): CandidateGraph | null {
  if (delta.edgesClosed > 0) return null;
  const visible = (authority: string) => opts.authority === null || opts.authority.includes(authority);
  const candidates = new Map(prev.candidates);
  const openDependants = new Map(prev.openDependants);
  /** Nodes no longer open (or gone) that open-dependant lists must drop. */
  const notOpen = new Set<number>();

  const closedNow = new Set<number>();
  const closed = [...prev.closed];
  /** Ids no longer valid: the beyond-bound list drops them (they are out as closed, not as cut). */
  const closedIds = new Set(closed.map((c) => c.id));
  for (const k of delta.closed) {
    const wasCandidate = candidates.delete(k.nid);
    closedNow.add(k.nid);
    notOpen.add(k.nid);
    openDependants.delete(k.nid);
    const id = opts.idOf(k.nid) ?? String(k.nid);
    if (!visible(k.authority) || closedIds.has(id)) continue;
    closedIds.add(id);
    if (wasCandidate)
      closed.push({ id, reason: k.reason, closedAt: k.closedAt, by: k.by === null ? null : (opts.idOf(k.by) ?? null) });
  }
  closed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  /** The step's new nodes, not yet reached. */
  const pending = new Map<number, Candidate>();
  for (const { candidate: c, fresh } of delta.versions) {
    if (!fresh) {
      // A new version of an older node: a status change.
      const had = candidates.get(c.nid);
      if (had !== undefined) candidates.set(c.nid, { ...c, hop: had.hop });
      if (c.status === 'open') return null;
      notOpen.add(c.nid);
      if (had === undefined && visible(c.authority) && isRoot(c)) return null;
      continue;
    }
    if (visible(c.authority)) pending.set(c.nid, c);
  }

  // The roots among the new nodes, then the walk along the step's edges, level by level.
  const join = (c: Candidate, hop: number) => {
    pending.delete(c.nid);
    candidates.set(c.nid, { ...c, hop });
  };
  const anyOpenAction =
    [...candidates.values()].some((c) => c.kind === 'action' && c.status === 'open') ||
    [...pending.values()].some((c) => c.kind === 'action' && c.status === 'open');
  let latestAction: Candidate | null = null;
  for (const c of pending.values()) {
    if (isRoot(c)) join(c, 0);
    else if (
      !anyOpenAction &&
      c.kind === 'action' &&
      (latestAction === null || c.tx > latestAction.tx || (c.tx === latestAction.tx && c.nid > latestAction.nid))
    )
      latestAction = c;
  }
  if (latestAction !== null) join(latestAction, 0);
  const edges = delta.edges.filter((e) => !closedNow.has(e.src) && !closedNow.has(e.dst));
  // Breadth first, so each new node joins at its smallest hop.
  for (let hop = 0; hop < opts.hops; hop++) {
    for (const e of edges) {
      const dst = pending.get(e.dst);
      if (dst !== undefined && candidates.get(e.src)?.hop === hop) join(dst, hop + 1);
    }
  }
  // Units completed, as the closure completes them: forward along invokes, produces and
  // mutates, backward along invokes and produces.
  for (let changed = true; changed; ) {
    changed = false;
    for (const e of edges) {
      if (!UNIT_KINDS.has(e.kind)) continue;
      const ends: Array<[number, number]> =
        e.kind === 'mutates'
          ? [[e.src, e.dst]]
          : [
              [e.src, e.dst],
              [e.dst, e.src],
            ];
      for (const [from, to] of ends) {
        if (!candidates.has(from) || candidates.has(to)) continue;
        const c = pending.get(to);
        // An older node the graph does not hold: only the full closure knows its unit.
        if (c === undefined && isOlderNode(to, delta, prev)) return null;
        if (c === undefined) continue;
        join(c, Number.POSITIVE_INFINITY);
        changed = true;
      }
    }
  }
  // The walk would go on from a walked candidate into an older node it did not hold.
  for (const e of edges) {
    const src = candidates.get(e.src);
    if (src !== undefined && src.hop < opts.hops && !candidates.has(e.dst) && !pending.has(e.dst)) {
      if (isOlderNode(e.dst, delta, prev)) return null;
    }
  }

  // Edges among candidates, and open nodes' edges into them.
  const inner: CandidateEdge[] = prev.edges.filter((e) => candidates.has(e.src) && candidates.has(e.dst));
  for (const [dst, srcs] of openDependants) {
    const kept = srcs.filter((s) => !notOpen.has(s));
    if (kept.length !== srcs.length) openDependants.set(dst, kept);
  }
  for (const e of edges) {
    if (!candidates.has(e.dst)) continue;
    if (candidates.has(e.src)) inner.push({ src: e.src, dst: e.dst, kind: e.kind });
    if (e.source?.status === 'open' && visible(e.source.authority)) {
      const list = openDependants.get(e.dst);
      openDependants.set(e.dst, list === undefined ? [e.src] : [...list, e.src]);
    }
  }
  for (const [dst, srcs] of openDependants) if (srcs.length === 0 || !candidates.has(dst)) openDependants.delete(dst);

  const beyond = () => prev.beyondBound.filter((id) => !closedIds.has(id));
  let named: string[] | undefined;
  return {
    candidates,
    edges: inner,
    openDependants,
    explicitRoots: prev.explicitRoots,
    get beyondBound() {
      named ??= beyond();
      return named;
    },
    closed,
    graphTruncated: prev.graphTruncated,
  };
}

/** True when `nid` is an older node the previous graph does not hold (the step's own nodes that did
 * not join are out of scope or unreached; the nodes it closed are gone). */
function isOlderNode(nid: number, delta: StepDelta, prev: CandidateGraph): boolean {
  if (prev.candidates.has(nid)) return false;
  return !delta.versions.some((v) => v.candidate.nid === nid) && !delta.closed.some((k) => k.nid === nid);
}
