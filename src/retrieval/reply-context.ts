import type { NodeRow } from '../schema/rows.js';
import { DEPENDS_ON, type EdgeAdjacency } from './edge-adjacency.js';
import type { VisibleSet } from './retrieval-index.js';

/**
 * The share of a message's score that the messages joined to it by a reply edge (`depends_on`)
 * receive. A turn of a conversation is read with the turn it answers and the turn that answers
 * it: "Alright, see you tomorrow!" answers "I'll give the turtles a bath before you get here", "I
 * went to Woodhaven" answers "Where did you go?", and "Congrats on winning the tournament!"
 * restates the news it replies to — the question's words are in the neighbour, not in the turn.
 * Small, so a turn's own words still rank first. LoCoMo recall@10, default call (`npm run
 * eval:retrieval -- --semantic none --only locomo`), overall / temporal: 69.8 / 82.3 without it;
 * 71.4 / 82.3, 71.8 / 82.8, 71.6 / 83.0, 71.7 / 82.3, 72.5 / 83.0, 71.9 / 81.3, 70.8 / 78.1 at 0.2,
 * 0.25, 0.3, 0.4, 0.5, 0.6, 1. Choosing by overall recall leaving one conversation out picks 0.5 in
 * every fold (held out 72.5 / 83.0), but 0.4 and 0.6 on either side of it are a point lower: a peak
 * that narrow is noise, so the middle of the plateau 0.25–0.5 is kept.
 */
const REPLY_CONTEXT = 0.3;

/** Context scores by record: from the turns it answers, and from the turns that answer it. */
export interface ReplyContext {
  /** `REPLY_CONTEXT` × the best score of a scored message this message replies to. */
  fromAnswered: Map<number, number>;
  /** `REPLY_CONTEXT` × the best score of a scored message replying to this message. */
  fromReplies: Map<number, number>;
}

/**
 * Context scores of the messages next to scored messages by a reply edge (`depends_on` valid at
 * the epoch, both ends visible messages). Records of other kinds neither give nor take (a tool
 * result is not a reply). Pure.
 */
export function replyContext(
  scores: ReadonlyMap<number, number>,
  adjacency: EdgeAdjacency,
  visible: VisibleSet,
  epoch: number,
  nodeOf: (nid: number) => NodeRow | undefined,
): ReplyContext {
  const fromAnswered = new Map<number, number>();
  const fromReplies = new Map<number, number>();
  for (const [n, s] of scores) {
    if (nodeOf(n)?.kind !== 'message') continue;
    for (let i = adjacency.first(n); i !== -1; i = adjacency.next[i]!) {
      if (adjacency.kindDir[i]! >> 1 !== DEPENDS_ON || adjacency.from[i]! > epoch) continue;
      const o = adjacency.other[i]!;
      if (visible.nodes[o] !== 1 || nodeOf(o)?.kind !== 'message') continue;
      // The entry is the source's when n depends on o: n replies to o, so o is answered by n.
      const into = (adjacency.kindDir[i]! & 1) === 1 ? fromReplies : fromAnswered;
      const v = REPLY_CONTEXT * s;
      if (v > (into.get(o) ?? 0)) into.set(o, v);
    }
  }
  return { fromAnswered, fromReplies };
}

/**
 * The context each record adds to its channel score: from the turn it answers and from its replies,
 * the better of the two; only records in `own` (scored by the channel on their own words) take
 * context, except that `enterByAnswered` lets a reply enter through the turn it answers.
 */
export function contextScores(
  context: ReplyContext,
  own: ReadonlyMap<number, number>,
  enterByAnswered: boolean,
): Map<number, number> {
  const out = new Map<number, number>();
  const take = (m: ReadonlyMap<number, number>, enter: boolean) => {
    for (const [n, v] of m) if ((enter || own.has(n)) && v > (out.get(n) ?? 0)) out.set(n, v);
  };
  take(context.fromAnswered, enterByAnswered);
  take(context.fromReplies, false);
  return out;
}
