import { LedgerError } from '../errors.js';
import type { Embedder } from '../text/hashed-embedder.js';
import type { BodyVectors } from './body-vectors.js';
import { addHit, type ChannelHits } from './channel.js';
import type { ResolvedQuery } from './query.js';
import type { RetrievalIndex, VisibleSet } from './retrieval-index.js';

/**
 * Cosine similarity over body vectors (brute force, body-vectors.ts; the vss HNSW index needs a
 * downloadable extension): the best `perChannel` visible bodies, each with the visible records
 * carrying it. Host-supplied scores replace it when given; query text is embedded only by a
 * semantic embedder (see `Embedder.lexical`).
 */
export async function vectorChannel(
  vectors: BodyVectors | null,
  q: ResolvedQuery,
  embedder: Embedder,
  index: RetrievalIndex,
  visible: VisibleSet,
  nidOf: (id: string) => number | undefined,
): Promise<ChannelHits> {
  const hits: ChannelHits = new Map();
  if (q.scores) {
    for (const [id, score] of [...q.scores].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const nid = nidOf(id);
      if (nid !== undefined && visible.nodes[nid] === 1 && score > 0) addHit(hits, nid, score, `host score ${score}`);
    }
    return hits;
  }
  let vector = q.vector;
  if (!vector && q.text && !embedder.lexical) vector = (await embedder.embed([q.text]))[0]!;
  if (!vector) return hits;
  if (vector.length !== embedder.dimensions) {
    throw new LedgerError('INVALID_REQUEST', {
      field: 'vector',
      reason: `expected ${embedder.dimensions} dimensions (${embedder.name})`,
    });
  }
  // Only visible bodies are scored: the same bodies the statement this replaced returned (it
  // ranked all bodies, then kept the first `perChannel` visible ones), without widening.
  if (!vectors) return hits;
  for (const r of vectors.top(vector, q.perChannel, visible.bodies))
    for (const nid of index.recordsOf(r.bkey, visible)) addHit(hits, nid, r.score, `cosine ${r.score.toFixed(3)}`);
  return hits;
}
