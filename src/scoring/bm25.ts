/** BM25's term-frequency saturation and length normalization: the usual defaults, shared by the
 * working set's ranking and retrieval's lexical channels so one query scores alike in both.
 * @internal Exported for its unit tests. */
export const BM25_K1 = 1.2;
/** @internal Exported for its unit tests. */
export const BM25_B = 0.75;

/** A term's inverse document frequency among `docs` documents, `df` of which hold it (the
 * "plus one" form: never negative, so a term in most documents still adds a little). */
export function bm25Idf(docs: number, df: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}

/**
 * One term's share of a document's BM25 score: `tf` occurrences in a document of `docLength`
 * terms, against a mean length `avgdl` (0: no length normalization). A document scores the sum of
 * its query terms' shares; callers sum them in one fixed term order, so the floating-point total
 * is the same on every run. Pure. (Scans use its two parts, `bm25LengthNorm` once per document and
 * `bm25TermShare` per term.) @internal Exported for its unit tests.
 */
export function bm25TermScore(idf: number, tf: number, docLength: number, avgdl: number): number {
  return bm25TermShare(idf, tf, bm25LengthNorm(docLength, avgdl));
}

/**
 * The document's part of a term share's denominator, `k1 · (1 - b + b · docLength / avgdl)`: the
 * same for every term of one document, so a scan over many terms computes it once per document.
 * With `bm25TermShare` it is `bm25TermScore`, operation for operation (the same bits).
 */
export function bm25LengthNorm(docLength: number, avgdl: number): number {
  const norm = avgdl > 0 ? docLength / avgdl : 0;
  return BM25_K1 * (1 - BM25_B + BM25_B * norm);
}

/** `bm25TermScore` given the document's `bm25LengthNorm`. */
export function bm25TermShare(idf: number, tf: number, lengthNorm: number): number {
  return (idf * (tf * K1_PLUS_1)) / (tf + lengthNorm);
}

const K1_PLUS_1 = BM25_K1 + 1;
