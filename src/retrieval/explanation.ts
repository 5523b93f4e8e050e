import type { ChannelScores, FusedCandidate } from '../rerank/fuse.js';
import type { Selection } from '../rerank/select.js';
import { compareStrings } from '../text/compare.js';
import type { ChannelHits } from './channel.js';
import { CONTRADICTS, type EdgeAdjacency } from './edge-adjacency.js';
import type { ExplanationEntry, RetrievalExplanationCode } from './result.js';
import type { VisibleSet } from './retrieval-index.js';

/**
 * One entry per fused candidate, in fused order: its score, each channel's share and rank, each
 * channel's reason (and whether it supports a required claim), and whether it is included or,
 * as words and a code, why not.
 */
export function explain(
  fused: readonly FusedCandidate[],
  channels: Readonly<Record<keyof ChannelScores, ChannelHits>>,
  nidOf: (id: string) => number,
  kept: ReadonlySet<number>,
  dropped: Selection['dropped'],
  requiredTargets: ReadonlySet<number>,
): ExplanationEntry[] {
  const droppedWhy = new Map(dropped.map((d) => [d.id, d]));
  return fused.map((f): ExplanationEntry => {
    const nid = nidOf(f.id);
    const signals = [
      ...Object.values(channels).flatMap((hits) => (hits.get(nid) ? [hits.get(nid)!.reason] : [])),
      ...(requiredTargets.has(nid) ? ['supports a required claim'] : []),
    ];
    const included = kept.has(nid);
    const drop = droppedWhy.get(f.id);
    const [code, reason]: [RetrievalExplanationCode, string] = included
      ? ['selected', signals.join('; ')]
      : drop
        ? [drop.code, drop.reason]
        : ['not-read', 'ranked below the records read'];
    return {
      id: f.id,
      included,
      reason,
      code,
      score: f.score,
      contributions: f.contributions,
      ranks: f.ranks as Record<string, number>,
      signals,
    };
  });
}

/** `contradicts` edges valid at the epoch between visible records, one end among the selected; by ids. */
export function contradictionsAmong(
  adjacency: EdgeAdjacency,
  visible: VisibleSet,
  epoch: number,
  selected: ReadonlySet<number>,
  idOf: (nid: number) => string | undefined,
): Array<{ from: string; to: string }> {
  const pairs = new Map<string, { from: string; to: string }>();
  for (const n of selected) {
    if (!adjacency.contradicting.has(n)) continue;
    for (let i = adjacency.first(n); i !== -1; i = adjacency.next[i]!) {
      const kd = adjacency.kindDir[i]!;
      const o = adjacency.other[i]!;
      if (kd >> 1 !== CONTRADICTS || adjacency.from[i]! > epoch || visible.nodes[o] !== 1) continue;
      const [src, dst] = (kd & 1) === 1 ? [n, o] : [o, n];
      pairs.set(`${src}>${dst}`, { from: idOf(src)!, to: idOf(dst)! });
    }
  }
  return [...pairs.values()].sort((a, b) => compareStrings(a.from, b.from) || compareStrings(a.to, b.to));
}
