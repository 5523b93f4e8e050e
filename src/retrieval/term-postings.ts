import { ByteKeyTable, FNV_OFFSET, FNV_PRIME } from '../text/byte-key-table.js';
import { splitWord } from '../text/text-terms.js';
import { Utf8Scratch } from '../text/utf8-scratch.js';

/** One term's postings: body keys in ascending order (bodies are indexed in key order) and term frequencies. */
export class PostingList {
  bkeys = new Int32Array(4);
  tfs = new Int32Array(4);
  length = 0;

  push(bkey: number, tf: number): void {
    if (this.length === this.bkeys.length) {
      this.bkeys = grow(this.bkeys, this.length * 2);
      this.tfs = grow(this.tfs, this.length * 2);
    }
    this.bkeys[this.length] = bkey;
    this.tfs[this.length++] = tf;
  }

  /** Whether the body holds the term (binary search: the keys ascend). */
  has(bkey: number): boolean {
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const k = this.bkeys[mid]!;
      if (k === bkey) return true;
      if (k < bkey) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}

/** Words longer than this (in bytes, all ASCII) are split each time rather than remembered:
 * they are rarely repeated (hex blobs, base64). */
const MAX_REMEMBERED_WORD = 64;

/**
 * BM25 postings of every body, in memory, keyed by body key. Bodies are content-addressed and
 * immutable, so a body is indexed once, when the commit that writes it is applied (see
 * RetrievalIndex); which records carry a body, and whether they are valid at an epoch and
 * inside the caller's scopes, is decided per query. Typed arrays, not objects per posting: ~8
 * bytes a posting.
 *
 * Indexing runs on every commit, so it is built to cost a small part of one (issue 11: at most
 * a tenth): the body's UTF-8 is scanned for words (the runs of `[A-Za-z0-9_]` that `textTerms`
 * splits on — all ASCII, so the byte scan finds the same words), each word is looked up by its
 * bytes in a table of words already seen (no string per word), which gives its terms as integer
 * ids, and term frequencies are counted in a dense array. Only a word never seen before goes
 * through `wordTerms` (the split and the stemmer) and the term dictionary. The terms and their
 * counts are exactly `termCounts(text)`'s.
 */
export class TermPostings {
  /** Term (its bytes: terms are ASCII, being parts of ASCII words) → id; `lists[id]` is its
   * postings. A byte-keyed table, not a Map of strings: a word of digits alone is its own term
   * and is interned from the body's bytes with no string made, and most new words of real bodies
   * (numbers, ids) are such words; a Map insert of a new string per new term was ~15% of
   * indexing a bulk commit's bodies, and the Map's 100k strings were heap the collector walked. */
  private readonly termIds = new ByteKeyTable(1 << 14);
  /** A term's postings once it has two; until then its one posting is `single*[id]`. Most terms
   * of real bodies (numbers, ids, hashes) occur in one body only, and a PostingList with its two
   * arrays per new term was most of the cost of a new word. */
  private lists: Array<PostingList | undefined> = [];
  private singleBkey = new Int32Array(1024);
  private singleTf = new Int32Array(1024);
  /** Word bytes → offset in `wordTerms`, which holds the word's term count then its term ids. */
  private readonly words = new ByteKeyTable(1 << 14);
  private wordTermIds = new Int32Array(1 << 16);
  private wordTermsUsed = 0;
  /** Per-body scratch: frequency by term id, and the ids touched. */
  private tf = new Int32Array(1024);
  private touched = new Int32Array(256);
  /** Length in terms of each body, by body key. */
  docLen = new Int32Array(1024);
  /** Length in UTF-16 code units of each body (what the character budget counts). */
  chars = new Int32Array(1024);
  /** Bodies with keys below this are indexed. */
  upTo = 0;

  /** `maxWords`: distinct words remembered before the word table starts over (the terms stay). */
  constructor(private readonly maxWords = 1 << 20) {}

