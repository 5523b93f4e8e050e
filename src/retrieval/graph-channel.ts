import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import { personalizedPageRank } from '../rerank/pagerank.js';
import { neighbourhoodSql } from '../sql/retrieval-sql.js';
import { addHit, type ChannelHits } from './channel.js';

export interface GraphResult {
  hits: ChannelHits;
  /** Edges of the neighbourhood (for required-support checks). */
  edges: Array<{ src: number; dst: number; kind: string }>;
}

/**
 * Multi-hop expansion (recursive SQL, both edge directions, `hops` from the seeds) and
 * personalized PageRank over that neighbourhood, restarting at the seeds: the active
 * task/action/claims (weight 1 each) and the first candidates of the exact and lexical channels
 * (weighted by their normalised score). The channel score is the PageRank mass, scaled so the
 * best non-seed record scores 1.
 */
export async function graphChannel(
  engine: Engine,
  epoch: number,
  explicitSeeds: readonly number[],
  candidateSeeds: ReadonlyMap<number, number>,
  hops: number,
): Promise<GraphResult> {
  const hits: ChannelHits = new Map();
  const seeds = new Map<number, number>(candidateSeeds);
  for (const s of explicitSeeds) seeds.set(s, 1);
  if (seeds.size === 0 || hops === 0) return { hits, edges: [] };
  const edges = rowsOf<{ src: number; dst: number; kind: string; src_hop: number; dst_hop: number }>(
    await engine.query(
      neighbourhoodSql(
        epoch,
        [...seeds.keys()].sort((a, b) => a - b),
        hops,
      ),
    ),
  );
  const nodes = [...new Set(edges.flatMap((e) => [e.src, e.dst]))];
  const hop = new Map<number, number>();
  for (const e of edges) {
    hop.set(e.src, Math.min(hop.get(e.src) ?? 99, e.src_hop));
    hop.set(e.dst, Math.min(hop.get(e.dst) ?? 99, e.dst_hop));
  }
  const rank = personalizedPageRank(
    nodes,
    edges.map((e) => [e.src, e.dst] as const),
    seeds,
  );
  const explicit = new Set(explicitSeeds);
  let best = 0;
  for (const [n, r] of rank) if (!explicit.has(n) && r > best) best = r;
  if (best > 0) {
    for (const [n, r] of [...rank].sort((a, b) => a[0] - b[0])) {
      if (explicit.has(n) || r <= 0) continue;
      addHit(hits, n, r / best, `graph: ${hop.get(n) ?? '?'} hop(s) from the seeds, pagerank ${(r / best).toFixed(3)}`);
    }
  }
  return { hits, edges: edges.map((e) => ({ src: e.src, dst: e.dst, kind: e.kind })) };
}
