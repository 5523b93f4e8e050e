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
  /** Pairs interleaved, `[src, target]` per slot: a probe touches one cache line, not two arrays. */
  private slots: Int32Array;
  private mask: number;
  private used = 0; // live entries plus tombstones
  size = 0;

  constructor(capacity = 1024) {
    let c = 16;
    while (c < capacity * 2) c *= 2;
    this.slots = new Int32Array(c * 2).fill(EMPTY);
    this.mask = c - 1;
  }

  /** Makes room for `n` more pairs at once (a restore adds 400k: one rehash, not ten). */
  reserve(n: number): void {
    let capacity = this.mask + 1;
    while ((this.used + n) * 2 > capacity) capacity *= 2;
    if (capacity !== this.mask + 1) this.rehash(capacity);
  }

  has(src: number, target: number): boolean {
    const { slots, mask } = this;
    for (let i = slot(src, target) & mask; ; i = (i + 1) & mask) {
      const s = slots[2 * i]!;
      if (s === EMPTY) return false;
      if (s === src && slots[2 * i + 1] === target) return true;
    }
  }

  /** Adds the pair; false when it was already present. One probe sequence finds either the pair
   * or where it goes (the first tombstone on the way, else the empty slot that ended it). */
  add(src: number, target: number): boolean {
    if ((this.used + 1) * 2 > this.mask + 1)
      this.rehash(this.size + 1 > (this.mask + 1) / 4 ? (this.mask + 1) * 2 : this.mask + 1);
    const { slots, mask } = this;
    let free = -1;
    let i = slot(src, target) & mask;
    for (; ; i = (i + 1) & mask) {
      const s = slots[2 * i]!;
      if (s === EMPTY) break;
      if (s === DELETED) {
        if (free < 0) free = i;
      } else if (s === src && slots[2 * i + 1] === target) return false;
    }
    if (free >= 0) i = free;
    else this.used++;
    slots[2 * i] = src;
    slots[2 * i + 1] = target;
    this.size++;
    return true;
  }

  delete(src: number, target: number): boolean {
    const { slots, mask } = this;
    for (let i = slot(src, target) & mask; ; i = (i + 1) & mask) {
      const s = slots[2 * i]!;
      if (s === EMPTY) return false;
      if (s === src && slots[2 * i + 1] === target) {
        slots[2 * i] = DELETED;
        this.size--;
        return true;
      }
    }
  }

  private rehash(capacity: number): void {
    const old = this.slots;
    this.slots = new Int32Array(capacity * 2).fill(EMPTY);
    this.mask = capacity - 1;
    this.used = 0;
    this.size = 0;
    for (let i = 0; i < old.length; i += 2) if (old[i]! >= 0) this.add(old[i]!, old[i + 1]!);
  }
}

/** Mixes both halves so consecutive nids and kinds spread over the table. */
function slot(src: number, target: number): number {
  let h = Math.imul(src, 0x9e3779b1) ^ Math.imul(target, 0x85ebca77);
  h ^= h >>> 15;
  return Math.imul(h, 0xc2b2ae3d) ^ (h >>> 13);
}
