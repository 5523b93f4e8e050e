import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import { LedgerError } from '../errors.js';
import { cosineSql } from '../sql/retrieval-sql.js';
import { addHit, type ChannelHits } from './channel.js';
import type { Embedder } from './hashed-embedder.js';
import type { ResolvedQuery } from './query.js';

/**
 * Cosine similarity over body vectors (brute force `array_cosine_similarity`; the vss HNSW index
 * needs a downloadable extension). Host-supplied scores replace it when given; query text is
 * embedded only by a semantic embedder (see `Embedder.lexical`).
 */
export async function vectorChannel(
  engine: Engine,
  q: ResolvedQuery,
  embedder: Embedder,
  nidOf: (id: string) => number | undefined,
  visible: (nid: number) => boolean,
): Promise<ChannelHits> {
  const hits: ChannelHits = new Map();
  if (q.scores) {
    for (const [id, score] of [...q.scores].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const nid = nidOf(id);
      if (nid !== undefined && visible(nid) && score > 0) addHit(hits, nid, score, `host score ${score}`);
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
  for (const r of rowsOf<{ nid: number; score: number }>(await engine.query(cosineSql(vector, q.perChannel))))
    if (r.score > 0) addHit(hits, r.nid, r.score, `cosine ${r.score.toFixed(3)}`);
  return hits;
}
