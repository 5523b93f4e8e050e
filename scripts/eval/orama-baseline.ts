/**
 * The Orama baselines (`@orama/orama`): BM25 full-text search, and hybrid search with the same
 * embedder as the ledger's vector channel, over exactly the bodies the ledger stores.
 *
 * Configuration, and why:
 * - Terms: by default the ledger's own analysis (`textTerms`: identifier splitting, lower case,
 *   the same stop words), de-duplicated per text as Orama's tokenizer does. Orama's shipped
 *   English tokenizer has no stop-word list, so question words (`what`, `did`, `the`) score as
 *   terms: on the shipped data, giving Orama's tokenizer the ledger's stop words alone raised
 *   Orama BM25 from 36.0% to 53.9% LoCoMo recall@10 and from 11.8% to 32.8% MuSiQue recall@5 —
 *   a tokenizer difference, not a ranking one. With the same terms the comparison is between
 *   the rankers. `tokenizer: 'orama'` restores the shipped tokenizer.
 * - Ranking: Orama's BM25 defaults (k1 1.2, b 0.75, d 0.5); `threshold: 1` (its default)
 *   returns documents matching any query term.
 * - Hybrid: Orama's min-max-normalised weighted sum of the text and vector scores, weights
 *   0.5/0.5 (its default). Its default vector `similarity` floor of 0.8 suits dense neural
 *   embeddings; hashed-trigram cosines of related texts lie around 0.2–0.5, so the floor would
 *   silently turn hybrid back into BM25. `HYBRID_SIMILARITY` keeps every positive cosine, as
 *   the ledger's vector channel does.
 */
import { create, insertMultiple, search, type Tokenizer } from '@orama/orama';
import type { Embedder } from '../../src/text/hashed-embedder.js';
import { textTerms } from '../../src/text/text-terms.js';

export type OramaTokenizer = 'ledger' | 'orama';

/** The ledger's term analysis as an Orama tokenizer (each term once per text, as Orama's own). */
const ledgerTokenizer = (): Tokenizer => ({
  language: 'english',
  normalizationCache: new Map(),
  tokenize: (raw) => [...new Set(textTerms(raw))],
});

export const HYBRID_SIMILARITY = 0.000001;

export interface OramaDocument {
  id: string;
  body: string;
  /** The ledger's authority scope of the record, so a scoped query can be filtered the same way. */
  scope?: string;
}

export interface OramaBaseline {
  /** Ids of the best `k` documents by BM25, within `scopes` when given. */
  bm25(text: string, k: number, scopes?: readonly string[]): Promise<string[]>;
  /** Ids of the best `k` documents by hybrid BM25 + vector search, within `scopes` when given. */
  hybrid(text: string, k: number, scopes?: readonly string[]): Promise<string[]>;
}

export async function createOramaBaseline(
  docs: readonly OramaDocument[],
  embedder: Embedder,
  tokenizer: OramaTokenizer = 'ledger',
): Promise<OramaBaseline> {
  const dims = embedder.dimensions;
  const db = create({
    schema: { body: 'string', scope: 'enum', embedding: `vector[${dims}]` } as const,
    ...(tokenizer === 'ledger' ? { components: { tokenizer: ledgerTokenizer() } } : {}),
  });
  const vectors = await embedder.embed(docs.map((d) => d.body));
  // Orama batches insertions internally; one call keeps the build time comparable to a bulk load.
  await insertMultiple(
    db,
    docs.map((d, i) => ({ id: d.id, body: d.body, scope: d.scope ?? '', embedding: Array.from(vectors[i]!) })),
  );
  const ids = (hits: ReadonlyArray<{ id: string }>) => hits.map((h) => h.id);
  const where = (scopes?: readonly string[]) => (scopes === undefined ? {} : { where: { scope: { in: [...scopes] } } });
  return {
    async bm25(text, k, scopes) {
      const r = await search(db, { term: text, properties: ['body'], limit: k, ...where(scopes) });
      return ids(r.hits);
    },
    async hybrid(text, k, scopes) {
      const [vector] = await embedder.embed([text]);
      const r = await search(db, {
        mode: 'hybrid',
        term: text,
        properties: ['body'],
        vector: { value: Array.from(vector!), property: 'embedding' },
        similarity: HYBRID_SIMILARITY,
        limit: k,
        ...where(scopes),
      });
      return ids(r.hits);
    },
  };
}