  /** Indexes the body with the next key; false (nothing done) when `bkey` is not the next one. */
  add(bkey: number, text: string): boolean {
    if (bkey !== this.upTo) return false;
    if (bkey >= this.docLen.length) {
      this.docLen = grow(this.docLen, Math.max(bkey + 1, this.docLen.length * 2));
      this.chars = grow(this.chars, this.docLen.length);
    }
    const n = scratch.encode(text);
    const b = scratch.bytes;
    b[n] = 0; // not a word byte: a word's scan stops at the text's end with no bounds check
    let length = 0;
    let tf = this.tf;
    let touched = this.touched;
    let touchedCount = 0;
    for (let i = 0; ; ) {
      while (i < n && WORD_CLASS[b[i]!] === 0) i++;
      if (i >= n) break;
      const start = i;
      let h = FNV_OFFSET;
      let classes = 0;
      for (let k = WORD_CLASS[b[i]!]!; k !== 0; k = WORD_CLASS[b[++i]!]!) {
        h = Math.imul(h ^ b[i]!, FNV_PRIME); // = ByteKeyTable.hash over the word, built as it is scanned
        classes |= k;
      }
      if (i - start === 3 && isWontBytes(b, start)) continue; // `won't`: see isWontAt
      let at = i - start <= MAX_REMEMBERED_WORD ? this.words.get(b, start, i, h) : -1;
      if (at < 0) {
        at = this.rememberWord(b, start, i, h, classes);
        tf = this.tf; // grown when the word brought new terms
      }
      const ids = this.wordTermIds;
      const count = ids[at]!;
      length += count;
      for (let k = at + 1; k <= at + count; k++) {
        const id = ids[k]!;
        if (tf[id] === 0) {
          if (touchedCount === touched.length) touched = this.touched = grow(touched, touchedCount * 2);
          touched[touchedCount++] = id;
        }
        tf[id]!++;
      }
    }
    this.docLen[bkey] = length;
    this.chars[bkey] = text.length;
    const { lists, singleBkey, singleTf } = this;
    for (let k = 0; k < touchedCount; k++) {
      const id = touched[k]!;
      const list = lists[id];
      if (list !== undefined) list.push(bkey, tf[id]!);
      else if (singleBkey[id] === -1) {
        singleBkey[id] = bkey;
        singleTf[id] = tf[id]!;
      } else {
        const l = new PostingList();
        l.push(singleBkey[id]!, singleTf[id]!);
        l.push(bkey, tf[id]!);
        lists[id] = l;
      }
      tf[id] = 0;
    }
    this.upTo = bkey + 1;
    return true;
  }

  list(term: string): PostingList | undefined {
    const n = asciiBytes(term);
    if (n < 0) return undefined; // no term has a non-ASCII character
    const id = this.termIds.get(termScratch, 0, n, ByteKeyTable.hash(termScratch, 0, n));
    if (id < 0) return undefined;
    let list = this.lists[id];
    if (list === undefined) {
      // Its one posting becomes a list (kept: the next body with the term appends to it).
      list = new PostingList();
      list.push(this.singleBkey[id]!, this.singleTf[id]!);
      this.lists[id] = list;
    }
    return list;
  }

  /** Postings held, for memory reports. */
  get size(): number {
    let n = 0;
    for (let id = 0; id < this.lists.length; id++) n += this.lists[id]?.length ?? 1;
    return n;
  }

