import { ByteKeyTable, FNV_OFFSET, FNV_PRIME } from '../text/byte-key-table.js';
import { Utf8Scratch } from '../text/utf8-scratch.js';
import { asciiScannerFor, END_BYTE, NON_ASCII } from './ascii-split.js';
import { bpeTokenCount } from './heap-bpe.js';
import { RankTable } from './rank-table.js';
import type { TokenCounter } from './token-counter.js';

/** Pieces longer than this are counted directly: they are rarely repeated. */
const MAX_CACHED_PIECE = 48;

/**
 * Pieces of more UTF-8 bytes than this are counted by the heap merge (heap-bpe.ts), not by
 * tiktoken, whose merge is quadratic in the piece: the two cost the same near 500 bytes of a
 * one-letter run (the piece with most merges per byte), and below it tiktoken is faster.
 */
const LONG_PIECE_BYTES = 512;

/**
 * tiktoken's WASM encoder runs at ~3.5 MB/s here (~145 µs for a 500-character body), which alone
 * would cap commits near 7k bodies/s. Its output is the concatenation of BPE over regex
 * pre-tokens, so the count of a text is the sum of the counts of its pieces: split in JS with the
 * encoding's own pattern and count each distinct piece once through tiktoken (cached). Exactness
 * rests on the JS split agreeing with tiktoken's Rust regex; a test compares both over real and
 * random text.
 *
 * ASCII stretches are split by a hand-written scanner of the same pattern (ascii-split.ts,
 * several times cheaper than the regex) and looked up without allocating the piece; from the first piece whose
 * extent depends on a non-ASCII character on, the text is split by the regex. Before pieces,
 * ASCII text is cut into chunks at boundaries both patterns share (CUT_AFTER) and each chunk is
 * looked up whole: token counting of repeated text costs one probe per chunk (~2 pieces).
 */
export function withPieceCache(
  base: TokenCounter,
  patStr: string,
  { bpeRanks, maxEntries = 200_000 }: { bpeRanks?: string; maxEntries?: number } = {},
): TokenCounter {
  // Built on the first over-long piece only (~0.1 s, ~4 MB): most ledgers never see one.
  let ranks: RankTable | null = null;
  const countLong = (b: Uint8Array, start: number, end: number): number => {
    ranks ??= new RankTable(bpeRanks!);
    return bpeTokenCount(ranks, b, start, end);
  };
  const countLongString = (piece: string): number => {
    const n = pieceScratch.encode(piece);
    return countLong(pieceScratch.bytes, 0, n);
  };
  const long = bpeRanks !== undefined;
  const pattern = new RegExp(toJsPattern(patStr), 'gu');
  const scan = asciiScannerFor(patStr);
  // Token counts of ASCII pieces keyed by their bytes in the text's encoding (no string per
  // lookup); cleared, not evicted, when full.
  const table = new ByteKeyTable(4096);
  // Pieces of one or two bytes (36–47% of pieces in transcripts and code) by their bytes as an
  // index, with no hash and no probe: every ASCII byte pair has a slot (-1 until counted).
  const short = new Int8Array(SHORT_SLOTS).fill(-1);
  // Counts of whole chunks (see CUT_AFTER), apart: chunks that never repeat (ids, hashes, numbers)
  // would otherwise fill the piece table and have it cleared.
  const chunks = new ByteKeyTable(4096);
  const byString = new Map<string, number>(); // pieces the regex split (non-ASCII stretches)
  const countString = (piece: string): number => {
    if (piece.length > MAX_CACHED_PIECE)
      return long && piece.length * 3 > LONG_PIECE_BYTES ? countLongString(piece) : base.count(piece);
    let n = byString.get(piece);
    if (n === undefined) {
      n = base.count(piece);
      if (byString.size >= maxEntries) byString.clear();
      byString.set(piece, n);
    }
    return n;
  };
  const countByRegex = (text: string, from: number): number => {
    let total = 0;
    pattern.lastIndex = from;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) total += countString(m[0]);
    return total;
  };
  /** The summed counts of the pieces from `p` up to `stop` (a piece boundary) in ASCII bytes, or
   * NON_ASCII when a piece's extent depends on a non-ASCII byte or crosses `stop`. */
  const asciiPieces = (text: string, b: Uint8Array, n: number, p: number, stop: number): number => {
    let total = 0;
    while (p < stop) {
      const end = scan!(b, n, p);
      if (end === NON_ASCII || end > stop) return NON_ASCII;
      total += pieceCount(text, b, p, end);
      p = end;
    }
    return total;
  };
  const pieceCount = (text: string, b: Uint8Array, p: number, end: number): number => {
    if (end - p <= 2) {
      const slot = end - p === 1 ? b[p]! : 128 + ((b[p]! << 7) | b[p + 1]!);
      let c = short[slot]!;
      if (c < 0) {
        c = base.count(text.slice(p, end));
        short[slot] = c;
      }
      return c;
    }
    if (end - p > MAX_CACHED_PIECE)
      return long && end - p > LONG_PIECE_BYTES ? countLong(b, p, end) : base.count(text.slice(p, end));
    const h = ByteKeyTable.hash(b, p, end);
    let c = table.get(b, p, end, h);
    if (c < 0) {
      c = base.count(text.slice(p, end));
      if (table.size >= maxEntries) table.clear();
      table.set(b, p, end, h, c);
    }
    return c;
  };
  /** Counts the text from `p` on, piece by piece; from the first piece whose extent depends on a
   * non-ASCII character on, by the regex (`p` must follow ASCII bytes only). */
  const tail = (text: string, b: Uint8Array, n: number, p: number): number => {
    let total = 0;
    while (p < n) {
      const end = scan!(b, n, p);
      if (end === NON_ASCII) return total + countByRegex(text, p); // bytes before p are ASCII: p is also the UTF-16 index
      total += pieceCount(text, b, p, end);
      p = end;
    }
    return total;
  };
  return {
    encoding: base.encoding,
    count(text: string): number {
      if (!scan) return countByRegex(text, 0);
      const n = scratch.encode(text);
      const b = scratch.bytes;
      b[n] = END_BYTE;
      let total = 0;
      // Chunk by chunk (see CUT_AFTER), each looked up whole: most chunks of real text repeat
      // (" return", " the", "data,"), so most are one hash and one probe instead of a scan,
      // a hash and a probe per piece (~2 pieces a chunk).
      for (let p = 0; p < n; ) {
        let h = FNV_OFFSET;
        let bits = 0;
        let q = p;
        do {
          const c = b[q]!;
          h = Math.imul(h ^ c, FNV_PRIME); // = ByteKeyTable.hash over the chunk, built as it is scanned
          bits |= c;
          q++;
        } while (q < n && (b[q] !== 0x20 || CUT_AFTER[b[q - 1]!] === 0));
        if (bits >= 0x80) return total + tail(text, b, n, p); // bytes before p are ASCII
        let c = q - p > MAX_CACHED_CHUNK ? NON_ASCII : chunks.get(b, p, q, h);
        if (c < 0) {
          c = asciiPieces(text, b, n, p, q);
          if (c < 0) return total + tail(text, b, n, p);
          if (q - p <= MAX_CACHED_CHUNK) {
            if (chunks.size >= maxEntries) chunks.clear();
            chunks.set(b, p, q, h, c);
          }
        }
        total += c;
        p = q;
      }
      return total;
    },
  };
}

