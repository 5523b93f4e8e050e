import { compareStrings } from '../text/compare.js';

/** Per-channel scores of one candidate (0 when the channel did not find it). */
export interface ChannelScores {
  exact: number;
  lexical: number;
  vector: number;
  graph: number;
  /** BM25 among the records dated as the question asks (0 when it names no date). */
  temporal: number;
}
export const CHANNELS = ['exact', 'lexical', 'vector', 'graph', 'temporal'] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * Explicit fusion weights. Exact matches additionally dominate: see `fuse`. The lexical and graph
 * channels weigh the same and K is small (a first rank counts ~3× a tenth): a large K with a
 * lighter graph weight ranked the graph channel's multi-hop finds below lexical near-misses on
 * both LoCoMo and MuSiQue (docs/evaluation/experiments.md).
 */
export const FUSION_WEIGHTS: Readonly<Record<Channel, number>> = {
  exact: 4,
  lexical: 1,
  vector: 0.6,
  graph: 1,
  // A second lexical vote for the records dated as the question asks, as strong as the first.
  temporal: 1,
};
export const RRF_K = 10;

export interface FusedCandidate {
  id: string;
  score: number;
  channels: ChannelScores;
  /** Each channel's share of the score, for the explanation. */
  contributions: Record<Channel, number>;
  ranks: Partial<Record<Channel, number>>;
}

/**
 * Weighted reciprocal-rank fusion: each channel ranks its candidates (score desc, then id), a
 * candidate gets Σ weight / (RRF_K + rank). A candidate with an exact match gets +1 on top, and
 * no sum of the other channels' contributions reaches 1 (max 3.6 / 11 ≈ 0.33), so exact
 * matches always outrank the rest. Ties break by id. Pure.
 */
export function fuse(candidates: ReadonlyMap<string, ChannelScores>): FusedCandidate[] {
  const ranks = new Map<string, Partial<Record<Channel, number>>>();
  for (const channel of CHANNELS) {
    const ranked = [...candidates]
      .filter(([, s]) => s[channel] > 0)
      .sort((a, b) => b[1][channel] - a[1][channel] || compareStrings(a[0], b[0]));
    ranked.forEach(([id], i) => {
      const r = ranks.get(id) ?? {};
      r[channel] = i + 1;
      ranks.set(id, r);
    });
  }
  const out: FusedCandidate[] = [];
  for (const [id, channels] of candidates) {
    const r = ranks.get(id) ?? {};
    const contributions = { exact: 0, lexical: 0, vector: 0, graph: 0, temporal: 0 };
    for (const c of CHANNELS) if (r[c] !== undefined) contributions[c] = FUSION_WEIGHTS[c] / (RRF_K + r[c]!);
    const score =
      (channels.exact > 0 ? 1 : 0) +
      contributions.exact +
      contributions.lexical +
      contributions.vector +
      contributions.graph +
      contributions.temporal;
    out.push({ id, score, channels, contributions, ranks: r });
  }
  return out.sort((a, b) => b.score - a.score || compareStrings(a.id, b.id));
}