  /** Splits a word seen for the first time, interns its terms, and (when short enough) remembers
   * it; returns the offset of its term count and ids in `wordTermIds`. `classes`: the WORD_CLASS
   * bits of its bytes. A word of digits alone is its own one term (`splitWord` gives exactly
   * that: no stop word or stem applies to digits), so it skips the split. */
  private rememberWord(b: Uint8Array, start: number, end: number, h: number, classes: number): number {
    const digits = classes === DIGIT && end - start <= 64;
    const terms = digits ? null : splitWord(latin1(b, start, end));
    const termCount = terms === null ? 1 : terms.length;
    const remember = end - start <= MAX_REMEMBERED_WORD;
    if (remember && this.words.size >= this.maxWords) {
      this.words.clear();
      this.wordTermsUsed = 0;
    }
    // A word not remembered is written past the remembered ones and overwritten by the next.
    const at = this.wordTermsUsed;
    if (at + termCount + 1 > this.wordTermIds.length)
      this.wordTermIds = grow(this.wordTermIds, Math.max(this.wordTermIds.length * 2, at + termCount + 1));
    this.wordTermIds[at] = termCount;
    if (terms === null) this.wordTermIds[at + 1] = this.termIdOfBytes(b, start, end, h);
    else
      for (let k = 0; k < terms.length; k++) {
        const n = asciiBytes(terms[k]!);
        this.wordTermIds[at + 1 + k] = this.termIdOfBytes(termScratch, 0, n, ByteKeyTable.hash(termScratch, 0, n));
      }
    if (remember) {
      this.words.set(b, start, end, h, at);
      this.wordTermsUsed = at + termCount + 1;
    }
    return at;
  }

  /** The id of the term spelled by `b[start, end)` (hash `h`), interned when new. */
  private termIdOfBytes(b: Uint8Array, start: number, end: number, h: number): number {
    let id = this.termIds.get(b, start, end, h);
    if (id < 0) {
      id = this.lists.length;
      this.termIds.set(b, start, end, h, id);
      this.lists.push(undefined);
      if (id >= this.tf.length) this.tf = grow(this.tf, this.tf.length * 2);
      if (id >= this.singleBkey.length) {
        const old = this.singleBkey.length;
        this.singleBkey = grow(this.singleBkey, old * 2);
        this.singleTf = grow(this.singleTf, old * 2);
      }
      this.singleBkey[id] = -1;
    }
    return id;
  }
}

/** A term's bytes in `termScratch` (terms are short: at most 64 characters), or -1 when it has a
 * non-ASCII character. */
let termScratch = new Uint8Array(128);
function asciiBytes(term: string): number {
  if (term.length > termScratch.length) termScratch = new Uint8Array(term.length * 2);
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    if (c >= 0x80) return -1;
    termScratch[i] = c;
  }
  return term.length;
}

/** Bytes of `[A-Za-z0-9_]` by class bit (0: not a word byte), one table read per byte. */
const DIGIT = 1;
const WORD_CLASS = new Uint8Array(256);
for (let c = 48; c <= 57; c++) WORD_CLASS[c] = DIGIT;
for (let c = 65; c <= 90; c++) WORD_CLASS[c] = 2;
for (let c = 97; c <= 122; c++) WORD_CLASS[c] = 4;
WORD_CLASS[95] = 8;

/** UTF-8 of the body being indexed; indexing is synchronous, so one buffer serves every index. */
const scratch = new Utf8Scratch();

const decoder = new TextDecoder();
/** The string of an ASCII byte run, of any length (a word can be a megabyte of base64). Short
 * runs are built from char codes: a subarray and a decoder call cost more than the word. */
function latin1(b: Uint8Array, start: number, end: number): string {
  if (end - start > 16) return decoder.decode(b.subarray(start, end));
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(b[i]!);
  return s;
}

export function grow(a: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(capacity);
  // No subarray when growing (the usual case): a view per call is garbage on the commit path.
  b.set(a.length <= capacity ? a : a.subarray(0, capacity));
  return b;
}

/** `isWontAt` over the UTF-8 bytes of a body (`b` ends with a non-word byte, so the scan stops
 * there): `won` then an ASCII apostrophe or U+2019 (E2 80 99), `t`, and no further word byte. */
function isWontBytes(b: Uint8Array, start: number): boolean {
  if ((b[start]! | 32) !== 119 || (b[start + 1]! | 32) !== 111 || (b[start + 2]! | 32) !== 110) return false;
  let t = start + 3;
  if (b[t] === 39) t += 1;
  else if (b[t] === 0xe2 && b[t + 1] === 0x80 && b[t + 2] === 0x99) t += 3;
  else return false;
  return (b[t]! | 32) === 116 && WORD_CLASS[b[t + 1]!] === 0;
}
