import { bm25 } from '../rerank/bm25.js';
import { Bm25Corpus } from '../rerank/bm25-corpus.js';
import type { NodeRow } from '../schema/rows.js';
import { dayNumber } from '../text/calendar.js';
import { textTerms } from '../text/text-terms.js';
import { addHit, type ChannelHits } from './channel.js';
import type { ResolvedQuery } from './query.js';
import { contextScores, replyContext } from './reply-context.js';
import type { RetrievalIndex, VisibleSet } from './retrieval-index.js';
import { type DayRange, inRanges, rankingTerms, timeExpressions } from './time-expressions.js';

export interface TemporalResult {
  hits: ChannelHits;
  /**
   * Terms of the question's calendar expressions that some visible record is dated in: evidenced
   * by the records' dates, not their words, so the support estimate does not count them missing.
   */
  dateTerms: Set<string>;
}

/** A record's date (`meta.date`, ISO `YYYY-MM-DD…`, as `fromConversation` writes it) as a day number; cached per row. */
const DAYS = new WeakMap<NodeRow, number | null>();

function recordDay(row: NodeRow): number | null {
  const known = DAYS.get(row);
  if (known !== undefined) return known;
  let day: number | null = null;
  if (row.meta?.includes('"date"')) {
    try {
      const date = (JSON.parse(row.meta) as Record<string, unknown>).date;
      const m = typeof date === 'string' ? /^(\d{4})-(\d{2})-(\d{2})/.exec(date) : null;
      if (m) day = dayNumber(Number(m[1]), Number(m[2]), Number(m[3]));
    } catch {
      day = null;
    }
  }
  DAYS.set(row, day);
  return day;
}

/** The days a record's words date what it tells (`meta.when`, see `fromConversation`); cached per row. */
const EVENTS = new WeakMap<NodeRow, ReadonlyArray<readonly [number, number]>>();

export function recordEvents(row: NodeRow): ReadonlyArray<readonly [number, number]> {
  const known = EVENTS.get(row);
  if (known !== undefined) return known;
  const out: Array<[number, number]> = [];
  if (row.meta?.includes('"when"')) {
    try {
      const when = (JSON.parse(row.meta) as Record<string, unknown>).when;
      if (typeof when === 'string')
        for (const part of when.split(',')) {
          const [a, b = a] = part.trim().split('/');
          const from = isoDay(a!);
          const to = isoDay(b!);
          if (from !== null && to !== null && from <= to) out.push([from, to]);
        }
    } catch {
      // Not JSON: no event dates.
    }
  }
  EVENTS.set(row, out);
  return out;
}

function isoDay(s: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return m ? dayNumber(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

/** Whether an event's days meet a question's range (a long event is sampled day by day up to a year). */
function eventIn(event: readonly [number, number], range: DayRange): boolean {
  if (!range.anyYear) return event[0] <= range.to && event[1] >= range.from;
  for (let day = event[0]; day <= Math.min(event[1], event[0] + 366); day++) if (inRanges(day, [range])) return true;
  return false;
}

/**
 * A record whose own words date an event in the question's range ("yesterday" in a session of
 * 17 March for "on March 16") tells of that time; a record only said then may be about anything.
 * Its BM25 among the dated records is multiplied by this before ranking.
 */
const EVENT_BOOST = 2;

/**
 * The temporal channel: when the question names a date, a month or a year
 * (time-expressions.ts), BM25 over the visible bodies of records dated then (`meta.date`), so
 * "what did Maria donate in December 2023" ranks that month's turns about donating above the
 * same words on other dates. Nothing when the question names no date or no record is dated in
 * range. No engine call.
 */
export function temporalChannel(
  index: RetrievalIndex,
  visible: VisibleSet,
  nodeOf: (nid: number) => NodeRow | undefined,
  q: ResolvedQuery,
): TemporalResult {
  const hits: ChannelHits = new Map();
  const none = { hits, dateTerms: new Set<string>() };
  const ranges: DayRange[] = q.text === null ? [] : timeExpressions(q.text);
  if (ranges.length === 0) return none;
  // The question's ranking terms, names and date words included: dropping them measured slightly
  // worse (a speaker's name still tells their turns from the other speaker's on that date); the
  // word relating it to the date ("during") left out, as in the lexical channel.
  const terms = rankingTerms(q.text ?? '', ranges);
  if (terms.length === 0) return none;
  const inRange = new Int32Array(visible.bodies.length);
  const dated = new Set<number>();
  const eventDated = new Set<number>();
  const used = new Set<DayRange>();
  let docs = 0;
  let length = 0;
  for (let n = 0; n < visible.nodes.length; n++) {
    if (visible.nodes[n] !== 1) continue;
    const row = nodeOf(n);
    if (row === undefined || row.bkey === null) continue;
    const day = recordDay(row);
    const events = recordEvents(row);
    const told = ranges.filter((r) => events.some((e) => eventIn(e, r)));
    const hit = day === null ? told : [...new Set([...told, ...ranges.filter((r) => inRanges(day, [r]))])];
    if (hit.length === 0) continue;
    for (const r of hit) used.add(r);
    dated.add(n);
    if (told.length > 0) eventDated.add(n);
    if (row.bkey < inRange.length && inRange[row.bkey] === 0) {
      docs++;
      length += index.postings.docLen[row.bkey] ?? 0;
    }
    if (row.bkey < inRange.length) inRange[row.bkey]! += 1;
  }
  if (docs === 0) return none;
  const { ranked } = bm25({
    terms,
    corpus: new Bm25Corpus(index.postings, inRange, docs, length / docs),
    limit: q.perChannel,
  });
  const own = new Map<number, number>();
  const why = new Map<number, string>();
  for (const b of ranked)
    for (const nid of index.recordsOf(b.bkey, visible)) {
      if (!dated.has(nid)) continue;
      own.set(nid, b.score);
      why.set(nid, `bm25 ${b.score.toFixed(3)}: ${b.matched.join(', ')}`);
    }
  const context = contextScores(replyContext(own, index.adjacency, visible, q.epoch, nodeOf), own, false);
  for (const nid of own.keys()) {
    const told = eventDated.has(nid);
    const added = context.get(nid) ?? 0;
    const score = own.get(nid)! + added;
    addHit(
      hits,
      nid,
      told ? score * EVENT_BOOST : score,
      `${told ? 'tells of an event dated' : 'dated'} as the question asks; ${why.get(nid)!}${added > 0 ? `; reply context +${added.toFixed(3)}` : ''}`,
    );
  }
  return { hits, dateTerms: new Set([...used].flatMap((r) => textTerms(r.text))) };
}
