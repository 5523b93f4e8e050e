import { bm25 } from '../rerank/bm25.js';
import type { NodeRow } from '../schema/rows.js';
import { addHit, type ChannelHits } from './channel.js';
import { speakerNames } from './entities.js';
import type { ResolvedQuery } from './query.js';
import { contextScores, replyContext } from './reply-context.js';
import type { RetrievalIndex, VisibleSet } from './retrieval-index.js';
import { recordEvents } from './temporal-channel.js';
import { asksForATime, rankingTerms } from './time-expressions.js';

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
const SUBJECT_BOOST = 1.3;

/**
 * A question asking for a time ("when did …", "which year …", "how long has …") prefers the
 * records that date what they tell (`meta.when`, written by `fromConversation` from "yesterday",
 * "last Friday", "for three years"): their BM25 score is multiplied by this before ranking. Mild,
 * like SUBJECT_BOOST: it reorders records of similar lexical score.
 */
const WHEN_BOOST = 1.5;

/** Kinds that state what needs support rather than give it. */
const NOT_EVIDENCE = new Set(['claim', 'task', 'steering']);

/**
 * BM25 over the postings of the visible bodies (rerank/bm25.ts): the best `perChannel` bodies,
 * each with every visible record carrying it. No engine call.
 */
export function lexicalChannel(
  index: RetrievalIndex,
  visible: VisibleSet,
  nodeOf: (nid: number) => NodeRow | undefined,
  q: ResolvedQuery,
  names: readonly string[],
): LexicalResult {
  const hits: ChannelHits = new Map();
  const matched = new Map<number, Set<string>>();
  const bySubject = new Set<number>();
  const evidential = new Set<number>();
  const terms = rankingTerms(q.text ?? '');
  if (terms.length === 0)
    return { hits, idf: new Map(), unseen: new Set(), matched, subjects: [], bySubject, evidential };
  const { ranked, idf, unseen } = bm25({ terms, corpus: visible.corpus, limit: q.perChannel });
  const records = ranked.flatMap((b) =>
    index.recordsOf(b.bkey, visible).map((nid) => {
      const row = nodeOf(nid)!;
      return { nid, kind: row.kind, meta: row.meta, score: b.score, matched: b.matched };
    }),
  );
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
  const asksWhen = q.text !== null && asksForATime(q.text);
  const own = new Map<number, number>();
  for (const r of records) {
    const named = spokenBy.get(r.nid);
    own.set(r.nid, named === undefined ? r.score : r.score * SUBJECT_BOOST);
  }
  // A reply enters the list through the turn it answers (that turn holds the question's words);
  // from its own replies a turn only gains order: letting those enter too, or entering the
  // temporal channel by context, measured no better and double counts the graph walk, which
  // already reaches a hit's neighbours.
  const context = contextScores(replyContext(own, index.adjacency, visible, q.epoch, nodeOf), own, true);
  const when = (nid: number) => (asksWhen && recordEvents(nodeOf(nid)!).length > 0 ? WHEN_BOOST : 1);
  for (const r of records) {
    const words = r.matched;
    const named = spokenBy.get(r.nid);
    if (named !== undefined) bySubject.add(r.nid);
    const score = (own.get(r.nid)! + (context.get(r.nid) ?? 0)) * when(r.nid);
    addHit(
      hits,
      r.nid,
      score,
      `bm25 ${r.score.toFixed(3)}: ${words.join(', ')}${named === undefined ? '' : `; spoken by ${named}, named in the question`}${context.has(r.nid) ? `; reply context +${context.get(r.nid)!.toFixed(3)}` : ''}`,
    );
    matched.set(r.nid, new Set(words));
    if (!NOT_EVIDENCE.has(r.kind)) evidential.add(r.nid);
  }
  for (const [nid, c] of context) {
    if (own.has(nid)) continue;
    addHit(hits, nid, c * when(nid), `replies to a lexical hit: ${c.toFixed(3)}`);
  }
  return { hits, idf, unseen, matched, subjects: [...subjects].sort(), bySubject, evidential };
}
