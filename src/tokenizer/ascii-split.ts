/**
 * Hand-written pre-tokenizers for ASCII text, equivalent to tiktoken's o200k_base and cl100k_base
 * split patterns restricted to ASCII. They scan the text's UTF-8 bytes (one `encodeInto`): the regex
 * split allocates a string per piece, and `charCodeAt` on a sliced string (a body cut from a
 * file) is several times slower than on a flat one, while typed-array reads cost the same for
 * every string. Pieces are then looked up by their bytes, unallocated.
 *
 * On ASCII the Unicode classes reduce to: \p{L} = [A-Za-z] (\p{Lu} = A-Z, \p{Ll} = a-z; no Lt, Lm,
 * Lo or M), \p{N} = [0-9], White_Space = [\t\n\v\f\r ]. Every alternative of both patterns is
 * decided by the characters from the piece's start up to and including the one that ends it, so a
 * scanner returns NON_ASCII as soon as it reads a byte >= 0x80 (before it, byte and UTF-16
 * indices agree) and the caller splits the rest
 * of the text, from that piece's start, with the exact regex (a regex match starting at p depends
 * only on text from p on: the patterns have no lookbehind or anchors).
 */

/** Returned when the piece's extent depends on a non-ASCII character. */
export const NON_ASCII = -1;

/** Returns the end (exclusive) of the piece starting at `p < n` in the UTF-8 bytes `b[0, n)`, or
 * NON_ASCII. `b[n]` must hold END_BYTE (the buffer is reused scratch: what follows is stale);
 * no byte past it is read. */
export type PieceScanner = (b: Uint8Array, n: number, p: number) => number;

/** The byte a scanner's caller writes after the text: 0xFF never occurs in UTF-8, so the class
 * table maps it to END and the scanners need no bounds check per byte (a third of their time). */
export const END_BYTE = 0xff;

const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const NEWLINE = 4; // \r \n
const BLANK = 5; // \t \v \f space
const OTHER = 6; // punctuation, symbols, other control characters
const OUTSIDE = 7; // >= 0x80
const END = 8; // past the end of the text

const CLASS = new Uint8Array(256).fill(OUTSIDE);
CLASS.fill(OTHER, 0, 128);
for (let c = 65; c <= 90; c++) CLASS[c] = UPPER;
for (let c = 97; c <= 122; c++) CLASS[c] = LOWER;
for (let c = 48; c <= 57; c++) CLASS[c] = DIGIT;
CLASS[10] = NEWLINE;
CLASS[13] = NEWLINE;
for (const c of [9, 11, 12, 32]) CLASS[c] = BLANK;
CLASS[END_BYTE] = END;

/** Class of the byte at `i <= n` (at `n`, the END_BYTE the caller wrote). */
function classAt(b: Uint8Array, _n: number, i: number): number {
  return CLASS[b[i]!]!;
}

const isLetter = (k: number): boolean => k === UPPER || k === LOWER;
const isWhite = (k: number): boolean => k === NEWLINE || k === BLANK;

/**
 * `(?i:'s|'t|'re|'ve|'m|'ll|'d)` at `i`: its length (0 when absent), or NON_ASCII when a character
 * it reads is non-ASCII (Unicode case folding could make it match, e.g. U+017F for 's').
 */
function contraction(b: Uint8Array, n: number, i: number): number {
  if (i + 1 >= n || b[i] !== 39) return 0;
  const a = b[i + 1]!;
  if (a >= 128) return NON_ASCII;
  const l = a | 0x20; // lower-cases ASCII letters (only 'X' and 'x' map to 'x')
  if (l === 0x73 || l === 0x74 || l === 0x6d || l === 0x64) return 2; // s t m d
  if (l !== 0x72 && l !== 0x76 && l !== 0x6c) return 0; // r v l
  if (i + 2 >= n) return 0;
  const c = b[i + 2]!;
  if (c >= 128) return NON_ASCII;
  const m = c | 0x20;
  if ((l === 0x72 || l === 0x76) && m === 0x65) return 3; // re ve
  if (l === 0x6c && m === 0x6c) return 3; // ll
  return 0;
}

/** End of the whitespace run starting at `p`, split as `\s*[\r\n]+|\s+(?!\S)|\s+` does. */
function whitespace(b: Uint8Array, n: number, p: number): number {
  let end = p;
  let lastNewline = -1;
  let k = classAt(b, n, end);
  while (isWhite(k)) {
    if (k === NEWLINE) lastNewline = end;
    k = classAt(b, n, ++end);
  }
  if (k === OUTSIDE) return NON_ASCII; // Unicode white space may extend the run
  if (lastNewline >= 0) return lastNewline + 1; // \s*[\r\n]+ : up to the run's last newline
  if (end === n) return end; // \s+(?!\S) at the end of the text
  if (end - p >= 2) return end - 1; // \s+(?!\S) : all but the last, which prefixes what follows
  return end; // \s+
}

