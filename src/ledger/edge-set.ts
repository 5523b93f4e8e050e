/**
 * A set of (src, target) pairs of non-negative int32s — an edge as `src` nid and
 * `dst * 16 + kind index` — in flat typed arrays. The index holds one entry per valid edge
 * (400k at 100k nodes): as a Map of Sets that was ~100k heap objects the garbage collector
 * walked on every major collection; here it is two Int32Arrays and no objects at all.
 * Open addressing with linear probing; deletion leaves a tombstone.
 */
const EMPTY = -1;
const DELETED = -2;

export class EdgeSet {
  private srcs: Int32Array;
  private targets: Int32Array;
  private mask: number;
  private used = 0; // live entries plus tombstones
  size = 0;

  constructor(capacity = 1024) {
    let c = 16;
    while (c < capacity * 2) c *= 2;
    this.srcs = new Int32Array(c).fill(EMPTY);
    this.targets = new Int32Array(c);
    this.mask = c - 1;
  }

  /** Makes room for `n` more pairs at once (a restore adds 400k: one rehash, not ten). */
  reserve(n: number): void {
    let capacity = this.srcs.length;
    while ((this.used + n) * 2 > capacity) capacity *= 2;
    if (capacity !== this.srcs.length) this.rehash(capacity);
  }

  has(src: number, target: number): boolean {
    const { srcs, targets, mask } = this;
    for (let i = slot(src, target) & mask; ; i = (i + 1) & mask) {
      const s = srcs[i]!;
      if (s === EMPTY) return false;
      if (s === src && targets[i] === target) return true;
    }
  }

  /** Adds the pair; false when it was already present. */
  add(src: number, target: number): boolean {
    if (this.has(src, target)) return false;
    if ((this.used + 1) * 2 > this.srcs.length)
      this.rehash(this.size + 1 > this.srcs.length / 4 ? this.srcs.length * 2 : this.srcs.length);
    const { srcs, mask } = this;
    let i = slot(src, target) & mask;
    while (srcs[i]! >= 0) i = (i + 1) & mask;
    if (srcs[i] === EMPTY) this.used++;
    srcs[i] = src;
    this.targets[i] = target;
    this.size++;
    return true;
  }

  delete(src: number, target: number): boolean {
    const { srcs, targets, mask } = this;
    for (let i = slot(src, target) & mask; ; i = (i + 1) & mask) {
      const s = srcs[i]!;
      if (s === EMPTY) return false;
      if (s === src && targets[i] === target) {
        srcs[i] = DELETED;
        this.size--;
        return true;
      }
    }
  }

  private rehash(capacity: number): void {
    const { srcs, targets } = this;
    this.srcs = new Int32Array(capacity).fill(EMPTY);
    this.targets = new Int32Array(capacity);
    this.mask = capacity - 1;
    this.used = 0;
    this.size = 0;
    for (let i = 0; i < srcs.length; i++) if (srcs[i]! >= 0) this.add(srcs[i]!, targets[i]!);
  }
}

/** Mixes both halves so consecutive nids and kinds spread over the table. */
function slot(src: number, target: number): number {
  let h = Math.imul(src, 0x9e3779b1) ^ Math.imul(target, 0x85ebca77);
  h ^= h >>> 15;
  return Math.imul(h, 0xc2b2ae3d) ^ (h >>> 13);
}
