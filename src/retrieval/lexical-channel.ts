import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import { bm25Sql, recordsOfBodiesSql, termIdfSql } from '../sql/retrieval-sql.js';
import { addHit, type ChannelHits } from './channel.js';
import type { ResolvedQuery } from './query.js';
import { textTerms } from './text-terms.js';

export interface LexicalResult {
  hits: ChannelHits;
  /** Query terms with their IDF over the visible bodies. */
  idf: Map<string, number>;
  /** Query terms each record's body contains. */
  matched: Map<number, Set<string>>;
}

/** BM25 (k1 = 1.2, b = 0.75) in plain SQL over the postings of visible bodies. */
export async function lexicalChannel(engine: Engine, q: ResolvedQuery): Promise<LexicalResult> {
  const hits: ChannelHits = new Map();
  const matched = new Map<number, Set<string>>();
  const terms = [...new Set(textTerms(q.text ?? ''))].sort();
  const idf = new Map<string, number>();
  if (terms.length === 0) return { hits, idf, matched };
  for (const r of rowsOf<{ term: string; idf: number }>(await engine.query(termIdfSql(terms)))) idf.set(r.term, r.idf);
  const scored = rowsOf<{ bkey: number; score: number; matched: { toArray(): string[] } | string[] }>(
    await engine.query(bm25Sql(terms, q.perChannel)),
  );
  if (scored.length === 0) return { hits, idf, matched };
  const byBody = new Map(scored.map((s) => [s.bkey, s]));
  for (const r of rowsOf<{ nid: number; bkey: number }>(await engine.query(recordsOfBodiesSql([...byBody.keys()])))) {
    const s = byBody.get(r.bkey)!;
    const words = Array.isArray(s.matched) ? s.matched : [...s.matched.toArray()];
    addHit(hits, r.nid, s.score, `bm25 ${s.score.toFixed(3)}: ${words.join(', ')}`);
    matched.set(r.nid, new Set(words));
  }
  return { hits, idf, matched };
}
