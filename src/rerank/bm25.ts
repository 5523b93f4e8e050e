import type { TermPostings } from '../retrieval/term-postings.js';
import { bm25Idf, bm25TermScore } from '../scoring/bm25.js';

export interface Bm25Input {
  /** Distinct query terms, ascending (scores are summed in this order: deterministic). */
  terms: readonly string[];
  postings: TermPostings;
  /** Visible records per body key (0: invisible); only visible bodies score or count. */
  visibleBodies: Int32Array;
  /** Visible bodies and their mean length: BM25's N and avgdl. */
  docs: number;
  avgdl: number;
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
 * changes no score. One pass over each query term's postings. Pure.
 */
export function bm25(input: Bm25Input): Bm25Result {
  const { terms, postings, visibleBodies, docs, avgdl, limit } = input;
  const idf = new Map<string, number>();
  const unseen = new Set<string>();
  // Dense accumulators (a Map cost ~4x as much at 500k postings), with the touched keys listed.
  const scores = new Float64Array(visibleBodies.length);
  const touched: number[] = [];
  for (const term of terms) {
    const list = postings.list(term);
    let df = 0;
    if (list !== undefined) {
      const { bkeys } = list;
      for (let i = 0; i < list.length; i++) {
        const k = bkeys[i]!;
        if (k < visibleBodies.length && visibleBodies[k]! > 0) df++;
      }
    }
    const w = bm25Idf(docs, df);
    idf.set(term, w);
    if (df === 0 || list === undefined) {
      unseen.add(term);
      continue;
    }
    const { bkeys, tfs } = list;
    const { docLen } = postings;
    for (let i = 0; i < list.length; i++) {
      const k = bkeys[i]!;
      if (k >= visibleBodies.length || visibleBodies[k] === 0) continue;
      const s = bm25TermScore(w, tfs[i]!, docLen[k]!, avgdl);
      if (scores[k] === 0) touched.push(k);
      scores[k]! += s;
    }
  }
  const ranked = topK(touched, scores, limit).map((bkey) => ({
    bkey,
    score: scores[bkey]!,
    matched: terms.filter((t) => postings.list(t)?.has(bkey) === true),
  }));
  return { ranked, idf, unseen };
}

/** The `k` keys of highest score (score descending, then key ascending). */
function topK(keys: readonly number[], scores: Float64Array, k: number): number[] {
  const better = (a: number, b: number) => scores[a]! > scores[b]! || (scores[a] === scores[b] && a < b);
  if (keys.length <= k * 4) return [...keys].sort((a, b) => (better(a, b) ? -1 : 1)).slice(0, k);
  // A bounded sorted buffer: keys.length can be every visible body, k is a few dozen.
  const top: number[] = [];
  for (const key of keys) {
    if (top.length === k && !better(key, top[k - 1]!)) continue;
    let i = top.length < k ? top.length : k - 1;
    if (top.length < k) top.push(key);
    while (i > 0 && better(key, top[i - 1]!)) {
      top[i] = top[i - 1]!;
      i--;
    }
    top[i] = key;
  }
  return top;
}
