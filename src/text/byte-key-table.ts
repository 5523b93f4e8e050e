/**
 * A hash table from byte strings to int32 values, keyed by the bytes themselves: a lookup costs a
 * hash over the key and one comparison, with no string allocated. Keys are copied into one byte
 * arena; open addressing with linear probing; no single-key removal (`clear` empties it all).
 * Shared by the tokenizer's piece cache and the ledger's body keys, whose keys are byte runs
 * inside larger buffers (a text's encoding, a snapshot's hash column).
 */
/** FNV-1a's offset basis and prime as int32: `ByteKeyTable.hash` uses them, and so must a caller
 * that builds the same hash byte by byte while it scans (term postings, the piece cache). */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

export class ByteKeyTable {
  private hashes: Int32Array;
  private starts: Int32Array;
  private lengths: Int32Array; // -1 marks an empty slot
  private values: Int32Array;
  private arena: Uint8Array;
  private arenaUsed = 0;
  private mask: number;
  size = 0;

  /** `initialCapacity` must be a power of two. */
  constructor(initialCapacity = 1024, arenaBytes = initialCapacity * 8) {
    this.hashes = new Int32Array(initialCapacity);
    this.starts = new Int32Array(initialCapacity);
    this.lengths = new Int32Array(initialCapacity).fill(-1);
    this.values = new Int32Array(initialCapacity);
    this.mask = initialCapacity - 1;
    this.arena = new Uint8Array(arenaBytes);
  }

  /** FNV-1a over `b[start, end)`: the hash every method takes as `h`. */
  static hash(b: Uint8Array, start: number, end: number): number {
    let h = FNV_OFFSET;
    for (let i = start; i < end; i++) h = Math.imul(h ^ b[i]!, FNV_PRIME);
    return h;
  }

  /** The value stored for `b[start, end)` (hash `h`), or -1 when absent. */
  get(b: Uint8Array, start: number, end: number, h: number): number {
    const slot = this.find(b, start, end, h);
    return slot < 0 ? -1 : this.values[slot]!;
  }

  /** Stores `value` for `b[start, end)` (hash `h`), replacing the value of an equal key. */
  set(b: Uint8Array, start: number, end: number, h: number, value: number): void {
    const slot = this.find(b, start, end, h);
    if (slot >= 0) {
      this.values[slot] = value;
      return;
    }
    if ((this.size + 1) * 2 > this.lengths.length) this.rehash(this.lengths.length * 2);
    const length = end - start;
    this.reserveArena(length);
    // Short keys (words, 64-character hex digests) byte by byte: a subarray view per new key
    // cost more than the copy.
    if (length <= 64) for (let i = 0; i < length; i++) this.arena[this.arenaUsed + i] = b[start + i]!;
    else this.arena.set(b.subarray(start, end), this.arenaUsed);
    this.insert(h, this.arenaUsed, length, value);
    this.arenaUsed += length;
    this.size++;
  }

  /** Makes room for `n` more keys of about `bytesEach` bytes at once. */
  reserve(n: number, bytesEach: number): void {
    let capacity = this.lengths.length;
    while ((this.size + n) * 2 > capacity) capacity *= 2;
    if (capacity !== this.lengths.length) this.rehash(capacity);
    this.reserveArena(n * bytesEach);
  }

  clear(): void {
    this.lengths.fill(-1);
    this.size = 0;
    this.arenaUsed = 0;
  }

  private reserveArena(bytes: number): void {
    if (this.arenaUsed + bytes <= this.arena.length) return;
    const bigger = new Uint8Array(Math.max(this.arena.length * 2, this.arenaUsed + bytes));
    bigger.set(this.arena.subarray(0, this.arenaUsed));
    this.arena = bigger;
  }

  private find(b: Uint8Array, start: number, end: number, h: number): number {
    const { hashes, starts, lengths, arena, mask } = this;
    const length = end - start;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const l = lengths[i]!;
      if (l < 0) return -1;
      if (hashes[i] === h && l === length && sameBytes(arena, starts[i]!, b, start, length)) return i;
    }
  }

  private insert(h: number, start: number, length: number, value: number): void {
    const { lengths, mask } = this;
    let i = h & mask;
    while (lengths[i]! >= 0) i = (i + 1) & mask;
    this.hashes[i] = h;
    this.starts[i] = start;
    lengths[i] = length;
    this.values[i] = value;
  }

  private rehash(capacity: number): void {
    const { hashes, starts, lengths, values } = this;
    this.hashes = new Int32Array(capacity);
    this.starts = new Int32Array(capacity);
    this.lengths = new Int32Array(capacity).fill(-1);
    this.values = new Int32Array(capacity);
    this.mask = capacity - 1;
    for (let i = 0; i < lengths.length; i++)
      if (lengths[i]! >= 0) this.insert(hashes[i]!, starts[i]!, lengths[i]!, values[i]!);
  }
}

function sameBytes(a: Uint8Array, at: number, b: Uint8Array, bt: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (a[at + i] !== b[bt + i]) return false;
  return true;
}
