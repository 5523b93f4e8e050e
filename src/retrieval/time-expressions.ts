import { dayNumber, MONTHS } from '../text/calendar.js';
import { textTerms } from '../text/text-terms.js';

/**
 * Calendar expressions of a question as day ranges, for the temporal channel: `on <day> <Month>,
 * <year>`, `<Month> <day>, <year>`, `<yyyy>-<mm>-<dd>` (a day), `in <Month> <year>` (a month),
 * `in <Month>` (that month of any year), `in <year>` (a year). Relative expressions ("last week") have no anchor in a question and
 * are left to the lexical channel. Pure and deterministic.
 */
export interface DayRange {
  /** Days since 1970-01-01 (UTC), inclusive; for a month without a year, days within the year. */
  from: number;
  to: number;
  /** True when the year was not given: the range applies to every year (days of the year). */
  anyYear: boolean;
  /** The words of the question that name it (`December 2023`). */
  text: string;
}

const MONTH = `(${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)`;
const monthOf = (name: string): number => {
  const m = name.toLowerCase();
  return MONTHS.findIndex((full) => full.startsWith(m.slice(0, 3))) + 1;
};

/** Day of the year (0-based, as in a non-leap year) of a month and day, for year-less ranges. */
const dayOfYear = (m: number, d: number): number => dayNumber(2001, m, d) - dayNumber(2001, 1, 1);

/**
 * An event is told at or after the time it happened, and a question's date is the session's or
 * the event's: a day matches a week either side, a month or a year a week past its end.
 */
const DAY_SLACK = 7;

/** Words before a calendar expression that relate the question to it (not stop words). */
const RELATIONAL_WORDS = ['between', 'during', 'since', 'until', 'till', 'around', 'through', 'throughout'] as const;
const RELATIONAL_TERMS = new Set(textTerms(RELATIONAL_WORDS.join(' ')));
const LEADING = new RegExp(`\\b((?:${RELATIONAL_WORDS.join('|')})\\s+)$`, 'i');

export function timeExpressions(text: string): DayRange[] {
  const out: DayRange[] = [];
  const taken: Array<[number, number]> = [];
  const free = (m: RegExpMatchArray) => taken.every(([a, b]) => m.index! >= b || m.index! + m[0].length <= a);
  let span = '';
  const take = (m: RegExpMatchArray) => {
    taken.push([m.index!, m.index! + m[0].length]);
    // The word that places the question in the range ("between", "during", "since") is part of
    // the expression: evidenced by the records' dates like the rest, it is not content.
    span = `${LEADING.exec(text.slice(0, m.index))?.[1] ?? ''}${m[0]}`;
  };
  const day = (y: number, mo: number, d: number) => {
    if (mo < 1 || mo > 12 || d < 1 || d > 31) return;
    const n = dayNumber(y, mo, d);
    out.push({ from: n - DAY_SLACK, to: n + DAY_SLACK, anyYear: false, text: span });
  };
  for (const m of text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) {
    take(m);
    day(Number(m[1]), Number(m[2]), Number(m[3]));
  }
  for (const m of text.matchAll(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH},?\\s+(\\d{4})\\b`, 'gi'))) {
    if (!free(m)) continue;
    take(m);
    day(Number(m[3]), monthOf(m[2]!), Number(m[1]));
  }
  for (const m of text.matchAll(new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'))) {
    if (!free(m)) continue;
    take(m);
    day(Number(m[3]), monthOf(m[1]!), Number(m[2]));
  }
  // A day without a year ("on 7 July", "on July 7"): that day of any year.
  for (const m of text.matchAll(
    new RegExp(
      `\\b(?:(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH}|${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?)\\b(?!,?\\s*\\d{4})`,
      'gi',
    ),
  )) {
    if (!free(m)) continue;
    take(m);
    const mo = monthOf((m[2] ?? m[3])!);
    const d = Number(m[1] ?? m[4]);
    if (d < 1 || d > 31) continue;
    out.push({ from: dayOfYear(mo, d) - DAY_SLACK, to: dayOfYear(mo, d) + DAY_SLACK, anyYear: true, text: span });
  }
  for (const m of text.matchAll(new RegExp(`\\b${MONTH},?\\s+(\\d{4})\\b`, 'gi'))) {
    if (!free(m)) continue;
    take(m);
    const y = Number(m[2]);
    const mo = monthOf(m[1]!);
    out.push({ from: dayNumber(y, mo, 1), to: dayNumber(y, mo + 1, 0) + DAY_SLACK, anyYear: false, text: span });
  }
  // A bare month name only after "in"/"during" ("in June"): "may" is also a verb.
  for (const m of text.matchAll(new RegExp(`\\b(?:in|during|of)\\s+(?:early\\s+|late\\s+|mid-?)?${MONTH}\\b`, 'gi'))) {
    if (!free(m)) continue;
    take(m);
    const mo = monthOf(m[1]!);
    out.push({ from: dayOfYear(mo, 1), to: dayOfYear(mo + 1, 0) + DAY_SLACK, anyYear: true, text: span });
  }
  for (const m of text.matchAll(/\b(?:in|during|of|since)\s+((?:19|20)\d{2})\b/gi)) {
    if (!free(m)) continue;
    take(m);
    const y = Number(m[1]);
    out.push({ from: dayNumber(y, 1, 1), to: dayNumber(y, 12, 31) + DAY_SLACK, anyYear: false, text: span });
  }
  return out;
}

/** Whether a day (days since 1970-01-01) falls in any of the ranges. */
export function inRanges(day: number, ranges: readonly DayRange[]): boolean {
  for (const r of ranges) {
    if (!r.anyYear) {
      if (day >= r.from && day <= r.to) return true;
      continue;
    }
    const date = new Date(day * 86_400_000);
    const doy = day - dayNumber(date.getUTCFullYear(), 1, 1);
    // Day of the year as in a non-leap year (the ranges are built that way).
    const leap = date.getUTCFullYear() % 4 === 0 && date.getUTCMonth() >= 2 ? 1 : 0;
    const d = doy - leap;
    if ((d >= r.from && d <= r.to) || (r.to > 364 && d <= r.to - 365) || (r.from < 0 && d >= r.from + 365)) return true;
  }
  return false;
}

/**
 * Whether a question asks for a time: "when did …", "what year …", "how long ago …", "how long
 * has …" (since when), "how many months passed …". Not "how long does …" (a duration).
 */
export function asksForATime(text: string): boolean {
  return /^\s*when\b|\bwhen (?:did|was|were|is|are|will|does|do|has|have|had)\b|\b(?:what|which) (?:date|day|month|year|week|time)\b|\bhow long (?:ago|has|have|had)\b|\bhow many (?:days|weeks|months|years)\b/i.test(
    text,
  );
}

/**
 * A question's distinct terms, ascending, for ranking by BM25: without the word that relates it to
 * a date ("during March 2023", "between June 18 and …"). No turn about that time need say
 * "during", and the turns that do ("during the walk") are not about it. `ranges`: the text's
 * `timeExpressions`, when the caller has them already.
 */
export function rankingTerms(text: string, ranges: readonly DayRange[] = timeExpressions(text)): string[] {
  const relational = new Set(
    ranges.flatMap((r) => textTerms(/^(\S+)\s/.exec(r.text)?.[1] ?? '').filter((t) => RELATIONAL_TERMS.has(t))),
  );
  return [...new Set(textTerms(text))].filter((t) => !relational.has(t)).sort();
}
