/**
 * Token counts of ASCII pre-tokenizer pieces, keyed by the piece's bytes *inside the text's
 * encoding*: a hit costs a hash over the piece and one comparison, with no string allocated (a
 * Map keyed by sliced strings cost ~50 ns a lookup, more than the split itself). Keys live in one
 * byte arena. Open addressing with linear probing; cleared, not evicted, when full.
 */
export class PieceTable {
  private hashes: Int32Array;
  private starts: Int32Array;
  private lengths: Int32Array; // -1 marks an empty slot
  private counts: Int32Array;
  private arena: Uint8Array;
  private arenaUsed = 0;
  private mask: number;
  private size = 0;

  constructor(
    private readonly maxEntries: number,
    initialCapacity = 4096,
  ) {
    this.hashes = new Int32Array(initialCapacity);
    this.starts = new Int32Array(initialCapacity);
    this.lengths = new Int32Array(initialCapacity).fill(-1);
    this.counts = new Int32Array(initialCapacity);
    this.mask = initialCapacity - 1;
    this.arena = new Uint8Array(initialCapacity * 8);
  }

  /** FNV-1a over `b[start, end)`. */
  static hash(b: Uint8Array, start: number, end: number): number {
    let h = 0x811c9dc5 | 0;
    for (let i = start; i < end; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
    return h;
  }

  /** The count stored for `b[start, end)` (hash `h`), or -1. */
  get(b: Uint8Array, start: number, end: number, h: number): number {
    const { hashes, starts, lengths, arena, mask } = this;
    const length = end - start;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const l = lengths[i]!;
      if (l < 0) return -1;
      if (hashes[i] === h && l === length && sameBytes(arena, starts[i]!, b, start, length)) return this.counts[i]!;
    }
  }

  set(b: Uint8Array, start: number, end: number, h: number, count: number): void {
    if (this.size >= this.maxEntries) this.clear();
    if ((this.size + 1) * 2 > this.lengths.length) this.grow();
    const length = end - start;
    if (this.arenaUsed + length > this.arena.length) {
      const bigger = new Uint8Array(Math.max(this.arena.length * 2, this.arenaUsed + length));
      bigger.set(this.arena.subarray(0, this.arenaUsed));
      this.arena = bigger;
    }
    this.arena.set(b.subarray(start, end), this.arenaUsed);
    this.insert(h, this.arenaUsed, length, count);
    this.arenaUsed += length;
  }

  private insert(h: number, start: number, length: number, count: number): void {
    const { lengths, mask } = this;
    let i = h & mask;
    while (lengths[i]! >= 0) i = (i + 1) & mask;
    this.hashes[i] = h;
    this.starts[i] = start;
    lengths[i] = length;
    this.counts[i] = count;
    this.size++;
  }

  private clear(): void {
    this.lengths.fill(-1);
    this.size = 0;
    this.arenaUsed = 0;
  }

  private grow(): void {
    const { hashes, starts, lengths, counts } = this;
    const capacity = lengths.length * 2;
    this.hashes = new Int32Array(capacity);
    this.starts = new Int32Array(capacity);
    this.lengths = new Int32Array(capacity).fill(-1);
    this.counts = new Int32Array(capacity);
    this.mask = capacity - 1;
    this.size = 0;
    for (let i = 0; i < lengths.length; i++)
      if (lengths[i]! >= 0) this.insert(hashes[i]!, starts[i]!, lengths[i]!, counts[i]!);
  }
}

function sameBytes(a: Uint8Array, at: number, b: Uint8Array, bt: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (a[at + i] !== b[bt + i]) return false;
  return true;
}
