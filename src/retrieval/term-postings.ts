import { termCounts } from '../text/text-terms.js';

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

/**
 * BM25 postings of every body, in memory, keyed by body key. Bodies are content-addressed and
 * immutable, so a body is indexed once, when the commit that writes it is applied (see
 * RetrievalIndex); which records carry a body, and whether they are valid at an epoch and
 * inside the caller's scopes, is decided per query. Typed arrays, not objects per posting: ~8
 * bytes a posting.
 */
export class TermPostings {
  private readonly lists = new Map<string, PostingList>();
  /** Length in terms of each body, by body key. */
  docLen = new Int32Array(1024);
  /** Length in UTF-16 code units of each body (what the character budget counts). */
  chars = new Int32Array(1024);
  /** Bodies with keys below this are indexed. */
  upTo = 0;

  /** Indexes the body with the next key; false (nothing done) when `bkey` is not the next one. */
  add(bkey: number, text: string): boolean {
    if (bkey !== this.upTo) return false;
    if (bkey >= this.docLen.length) {
      this.docLen = grow(this.docLen, Math.max(bkey + 1, this.docLen.length * 2));
      this.chars = grow(this.chars, this.docLen.length);
    }
    const { counts, length } = termCounts(text);
    this.docLen[bkey] = length;
    this.chars[bkey] = text.length;
    for (const [term, tf] of counts) {
      let list = this.lists.get(term);
      if (list === undefined) {
        list = new PostingList();
        this.lists.set(term, list);
      }
      list.push(bkey, tf);
    }
    this.upTo = bkey + 1;
    return true;
  }

  list(term: string): PostingList | undefined {
    return this.lists.get(term);
  }

  /** Postings held, for memory reports. */
  get size(): number {
    let n = 0;
    for (const l of this.lists.values()) n += l.length;
    return n;
  }
}

export function grow(a: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(capacity);
  b.set(a.subarray(0, Math.min(a.length, capacity)));
  return b;
}