/**
 * Chunks: a text is cut before every space that follows an ASCII byte other than white space.
 * Both patterns have a piece boundary there — no alternative matches across it: letter, digit and
 * contraction runs stop at a space; `[^\s\p{L}\p{N}]+[\r\n/]*` stops at it; a piece holding
 * the non-white byte is no white-space piece, and the only optional leading space (` ?`) opens
 * a piece — and a match starting at a position depends only on the text from there on up to the
 * character that ends it (no lookbehind; the `(?!\S)` lookahead of a white-space run inside a
 * chunk reads a character of the chunk, since every chunk ends on a non-white byte or at the text's
 * end). So a chunk splits alone exactly as it does in its text, its count is the sum of its
 * pieces' counts, and it can be cached like a piece (equal bytes, equal counts, whichever they
 * are). White-space runs are never cut.
 */
const CUT_AFTER = new Uint8Array(256);
for (let c = 0; c < 128; c++) CUT_AFTER[c] = 1;
for (const c of [9, 10, 11, 12, 13, 32]) CUT_AFTER[c] = 0;

/** Chunks longer than this are counted piece by piece and not remembered. */
const MAX_CACHED_CHUNK = 64;

/** Slots of the short-piece table: one per ASCII byte, then one per ordered pair of them (a
 * scanner only returns ASCII pieces). */
const SHORT_SLOTS = 128 + 128 * 128;

/** UTF-8 of the text being counted; counting is synchronous, so one buffer serves every counter. */
const scratch = new Utf8Scratch();
/** UTF-8 of one over-long piece the regex split (the text's own bytes stay in `scratch`). */
const pieceScratch = new Utf8Scratch();

/** Unicode White_Space, which Rust's `\s` means; JS `\s` differs (it lacks U+0085, adds U+FEFF). */
const WHITE_SPACE = '\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000';

/** Non-ASCII characters whose Unicode simple case folding is an ASCII letter: Rust's `(?i)`
 * matches them too (tiktoken splits "it'ſ" like "it's"). */
const FOLDS_TO: Readonly<Record<string, string>> = { s: '\u017F', k: '\u212A' };

/** `(?i:a|b)` as explicit classes; alternatives with a letter that has a non-ASCII fold get a
 * second, folded spelling after the ASCII group (the two never match the same text). */
function caseInsensitive(alts: string): string {
  const cased = (alt: string, folds: boolean) =>
    alt.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}${folds ? (FOLDS_TO[c] ?? '') : ''}]`);
  const ascii = `(?:${cased(alts, false)})`;
  const folded = alts.split('|').filter((alt) => [...alt].some((c) => FOLDS_TO[c] !== undefined));
  return folded.length === 0 ? ascii : `(?:${ascii}|${folded.map((alt) => cased(alt, true)).join('|')})`;
}

/**
 * Rewrites a tiktoken `pat_str` (Rust regex syntax) into an equivalent JS `u`-flag pattern:
 * the `(?i:…)` contraction group becomes explicit case classes (no inline modifiers in Node 20),
 * and `\s` / `\S` become explicit White_Space classes.
 * @internal Exported for its unit tests.
 */
export function toJsPattern(patStr: string): string {
  return patStr
    .replace(/\(\?i:([^)]*)\)/g, (_, alts: string) => caseInsensitive(alts))
    .replace(/\[\^\\s/g, `[^${WHITE_SPACE}`)
    .replace(/\\s/g, `[${WHITE_SPACE}]`)
    .replace(/\\S/g, `[^${WHITE_SPACE}]`);
}
