/**
 * Tokenisation for BM25 over code and prose: paths and identifiers split into their parts
 * (`src/can/parser.ts` → src, can, parser, ts; `parseStatus2` → parse, status, 2;
 * `REPLY_BASE` → reply, base), the whole identifier kept as well so exact names still match,
 * everything lower-cased, a few English stop words dropped, and a light suffix stemmer
 * (`stem`) so `camped`, `camping` and `camps` are one term. Pure and deterministic.
 */
import { IRREGULAR_BASE } from './irregular-forms.js';

const STOP = new Set(
  'a an and are as at be by for from has have he her his i in is it its of on or she that the their them they this to was were what when where which who will with you your did do does how over into about after before there then than so not no can could would should been being also just any all'.split(
    ' ',
  ),
);

const SPLIT = /(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])/;
/** Words that are one part already: lower-case letters, or digits (numbers, line counts, ids). */
const ONE_PART_WORD = /^(?:[a-z]+|[0-9]+)$/;

/**
 * Terms of words already seen. Indexing runs at commit over every body, and most of its words
 * recur: the split regex and the stemmer cost ~5 µs a word, a lookup a small fraction of that. Bounded: cleared when full (the mapping is pure, so the cache
 * changes no output).
 */
const WORD_TERMS = new Map<string, readonly string[]>();
const CACHE_LIMIT = 50_000;

/** The terms of one word (a run of `[A-Za-z0-9_]`), as `textTerms` gives them. */
export function wordTerms(word: string): readonly string[] {
  let terms = WORD_TERMS.get(word);
  if (terms !== undefined) return terms;
  terms = splitWord(word);
  if (WORD_TERMS.size >= CACHE_LIMIT) WORD_TERMS.clear();
  WORD_TERMS.set(word, terms);
  return terms;
}

/** `wordTerms` without its cache, for callers that remember words themselves (TermPostings:
 * a second cache of the same words cost a Map insert per new word, and its clearing). */
export function splitWord(word: string): string[] {
  const out: string[] = [];
  if (ONE_PART_WORD.test(word)) {
    // One part, already lower-case (digits have no case and `stem` leaves them alone): the
    // general path below gives the same single term.
    if (!STOP.has(word) && word.length <= 64) out.push(stem(word));
  } else {
    const parts = word
      .split('_')
      .flatMap((p) => p.split(SPLIT))
      .filter(Boolean)
      .map((p) => p.toLowerCase());
    const whole = word.toLowerCase();
    for (const p of parts) if (!STOP.has(p) && p.length <= 64) out.push(stem(p));
    if (parts.length > 1 && whole.length <= 64) out.push(whole);
  }
  return out;
}

export function textTerms(text: string): string[] {
  const out: string[] = [];
  forEachWord(text, (terms) => {
    for (let i = 0; i < terms.length; i++) out.push(terms[i]!);
  });
  return out;
}

/** Calls `each` with the terms of every word (a run of `[A-Za-z0-9_]`) of the text, scanning char codes: a regex
 * `exec` per word allocated a match array each and cost as much as the rest of indexing. */
function forEachWord(text: string, each: (terms: readonly string[]) => void): void {
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    const word = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
    if (word) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (!(i - start === 3 && isWontAt(text, start))) each(wordTerms(text.slice(start, i)));
      start = -1;
    }
  }
}

/**
 * Whether the word at `start` is the `won` of `won't` (will not: stop words both), so that it does
 * not become the term of `won` the past of `win` (`stem`'s irregular forms). The apostrophe is
 * ASCII or U+2019; `TermPostings` makes the same test on bytes (`isWontBytes`).
 */
function isWontAt(text: string, start: number): boolean {
  const q = text.charCodeAt(start + 3);
  if (q !== 39 && q !== 0x2019) return false;
  if ((text.charCodeAt(start) | 32) !== 119 || (text.charCodeAt(start + 1) | 32) !== 111) return false;
  if ((text.charCodeAt(start + 2) | 32) !== 110 || (text.charCodeAt(start + 4) | 32) !== 116) return false;
  const after = text.charCodeAt(start + 5); // NaN past the end
  return !(
    (after >= 97 && after <= 122) ||
    (after >= 65 && after <= 90) ||
    (after >= 48 && after <= 57) ||
    after === 95
  );
}

/**
 * A light English suffix stemmer (no dictionary), applied in order: `-ies` and `-ied` → `y` (so
 * `tried` and `studied` meet `try` and `study`, as `tries` and `studies` do), or a plural `-s`
 * (not `-ss`, `-us`, `-is`); then `-ing` or `-ed` (not `-eed`); then a final `e` and a doubled
 * final consonant go, always keeping at least three letters. Common irregular forms first become
 * their base (`ran` → run, `bought` → buy, `children` → child; see `irregular-forms.ts`), so a
 * question in one tense finds a turn in another; words with digits are left alone (identifiers
 * such as `crc8`). Over-stemming is
 * harmless as long as both the query and the bodies go through it: it only has to map the
 * inflections of one word together (`camp`, `camps`, `camped`, `camping` → camp).
 * @internal Exported for its unit tests.
 */
export function stem(word: string): string {
  let w = IRREGULAR_BASE.get(word) ?? word;
  if (w.length < 4 || /[^a-z]/.test(w)) return w;
  if ((w.endsWith('ies') || w.endsWith('ied')) && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length >= 6) w = w.slice(0, -3);
  else if (w.endsWith('ed') && !w.endsWith('eed') && w.length >= 5) w = w.slice(0, -2);
  if (w.endsWith('e') && w.length >= 4) w = w.slice(0, -1);
  if (w.length >= 4 && w[w.length - 1] === w[w.length - 2] && !/[lsz]/.test(w[w.length - 1]!)) w = w.slice(0, -1);
  return w;
}

/** Term frequencies of a text, and its length in terms. @internal Exported for its unit tests. */
export function termCounts(text: string): { counts: Map<string, number>; length: number } {
  const counts = new Map<string, number>();
  let length = 0;
  forEachWord(text, (terms) => {
    length += terms.length;
    for (let i = 0; i < terms.length; i++) counts.set(terms[i]!, (counts.get(terms[i]!) ?? 0) + 1);
  });
  return { counts, length };
}
