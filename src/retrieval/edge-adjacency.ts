import { EDGE_KINDS, type EdgeKind } from '../schema/kinds.js';
import { grow } from './term-postings.js';

const KIND_INDEX: ReadonlyMap<string, number> = new Map<string, number>(EDGE_KINDS.map((k, i) => [k, i]));

/**
 * Every edge, both directions, as linked lists in typed arrays (per node: the head entry; per
 * entry: the next, the other end, kind and direction, the epoch the edge is valid from). The
 * ledger never closes an edge (supersession closes nodes; an edge whose end is not valid at the
 * epoch is skipped by the walk), so an edge is valid at every epoch from its `valid_from`.
 * Appended at commit in edge-key order, like TermPostings.
 */
export class EdgeAdjacency {
  head = new Int32Array(1024).fill(-1);
  next = new Int32Array(2048);
  other = new Int32Array(2048);
  /** kind index * 2 + 1 when the entry's node is the edge's source. */
  kindDir = new Int32Array(2048);
  from = new Int32Array(2048);
  /** Edges at each node (either direction), by nid. */
  degree = new Int32Array(1024);
  /** The nodes at either end of a `contradicts` edge: few, so a search for contradictions among
   * some records reads the lists of these alone. */
  readonly contradicting = new Set<number>();
  private entries = 0;
  /** Edges with keys below this are held. */
  upTo = 0;

  add(ekey: number, src: number, dst: number, kind: string, validFrom: number): boolean {
    if (ekey !== this.upTo) return false;
    const k = KIND_INDEX.get(kind);
    if (k === undefined) throw new Error(`unknown edge kind ${kind}`);
    const top = Math.max(src, dst);
    if (top >= this.head.length) {
      const old = this.head.length;
      this.head = grow(this.head, Math.max(top + 1, old * 2));
      this.head.fill(-1, old);
      this.degree = grow(this.degree, this.head.length);
    }
    if (this.entries + 2 > this.next.length) {
      const c = this.next.length * 2;
      this.next = grow(this.next, c);
      this.other = grow(this.other, c);
      this.kindDir = grow(this.kindDir, c);
      this.from = grow(this.from, c);
    }
    this.link(src, dst, k * 2 + 1, validFrom);
    this.link(dst, src, k * 2, validFrom);
    this.degree[src]! += 1;
    this.degree[dst]! += 1;
    if (k === CONTRADICTS) this.contradicting.add(src).add(dst);
    this.upTo = ekey + 1;
    return true;
  }

  private link(at: number, to: number, kindDir: number, validFrom: number): void {
    const i = this.entries++;
    this.next[i] = this.head[at]!;
    this.other[i] = to;
    this.kindDir[i] = kindDir;
    this.from[i] = validFrom;
    this.head[at] = i;
  }

  /** First entry of a node's list, -1 when none. */
  first(nid: number): number {
    return nid < this.head.length ? this.head[nid]! : -1;
  }
}

export const edgeKindOf = (kindDir: number): EdgeKind => EDGE_KINDS[kindDir >> 1]!;
export const SUPERSEDES = KIND_INDEX.get('supersedes')!;
export const CONTRADICTS = KIND_INDEX.get('contradicts')!;
export const DEPENDS_ON = KIND_INDEX.get('depends_on')!;
