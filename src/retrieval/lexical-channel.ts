import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import { bm25Sql, termIdfSql } from '../sql/retrieval-sql.js';
import { addHit, type ChannelHits } from './channel.js';
import { speakerNames } from './entities.js';
import type { ResolvedQuery } from './query.js';
import { textTerms } from './text-terms.js';

export interface LexicalResult {
  hits: ChannelHits;
  /** Query terms with their IDF over the visible bodies. */
  idf: Map<string, number>;
  /** Query terms no visible body contains. */
  unseen: Set<string>;
  /** Query terms each record's body contains. */
  matched: Map<number, Set<string>>;
  /** Names of the question that are the speaker of some hit (see entities.ts). */
  subjects: string[];
  /** Hits spoken by one of `subjects`. */
  bySubject: Set<number>;
  /** Hits that can support a question: not claims awaiting support, tasks or steering. */
  evidential: Set<number>;
}

/**
 * A record spoken by a person the question names is about that person: its BM25 score is
 * multiplied by this before ranking ("what did Caroline paint" prefers Caroline's turns to
 * Melanie's turns that address her by name). A mild factor: it reorders records of similar
 * lexical score and never lifts a record without the question's content words.
 */
export const SUBJECT_BOOST = 1.3;

/** Kinds that state what needs support rather than give it. */
const NOT_EVIDENCE = new Set(['claim', 'task', 'steering']);

/** BM25 (k1 = 1.2, b = 0.75) in plain SQL over the postings of visible bodies. */
export async function lexicalChannel(
  engine: Engine,
  q: ResolvedQuery,
  names: readonly string[],
): Promise<LexicalResult> {
  const hits: ChannelHits = new Map();
  const matched = new Map<number, Set<string>>();
  const bySubject = new Set<number>();
  const evidential = new Set<number>();
  const terms = [...new Set(textTerms(q.text ?? ''))].sort();
  const idf = new Map<string, number>();
  const unseen = new Set<string>();
  if (terms.length === 0) return { hits, idf, unseen, matched, subjects: [], bySubject, evidential };
  for (const r of rowsOf<{ term: string; idf: number; df: number }>(await engine.query(termIdfSql(terms)))) {
    idf.set(r.term, r.idf);
    if (r.df === 0) unseen.add(r.term);
  }
  const records = rowsOf<{
    nid: number;
    kind: string;
    meta: string | null;
    bkey: number;
    score: number;
    matched: { toArray(): string[] } | string[];
  }>(await engine.query(bm25Sql(terms, q.perChannel)));
  if (records.length === 0) return { hits, idf, unseen, matched, subjects: [], bySubject, evidential };
  const subjects = new Set<string>();
  const spokenBy = new Map<number, string>();
  for (const r of records) {
    const speaker = speakerNames(r.meta);
    const named = names.find((n) => speaker.includes(n));
    if (named !== undefined) {
      subjects.add(named);
      spokenBy.set(r.nid, named);
    }
  }
  for (const r of records) {
    const words = Array.isArray(r.matched) ? r.matched : [...r.matched.toArray()];
    const named = spokenBy.get(r.nid);
    if (named !== undefined) bySubject.add(r.nid);
    const score = named === undefined ? r.score : r.score * SUBJECT_BOOST;
    addHit(
      hits,
      r.nid,
      score,
      `bm25 ${r.score.toFixed(3)}: ${words.join(', ')}${named === undefined ? '' : `; spoken by ${named}, named in the question`}`,
    );
    matched.set(r.nid, new Set(words));
    if (!NOT_EVIDENCE.has(r.kind)) evidential.add(r.nid);
  }
  return { hits, idf, unseen, matched, subjects: [...subjects].sort(), bySubject, evidential };
}
