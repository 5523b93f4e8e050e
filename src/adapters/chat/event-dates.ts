import { dayNumber, MONTHS } from '../../text/calendar.js';

/**
 * Relative time expressions of a turn ("yesterday", "last Friday", "last Tues", "two weeks ago",
 * "on the 15th", "next month", "this past weekend", "last summer", "last August") resolved
 * against the day it was said, as ISO dates or ISO 8601 intervals (`<yyyy>-<mm>-<dd>`,
 * `<start>/<end>`). A turn that dates what it tells is what a "when" question asks for (and what a
 * host reads to answer it): most temporal questions' evidence turns carry one, few turns do
 * otherwise (docs/evaluation/experiments.md). Expressions without an anchor in the calendar
 * ("recently", "lately") are left out. Pure and deterministic.
 */
export function eventDates(text: string, said: string): string[] {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(said);
  if (!m) return [];
  const d = dayNumber(Number(m[1]), Number(m[2]), Number(m[3]));
  const year = Number(m[1]);
  const month = Number(m[2]);
  const out: Array<[number, number]> = [];
  const add = (from: number, to = from) => {
    if (!out.some(([a, b]) => a === from && b === to)) out.push([from, to]);
  };
  const monthRange = (y: number, mo: number) => add(dayNumber(y, mo, 1), dayNumber(y, mo + 1, 0));
  const lower = text.toLowerCase();
  for (const x of lower.matchAll(RELATIVE)) {
    let phrase = x[0].replace(/\s+/g, ' ');
    // "this past weekend" is last weekend; "last Fri", "last Tues" name the weekday in full.
    phrase = phrase
      .replace(/^this past /, 'last ')
      .replace(
        / (mon|tues?|wed|thu(?:rs?)?|fri|sat)$/,
        (w) => ` ${WEEKDAYS.find((day) => day.startsWith(w.slice(1, 4)))!}`,
      );
    if (phrase === 'the day before yesterday') add(d - 2);
    else if (phrase === 'the day after tomorrow') add(d + 2);
    else if (phrase.startsWith('the day ')) continue;
    else if (phrase === 'yesterday' || phrase === 'last night') add(d - 1);
    else if (/^(today|tonight|this (morning|afternoon|evening))$/.test(phrase)) add(d);
    else if (phrase === 'tomorrow') add(d + 1);
    else if (phrase === 'the other day') add(d - 6, d - 1);
    else if (phrase === 'last week') add(d - 10, d - 4);
    else if (phrase === 'this week') add(d - 6, d);
    else if (phrase === 'next week') add(d + 4, d + 10);
    else if (phrase === 'last weekend') {
      const sunday = d - (weekday(d) === 0 ? 7 : weekday(d));
      add(sunday - 1, sunday);
    } else if (phrase === 'this weekend' || phrase === 'the weekend') {
      const saturday = d + ((6 - weekday(d) + 7) % 7);
      add(weekday(d) === 0 ? d - 1 : saturday, weekday(d) === 0 ? d : saturday + 1);
    } else if (phrase === 'last month') monthRange(year, month - 1);
    else if (phrase === 'this month') monthRange(year, month);
    else if (phrase === 'next month') monthRange(year, month + 1);
    else if (/^(last|this) (spring|summer|fall|autumn|winter)$/.test(phrase)) {
      const [which, season] = phrase.split(' ') as [string, string];
      const first = SEASON_START[season]!;
      const start = (y: number) => dayNumber(y, first, 1);
      const end = (y: number) => dayNumber(y, first + 3, 0);
      // "last summer": the latest one over by today; "this summer": the one under way, else the
      // next one (a winter starting in December runs into the next year).
      const years = [year - 2, year - 1, year];
      const y =
        which === 'last'
          ? years.filter((x) => end(x) < d).at(-1)!
          : (years.find((x) => start(x) <= d && d <= end(x)) ?? years.find((x) => start(x) > d) ?? year);
      add(start(y), end(y));
    } else if (phrase.startsWith('last ') && MONTHS.includes(phrase.slice(5))) {
      // "last August": the latest August before this month.
      const mo = MONTHS.indexOf(phrase.slice(5)) + 1;
      monthRange(mo < month ? year : year - 1, mo);
    } else if (phrase === 'last year') add(dayNumber(year - 1, 1, 1), dayNumber(year - 1, 12, 31));
    else if (phrase === 'next year') add(dayNumber(year + 1, 1, 1), dayNumber(year + 1, 12, 31));
    else {
      const lasted =
        /\bfor (?:the (?:past|last) )?(?:(?:about|around|almost|nearly|over|just under|more than) )?(a couple of|\w+) (day|week|month|year)s?$/.exec(
          phrase,
        );
      if (lasted && /^(?:'ve|have|has|had|been)\b/.test(phrase)) {
        const n = COUNTS[lasted[1]!];
        if (n === undefined) continue;
        const unit = lasted[2]!;
        if (unit === 'day') add(d - n - 1, d - n + 1);
        else if (unit === 'week') add(d - 7 * n - 3, d - 7 * n + 3);
        else if (unit === 'month') monthRange(year, month - n);
        else add(dayNumber(year - n, 1, 1), dayNumber(year - n, 12, 31));
        continue;
      }
      const ago = /^(\w+|a couple of) (day|week|month|year)s? ago$/.exec(phrase);
      const named = /^(last|this|next) (monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/.exec(phrase);
      const nth = /^on the (\d{1,2})(?:st|nd|rd|th)$/.exec(phrase);
      if (ago) {
        const n = COUNTS[ago[1]!];
        if (n === undefined) continue;
        const unit = ago[2]!;
        if (unit === 'day') add(d - n);
        else if (unit === 'week') add(d - 7 * n - 3, d - 7 * n + 3);
        else if (unit === 'month') monthRange(year, month - n);
        else add(dayNumber(year - n, 1, 1), dayNumber(year - n, 12, 31));
      } else if (named) {
        const target = WEEKDAYS.indexOf(named[2]!);
        const back = (weekday(d) - target + 7) % 7;
        // "last Friday": the latest Friday before today; "this Tuesday": the latest one up to
        // today (tellers use it for the past); "next Monday": the first one after today.
        if (named[1] === 'last') add(d - (back === 0 ? 7 : back));
        else if (named[1] === 'this') add(d - back);
        else add(d + ((target - weekday(d) + 7) % 7 || 7));
      } else if (nth) {
        const day = Number(nth[1]);
        if (day < 1 || day > 31) continue;
        // The latest such day up to today: this month's, else last month's.
        const m0 = Number(m[3]) >= day ? month : month - 1;
        add(dayNumber(year, m0, day));
      }
    }
  }
  return out.map(([a, b]) => (a === b ? iso(a) : `${iso(a)}/${iso(b)}`));
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const COUNTS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  'a couple of': 2,
  couple: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  few: 3,
  ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [String(i + 1), i + 1])),
};

