import type { TermPostings } from '../retrieval/term-postings.js';
import { bm25LengthNorm } from '../scoring/bm25.js';

/**
 * The bodies a BM25 scan ranks (`visibleBodies` > 0; N and the mean length over them) and what
 * the scan derives from them alone: each body's length normalisation and each term's document
 * frequency among them. Kept as long as the bodies are (the lexical channel's lives with the
 * visible set, until the next commit or another epoch or scope), so a query pays neither a
 * division per posting for the length nor, for a term already asked about, a pass over its
 * postings for its df.
 *
 * Valid however the postings grow: a body indexed later has a key at or past
 * `visibleBodies.length`, which no scan counts, and an indexed body never changes.
 */
export class Bm25Corpus {
  private norms: Float64Array | null = null;
  private readonly dfs = new Map<string, number>();

  constructor(
    readonly postings: TermPostings,
    /** Visible records per body key (0: invisible); only visible bodies score or count. */
    readonly visibleBodies: Int32Array,
    /** Visible bodies and their mean length: BM25's N and avgdl. */
    readonly docs: number,
    readonly avgdl: number,
  ) {}

  /** `bm25LengthNorm` of every body by key (invisible ones too: one branch-free pass). */
  lengthNorms(): Float64Array {
    if (this.norms !== null) return this.norms;
    const n = this.visibleBodies.length;
    const norms = new Float64Array(n);
    const { docLen } = this.postings;
    for (let k = 0; k < n; k++) norms[k] = bm25LengthNorm(docLen[k]!, this.avgdl);
    this.norms = norms;
    return norms;
  }

  /** How many visible bodies hold the term. */
  df(term: string): number {
    let df = this.dfs.get(term);
    if (df !== undefined) return df;
    df = 0;
    const list = this.postings.list(term);
    if (list !== undefined) {
      const { bkeys } = list;
      const visible = this.visibleBodies;
      const n = visible.length;
      for (let i = 0; i < list.length; i++) {
        const k = bkeys[i]!;
        if (k < n && visible[k]! > 0) df++;
      }
    }
    this.dfs.set(term, df);
    return df;
  }
}
