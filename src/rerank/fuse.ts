import { fuseRanks, rankByScore } from '../scoring/rank-fusion.js';
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
const CHANNELS = ['exact', 'lexical', 'vector', 'graph', 'temporal'] as const;
type Channel = (typeof CHANNELS)[number];

/**
 * Explicit fusion weights. Exact matches additionally dominate: see `fuse`. The lexical and graph
 * channels weigh the same and K is small (a first rank counts ~3× a tenth): a large K with a
 * lighter graph weight ranked the graph channel's multi-hop finds below lexical near-misses on
 * both LoCoMo and MuSiQue (docs/evaluation/experiments.md).
 */
const FUSION_WEIGHTS: Readonly<Record<Channel, number>> = {
  exact: 4,
  lexical: 1,
  vector: 0.6,
  graph: 1,
  // A second lexical vote for the records dated as the question asks, as strong as the first.
  temporal: 1,
};
const RRF_K = 10;

export interface FusedCandidate {
  id: string;
  score: number;
  channels: ChannelScores;
  /** Each channel's share of the score, for the explanation. */
  contributions: Record<Channel, number>;
  ranks: Partial<Record<Channel, number>>;
}

/**
 * Weighted reciprocal-rank fusion (scoring/rank-fusion.ts): each channel ranks its candidates
 * (score desc, then id), a candidate gets Σ weight / (RRF_K + rank). A candidate with an exact
 * match starts from 1, and no sum of the other channels' shares reaches 1 (max 3.6 / 11 ≈ 0.33),
 * so exact matches always outrank the rest. Ties break by id. Pure.
 */
export function fuse(candidates: ReadonlyMap<string, ChannelScores>): FusedCandidate[] {
  const ranks = new Map(
    CHANNELS.map((channel) => [
      channel,
      rankByScore(
        [...candidates].map(([id, s]) => [id, s[channel]] as const),
        compareStrings,
      ),
    ]),
  );
  const fused = fuseRanks(candidates.keys(), ranks, {
    channels: CHANNELS,
    k: RRF_K,
    weights: FUSION_WEIGHTS,
    compareIds: compareStrings,
    base: (id) => (candidates.get(id)!.exact > 0 ? 1 : 0),
  });
  return fused.map((f) => ({
    id: f.id,
    score: f.score,
    channels: candidates.get(f.id)!,
    contributions: f.shares,
    ranks: f.ranks,
  }));
}
