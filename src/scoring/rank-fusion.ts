/**
 * A channel's ranks (1 = best) of the ids it scores above 0: score descending, then `compareIds`,
 * so equal scores never fall back on the order the ids came in. Pure.
 */
export function rankByScore(
  scored: Iterable<readonly [id: string, score: number]>,
  compareIds: (a: string, b: string) => number,
): Map<string, number> {
  const order = [...scored].filter(([, score]) => score > 0).sort((a, b) => b[1] - a[1] || compareIds(a[0], b[0]));
  return new Map(order.map(([id], i) => [id, i + 1]));
}

export interface RankFusion<C extends string> {
  /** The channels, in the order their shares are summed: a floating-point sum depends on it. */
  channels: readonly C[];
  /** The reciprocal-rank constant: a channel's share is `weights[channel] / (k + rank)`. A small
   * k lets a channel's head count several times its tail; a large one flattens the ranks. */
  k: number;
  weights: Readonly<Record<C, number>>;
  /** Between equal scores. */
  compareIds: (a: string, b: string) => number;
  /** What an id scores before any share (0 when absent): a bonus larger than every sum of shares
   * puts a class of ids ahead of the rest. */
  base?: (id: string) => number;
}

export interface FusedRanks<C extends string> {
  id: string;
  score: number;
  /** Each channel's share of the score (0 where it does not rank the id), in channel order. */
  shares: Record<C, number>;
  /** The channels that rank the id, with their ranks, in channel order. */
  ranks: Partial<Record<C, number>>;
  /** The channel with the largest share (the first of equal ones), null when none ranks the id. */
  best: { channel: C; rank: number } | null;
}

/**
 * Weighted reciprocal-rank fusion: an id scores `base(id) + Σ weight / (k + rank)` over the
 * channels that rank it, summed in channel order; ids no channel ranks score their base. Sorted by
 * score descending, then `compareIds`. Pure and deterministic.
 */
export function fuseRanks<C extends string>(
  ids: Iterable<string>,
  ranks: ReadonlyMap<C, ReadonlyMap<string, number>>,
  fusion: RankFusion<C>,
): Array<FusedRanks<C>> {
  const { channels, k, weights, compareIds, base } = fusion;
  const out: Array<FusedRanks<C>> = [];
  for (const id of ids) {
    let score = base?.(id) ?? 0;
    const shares = {} as Record<C, number>;
    const ranked: Partial<Record<C, number>> = {};
    let best: { channel: C; rank: number; share: number } | null = null;
    for (const channel of channels) {
      const rank = ranks.get(channel)?.get(id);
      if (rank === undefined) {
        shares[channel] = 0;
        continue;
      }
      const share = weights[channel] / (k + rank);
      shares[channel] = share;
      ranked[channel] = rank;
      score += share;
      if (best === null || share > best.share) best = { channel, rank, share };
    }
    out.push({ id, score, shares, ranks: ranked, best: best && { channel: best.channel, rank: best.rank } });
  }
  return out.sort((a, b) => b.score - a.score || compareIds(a.id, b.id));
}
