import type { Engine } from '../engine/engine.js';
import type { ChannelScores } from '../rerank/fuse.js';
import type { Embedder } from '../text/hashed-embedder.js';
import type { BodyVectors } from './body-vectors.js';
import type { ChannelHits } from './channel.js';
import { queryNames, queryPhrases } from './entities.js';
import { exactChannel, type MissingEvidence } from './exact-channel.js';
import { type GraphResult, graphChannel } from './graph-channel.js';
import { type LexicalResult, lexicalChannel } from './lexical-channel.js';
import type { ResolvedQuery } from './query.js';
import type { LedgerNodes, RetrievalIndex, VisibleSet } from './retrieval-index.js';
import { type TemporalResult, temporalChannel } from './temporal-channel.js';
import { vectorChannel } from './vector-channel.js';

/** What the four channels found, each by record key, before fusion. */
export interface Candidates {
  exact: { hits: ChannelHits; missing: MissingEvidence[]; superseded: number };
  lexical: LexicalResult;
  graph: GraphResult;
  temporal: TemporalResult;
  /** Every channel's hits by channel name (fusion ranks each). */
  channels: Record<keyof ChannelScores, ChannelHits>;
}

const NO_TEMPORAL: TemporalResult = { hits: new Map(), dateTerms: new Set() };
const NO_LEXICAL: LexicalResult = {
  hits: new Map(),
  idf: new Map(),
  unseen: new Set(),
  matched: new Map(),
  subjects: [],
  bySubject: new Set(),
  evidential: new Set(),
};

/**
 * Runs the channels the query enables, in their order of dependence: exact and lexical first,
 * the vector channel, then the graph channel seeded by the explicit seeds (task, action, claims),
 * the exact candidates, and either the records about entities the question names or, when it
 * names none the ledger has records about, the first lexical and temporal candidates (the
 * temporal channel runs before it, when the question names a date).
 */
export async function gatherCandidates(
  engine: Engine,
  ledger: LedgerNodes,
  index: RetrievalIndex,
  visible: VisibleSet,
  q: ResolvedQuery,
  explicitSeeds: readonly number[],
  embedder: Embedder,
  nidOf: (id: string) => number | undefined,
  vectors: BodyVectors | null,
): Promise<Candidates> {
  const on = q.channels;
  // At the last epoch or later every node's latest version is the valid one: exact lookups need
  // no engine call. An earlier epoch asks the engine for the versions valid then.
  const now = q.epoch >= ledger.lastEpoch ? { index, visible, ledger } : null;
  const exact = on.has('exact') ? await exactChannel(engine, q, now) : { hits: new Map(), missing: [], superseded: 0 };
  const names = q.text === null ? [] : queryNames(q.text);
  const nodeOf = (n: number) => ledger.byNid[n];
  const lexical = on.has('lexical') ? lexicalChannel(index, visible, nodeOf, q, names) : NO_LEXICAL;
  const vector = on.has('vector') ? await vectorChannel(vectors, q, embedder, index, visible, nidOf) : new Map();
  const temporal = on.has('temporal') ? temporalChannel(index, visible, nodeOf, q) : NO_TEMPORAL;
  // HippoRAG-style entity seeds: when the question names entities the ledger has records about
  // (by path: `wiki/Hello Love (song)` for "Hello Love"), the walk restarts at those records
  // alone, so the bridge passages they link to outrank the lexical near-misses the question's
  // other words find (entity seeds beside the lexical ones helped far less on MuSiQue: see
  // docs/evaluation/experiments.md). Otherwise it restarts at the first exact, lexical and
  // temporal candidates (the dated ones seeding too); exact matches (hard constraints) are seeds
  // either way.
  const phrases = q.text === null || !on.has('graph') || q.hops === 0 ? [] : queryPhrases(q.text);
  const entitySeeds = [...new Set(phrases.flatMap((phrase) => index.subjectRecords(phrase, visible)))].sort(
    (a, b) => a - b,
  );
  const firstCandidates =
    entitySeeds.length > 0
      ? new Map([...topSeeds([exact.hits], 8), ...entitySeeds.map((n) => [n, 1] as const)])
      : topSeeds([exact.hits, lexical.hits, temporal.hits], 8);
  const graph = on.has('graph')
    ? graphChannel(index.adjacency, visible, q.epoch, explicitSeeds, firstCandidates, q.hops, q.perChannel)
    : { hits: new Map(), edges: [] };
  return {
    exact,
    lexical,
    graph,
    temporal,
    channels: {
      exact: exact.hits,
      lexical: lexical.hits,
      vector,
      graph: graph.hits,
      temporal: temporal.hits,
    },
  };
}

/** Seeds for PageRank from the first channels: the top `n` of each, weighted by normalised score. */
function topSeeds(channels: readonly ChannelHits[], n: number): Map<number, number> {
  const seeds = new Map<number, number>();
  for (const hits of channels) {
    const top = [...hits].sort((a, b) => b[1].score - a[1].score || a[0] - b[0]).slice(0, n);
    const best = top[0]?.[1].score ?? 0;
    for (const [nid, h] of top) if (best > 0) seeds.set(nid, Math.max(seeds.get(nid) ?? 0, h.score / best));
  }
  return seeds;
}
