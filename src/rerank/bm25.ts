import { bm25Idf, bm25TermShare } from '../scoring/bm25.js';
import type { Bm25Corpus } from './bm25-corpus.js';

export interface Bm25Input {
  /** Distinct query terms, ascending (scores are summed in this order: deterministic). */
  terms: readonly string[];
  /** The bodies ranked, with what is derived from them alone (see Bm25Corpus). */
  corpus: Bm25Corpus;
  limit: number;
}

export interface Bm25Result {
  /** The best `limit` bodies, score descending then key ascending, with the query terms each holds. */
  ranked: Array<{ bkey: number; score: number; matched: string[] }>;
  /** Each term's IDF over the visible bodies. */
  idf: Map<string, number>;
  /** Terms no visible body holds. */
  unseen: Set<string>;
}

/**
 * BM25 (scoring/bm25.ts) over the visible bodies only: N, document frequencies and the mean
 * length are computed over them, so a record outside the caller's scopes or no longer valid
 * changes no score. One pass over each query term's postings. Deterministic: the result depends
 * on the input alone.
 */
export function bm25(input: Bm25Input): Bm25Result {
  const { terms, corpus, limit } = input;
  const { postings, visibleBodies, docs } = corpus;
  const n = visibleBodies.length;
  const idf = new Map<string, number>();
  const unseen = new Set<string>();
  const lists = terms.map((t) => postings.list(t));
  // Dense accumulators (a Map cost ~4x as much at 500k postings), with the touched keys listed;
  // kept between scans (a scan is synchronous) and left all zero by each.
  if (scratchScores.length < n) {
    scratchScores = new Float64Array(Math.max(n, scratchScores.length * 2));
    scratchTouched = new Int32Array(scratchScores.length);
  }
  const scores = scratchScores;
  const touched = scratchTouched;
  let touchedCount = 0;
  let norms: Float64Array | null = null;
  for (let t = 0; t < terms.length; t++) {
    const term = terms[t]!;
    const list = lists[t];
    const df = corpus.df(term);
    const w = bm25Idf(docs, df);
    idf.set(term, w);
    if (df === 0 || list === undefined) {
      unseen.add(term);
      continue;
    }
    norms ??= corpus.lengthNorms();
    const { bkeys, tfs, length } = list;
    if (df === length) {
      // Every posting is of a visible body (df counts exactly those): no test per posting.
      for (let i = 0; i < length; i++) {
        const k = bkeys[i]!;
        const s = bm25TermShare(w, tfs[i]!, norms[k]!);
        if (scores[k] === 0) touched[touchedCount++] = k;
        scores[k]! += s;
      }
      continue;
    }
    for (let i = 0; i < length; i++) {
      const k = bkeys[i]!;
      if (k >= n || visibleBodies[k] === 0) continue;
      const s = bm25TermShare(w, tfs[i]!, norms[k]!);
      if (scores[k] === 0) touched[touchedCount++] = k;
      scores[k]! += s;
    }
  }
  const top = topK(touched, touchedCount, scores, limit);
  const ranked = top.map((bkey) => ({
    bkey,
    score: scores[bkey]!,
    matched: terms.filter((_, t) => lists[t]?.has(bkey) === true),
  }));
  for (let i = 0; i < touchedCount; i++) scores[touched[i]!] = 0;
  return { ranked, idf, unseen };
}

let scratchScores = new Float64Array(0);
let scratchTouched = new Int32Array(0);

/** The `k` keys of highest score (score descending, then key ascending) among `keys[0, count)`. */
function topK(keys: Int32Array, count: number, scores: Float64Array, k: number): number[] {
  const better = (a: number, b: number) => scores[a]! > scores[b]! || (scores[a] === scores[b] && a < b);
  if (count <= k * 4) return [...keys.subarray(0, count)].sort((a, b) => (better(a, b) ? -1 : 1)).slice(0, k);
  // A bounded sorted buffer: count can be every visible body, k is a few dozen. Once it is full,
  // most keys score below its last and are turned away by one comparison.
  const top: number[] = [];
  let worst = Number.NEGATIVE_INFINITY;
  for (let j = 0; j < count; j++) {
    const key = keys[j]!;
    if (top.length === k && (scores[key]! < worst || !better(key, top[k - 1]!))) continue;
    let i = top.length < k ? top.length : k - 1;
    if (top.length < k) top.push(key);
    while (i > 0 && better(key, top[i - 1]!)) {
      top[i] = top[i - 1]!;
      i--;
    }
    top[i] = key;
    if (top.length === k) worst = scores[top[k - 1]!]!;
  }
  return top;
}