/** First month of each season (northern meteorological seasons: winter from December). */
const SEASON_START: Readonly<Record<string, number>> = { spring: 3, summer: 6, fall: 9, autumn: 9, winter: 12 };
const RELATIVE = new RegExp(
  [
    'the day (?:before|after) (?:yesterday|tomorrow)',
    'yesterday',
    'today',
    'tonight',
    'tomorrow',
    'the other day',
    // "this past weekend", abbreviated weekdays ("last Fri", "last Tues"; not "sun": "this sun").
    '(?:last|this|next|this\\s+past)\\s+(?:week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thu(?:rs?)?|fri|sat)',
    '(?:last|this)\\s+(?:summer|winter|spring|fall|autumn)',
    `last\\s+(?:${MONTHS.join('|')})`,
    'last\\s+night',
    'this\\s+(?:morning|afternoon|evening)',
    'the\\s+weekend',
    '(?:a couple of|\\w+)\\s+(?:days?|weeks?|months?|years?)\\s+ago',
    // A state that has lasted since then: "I've had them for 3 years", "been playing it for about
    // four months", "for just under a year".
    "(?:'ve|have|has|had|been)\\b[^.!?]{0,40}?\\bfor\\s+(?:the\\s+(?:past|last)\\s+)?(?:(?:about|around|almost|nearly|over|just\\s+under|more\\s+than)\\s+)?(?:a couple of|\\w+)\\s+(?:days?|weeks?|months?|years?)",
    'on\\s+the\\s+\\d{1,2}(?:st|nd|rd|th)',
  ]
    .map((p) => `\\b${p}\\b`)
    .join('|'),
  'g',
);

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
const weekday = (day: number): number => (((day + 4) % 7) + 7) % 7;

const iso = (day: number): string => new Date(day * 86_400_000).toISOString().slice(0, 10);
