import { LedgerError } from '../errors.js';

/**
 * The one rule for text: the ledger accepts a string only if it comes back exactly — live and
 * restored, through Arrow, DuckDB and the log, in Node, workerd and Chromium. Measured on this
 * stack (test/ledger/validation-text.test.ts pins each case):
 *
 * - A lone surrogate has no UTF-8 form: Arrow's and DuckDB's encoders write U+FFFD, so two ids
 *   differing only there collapse into one, and an authority scope changes meaning. Rejected in
 *   every string.
 * - A leading U+FEFF is taken for a byte-order mark and dropped by the UTF-8 decoder Arrow reads
 *   results with (`TextDecoder` without `ignoreBOM`). Rejected at the start of every string, and
 *   anywhere in names (ids, paths, scopes, revisions, tools, verifiers), where an invisible
 *   character would make two ids that print alike.
 * - NUL, RTL marks, combining marks, U+FFFE/U+FFFF and astral characters round-trip, so bodies
 *   and meta keep them (names reject control characters for their own reasons). Nothing is
 *   normalised: NFC and NFD spellings are different strings, compared code unit by code unit.
 */

// With the `u` flag a well-formed pair is one astral code point, so only lone halves match.
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const BOM = '\ufeff';

export type TextKind = 'name' | 'text';

/** Whether `s` holds a lone surrogate. `isWellFormed` (Node 20, workerd, Chromium 111+) is a
 * native scan: the regex over every body cost ~1 µs each on bulk commits. */
const hasLoneSurrogate: (s: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (s) => !(s as string & { isWellFormed(): boolean }).isWellFormed()
    : (s) => LONE_SURROGATE.test(s);

/** Why `s` breaks the rule, or null when it round-trips. */
function textProblem(s: string, kind: TextKind): string | null {
  if (hasLoneSurrogate(s)) return 'contains a lone surrogate (not well-formed UTF-16; it has no UTF-8 form)';
  if (s.charCodeAt(0) === 0xfeff) return 'starts with U+FEFF, which UTF-8 decoders drop as a byte-order mark';
  if (kind === 'name' && s.includes(BOM)) return 'contains U+FEFF (an invisible byte-order mark) in a name';
  return null;
}

/** Throws INVALID_TEXT naming `field` when `s` breaks the rule. */
export function checkText(s: string, kind: TextKind, field: () => string): void {
  const problem = textProblem(s, kind);
  if (problem !== null) throw new LedgerError('INVALID_TEXT', { field: field(), reason: problem });
}

/**
 * Checks every string in a request (materialize, retrieve) for lone surrogates: ids and scopes
 * are looked up or sent to SQL as UTF-8, where a lone half would turn into U+FFFD and could match
 * a stored U+FFFD — an authority scope the caller never named. Walks plain objects and arrays
 * only, a few levels deep (requests are shallow); other values are the resolvers' business.
 */
export function checkRequestText(value: unknown, field = '', depth = 0): void {
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value)) {
      throw new LedgerError('INVALID_TEXT', { field, reason: 'contains a lone surrogate (not well-formed UTF-16)' });
    }
    return;
  }
  if (depth > 4 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) checkRequestText(value[i], `${field}[${i}]`, depth + 1);
    return;
  }
  if (ArrayBuffer.isView(value)) return;
  for (const key of Object.keys(value)) {
    const sub = field === '' ? key : `${field}.${key}`;
    if (LONE_SURROGATE.test(key))
      throw new LedgerError('INVALID_TEXT', { field: sub, reason: 'a key contains a lone surrogate' });
    checkRequestText((value as Record<string, unknown>)[key], sub, depth + 1);
  }
}
