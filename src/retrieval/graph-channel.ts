import { personalizedPageRank } from '../rerank/pagerank.js';
import { compareStrings } from '../text/compare.js';
import { addHit, type ChannelHits } from './channel.js';
import { type EdgeAdjacency, edgeKindOf, SUPERSEDES } from './edge-adjacency.js';
import type { VisibleSet } from './retrieval-index.js';

export interface GraphResult {
  hits: ChannelHits;
  /** Edges of the neighbourhood (for required-support checks), by (src, dst, kind). */
  edges: Array<{ src: number; dst: number; kind: string }>;
}

/**
 * A record with more edges than this is walked to but not through, unless it is an explicit seed
 * (the task, action or a claim the caller named). Through a node of degree d personalized PageRank
 * passes each neighbour at most 1/d of the node's mass: past a few hundred that is too little to
 * lift a record into a channel's top list, while expanding the hub (a task that plans every
 * action) made the walk the whole ledger and most of a retrieval's time.
 */
const HUB_DEGREE = 256;

/**
 * Visible edges within `hops` of the seeds, both directions: a breadth-first walk over the
 * commit-maintained adjacency that enters only records visible at the epoch (an out-of-scope or
 * superseded record carries no walk), skips `supersedes` edges (history, not relevance) and does
 * not pass through hubs (HUB_DEGREE) other than `expandAlways`; then every edge between walked
 * records. Pure.
 */
function neighbourhood(
  adjacency: EdgeAdjacency,
  visible: VisibleSet,
  epoch: number,
  seeds: readonly number[],
  hops: number,
  expandAlways: ReadonlySet<number> = new Set(),
): { hop: Map<number, number>; edges: Array<{ src: number; dst: number; kind: string }> } {
  const { next, other, kindDir, from } = adjacency;
  const usable = (i: number) => from[i]! <= epoch && kindDir[i]! >> 1 !== SUPERSEDES;
  const hop = new Map<number, number>();
  const closed = (n: number) => adjacency.degree[n]! > HUB_DEGREE && !expandAlways.has(n);
  let frontier = [...new Set(seeds)].filter((n) => visible.nodes[n] === 1).sort((a, b) => a - b);
  for (const s of frontier) hop.set(s, 0);
  for (let h = 1; h <= hops && frontier.length > 0; h++) {
    const reached: number[] = [];
    for (const n of frontier) {
      if (closed(n)) continue;
      for (let i = adjacency.first(n); i !== -1; i = next[i]!) {
        const o = other[i]!;
        if (!usable(i) || visible.nodes[o] !== 1 || hop.has(o)) continue;
        hop.set(o, h);
        reached.push(o);
      }
    }
    frontier = reached.sort((a, b) => a - b);
  }
  // Each edge between walked records once: from its source's list, except that a hub's list (as
  // long as the task that plans every action) is not read for its edges to other records: those
  // are taken from the other record's list. Only two walked hubs need a hub's list, for the edges
  // between them.
  const walked = [...hop.keys()];
  const hubs = walked.filter(closed).length;
  const edges: Array<{ src: number; dst: number; kind: string }> = [];
  for (const n of walked) {
    const hub = closed(n);
    if (hub && hubs < 2) continue;
    for (let i = adjacency.first(n); i !== -1; i = next[i]!) {
      const o = other[i]!;
      if (!usable(i) || !hop.has(o)) continue;
      const source = (kindDir[i]! & 1) === 1;
      if (hub ? !source || !closed(o) : !(closed(o) || source)) continue;
      edges.push(
        source ? { src: n, dst: o, kind: edgeKindOf(kindDir[i]!) } : { src: o, dst: n, kind: edgeKindOf(kindDir[i]!) },
      );
    }
  }
  edges.sort((a, b) => a.src - b.src || a.dst - b.dst || compareStrings(a.kind, b.kind));
  return { hop, edges };
}

/**
 * Multi-hop expansion (`hops` from the seeds, both edge directions) and personalized PageRank
 * over that neighbourhood, restarting at the seeds: the active task/action/claims (weight 1
 * each) and the first candidates of the exact and lexical channels (weighted by their normalised
 * score). The channel score is the PageRank mass, scaled so the best non-seed record scores 1;
 * like every channel it contributes its best `limit` records (a two-hop neighbourhood of a busy
 * task holds thousands, and ranking them all for fusion cost more than the rest of a retrieval).
 */
export function graphChannel(
  adjacency: EdgeAdjacency,
  visible: VisibleSet,
  epoch: number,
  explicitSeeds: readonly number[],
  candidateSeeds: ReadonlyMap<number, number>,
  hops: number,
  limit: number,
): GraphResult {
  const hits: ChannelHits = new Map();
  const seeds = new Map<number, number>(candidateSeeds);
  for (const s of explicitSeeds) seeds.set(s, 1);
  if (seeds.size === 0 || hops === 0) return { hits, edges: [] };
  const { hop, edges } = neighbourhood(adjacency, visible, epoch, [...seeds.keys()], hops, new Set(explicitSeeds));
  const nodes = [...new Set(edges.flatMap((e) => [e.src, e.dst]))];
  const rank = personalizedPageRank(
    nodes,
    edges.map((e) => [e.src, e.dst] as const),
    seeds,
  );
  const explicit = new Set(explicitSeeds);
  let best = 0;
  for (const [n, r] of rank) if (!explicit.has(n) && r > best) best = r;
  if (best > 0) {
    const top = [...rank]
      .filter(([n, r]) => !explicit.has(n) && r > 0)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit);
    for (const [n, r] of top.sort((a, b) => a[0] - b[0]))
      addHit(hits, n, r / best, `graph: ${hop.get(n) ?? '?'} hop(s) from the seeds, pagerank ${(r / best).toFixed(3)}`);
  }
  return { hits, edges };
}