/** A run of `[^\s\p{L}\p{N}]` from `i`; NON_ASCII if it stops at a non-ASCII character. */
function otherRun(b: Uint8Array, n: number, i: number): number {
  let k = classAt(b, n, i);
  while (k === OTHER) k = classAt(b, n, ++i);
  return k === OUTSIDE ? NON_ASCII : i;
}

/** A run of the bytes `x`, `y` or `z` (all ASCII) from `i`. */
function runOf(b: Uint8Array, n: number, i: number, x: number, y: number, z: number): number {
  for (; i < n; i++) {
    const c = b[i]!;
    if (c !== x && c !== y && c !== z) break;
  }
  return i;
}

/** Up to three digits. */
function digits(b: Uint8Array, n: number, p: number): number {
  let end = p + 1;
  while (end < p + 3 && classAt(b, n, end) === DIGIT) end++;
  // A non-ASCII digit (\p{N}) could extend a run shorter than three.
  return end < p + 3 && classAt(b, n, end) === OUTSIDE ? NON_ASCII : end;
}

/**
 * o200k_base:
 * `[^\r\n\p{L}\p{N}]?[\p{Lu}…]*[\p{Ll}…]+(?i:'s|…)?|[^\r\n\p{L}\p{N}]?[\p{Lu}…]+[\p{Ll}…]*(?i:'s|…)?`
 * `|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
 */
const o200kAscii: PieceScanner = (b, n, p) => {
  const k = classAt(b, n, p);
  if (k === OUTSIDE) return NON_ASCII;
  // Letters, optionally after one character that is not \r, \n, a letter or a digit.
  let q = p;
  if (k === OTHER || k === BLANK) {
    const next = classAt(b, n, p + 1);
    if (next === OUTSIDE) return NON_ASCII;
    if (isLetter(next)) q = p + 1;
  }
  if (isLetter(classAt(b, n, q))) {
    let u = q;
    while (classAt(b, n, u) === UPPER) u++;
    let l = u;
    while (classAt(b, n, l) === LOWER) l++;
    // Upper* lower+ when there is a lower-case run, else upper+ (the second alternative).
    if (classAt(b, n, l) === OUTSIDE) return NON_ASCII;
    const c = contraction(b, n, l);
    return c === NON_ASCII ? NON_ASCII : l + c;
  }
  if (k === DIGIT) return digits(b, n, p);
  // ` ?[^\s\p{L}\p{N}]+[\r\n/]*`
  const s = k === BLANK && b[p] === 32 && classAt(b, n, p + 1) === OTHER ? p + 1 : p;
  if (classAt(b, n, s) === OTHER) {
    const end = otherRun(b, n, s);
    return end === NON_ASCII ? NON_ASCII : runOf(b, n, end, 10, 13, 47);
  }
  return whitespace(b, n, p);
};

/**
 * cl100k_base:
 * `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*`
 * `|\s*[\r\n]+|\s+(?!\S)|\s+`
 */
const cl100kAscii: PieceScanner = (b, n, p) => {
  const k = classAt(b, n, p);
  if (k === OUTSIDE) return NON_ASCII;
  const c = contraction(b, n, p);
  if (c !== 0) return c === NON_ASCII ? NON_ASCII : p + c;
  let q = p;
  if (k === OTHER || k === BLANK) {
    const next = classAt(b, n, p + 1);
    if (next === OUTSIDE) return NON_ASCII;
    if (isLetter(next)) q = p + 1;
  }
  if (isLetter(classAt(b, n, q))) {
    let end = q;
    while (isLetter(classAt(b, n, end))) end++;
    return classAt(b, n, end) === OUTSIDE ? NON_ASCII : end;
  }
  if (k === DIGIT) return digits(b, n, p);
  const s = k === BLANK && b[p] === 32 && classAt(b, n, p + 1) === OTHER ? p + 1 : p;
  if (classAt(b, n, s) === OTHER) {
    const end = otherRun(b, n, s);
    return end === NON_ASCII ? NON_ASCII : runOf(b, n, end, 10, 13, 10);
  }
  return whitespace(b, n, p);
};

/** The scanner for a tiktoken split pattern, or null when the pattern is not one of these two. */
export function asciiScannerFor(patStr: string): PieceScanner | null {
  return ASCII_SCANNERS.get(patStr) ?? null;
}

const ASCII_SCANNERS = new Map<string, PieceScanner>([
  [
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
    o200kAscii,
  ],
  [
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
    cl100kAscii,
  ],
]);
