/**
 * Body key by content hash, for deduplicating bodies at commit. Hashes are ASCII (hex digests), so
 * each key is kept as its bytes in one arena with the bkey in a typed array: a restore fills it
 * straight from the snapshot's Arrow bytes, with no string and no Map entry per body (100k of
 * each at 100k bodies were a visible part of a restore, and of the JS heap). Open addressing with
 * linear probing; keys are never removed (bodies are immutable). A key with a non-ASCII character
 * (a custom `hashTexts` could produce one) goes to a small Map instead.
 */
export class BodyKeys {
  private hashes = new Int32Array(1024);
  private starts = new Int32Array(1024);
  private lengths = new Int32Array(1024).fill(-1); // -1 marks an empty slot
  private bkeys = new Int32Array(1024);
  private arena = new Uint8Array(1024 * 64);
  private arenaUsed = 0;
  private mask = 1023;
  private scratch = new Uint8Array(128);
  private readonly other = new Map<string, number>();
  size = 0;

  get(hash: string): number | undefined {
    const length = this.ascii(hash);
    if (length < 0) return this.other.get(hash);
    const found = this.find(this.scratch, 0, length, fnv1a(this.scratch, 0, length));
    return found < 0 ? undefined : this.bkeys[found];
  }

  set(hash: string, bkey: number): void {
    const length = this.ascii(hash);
    if (length < 0) {
      if (!this.other.has(hash)) this.size++;
      this.other.set(hash, bkey);
      return;
    }
    this.setBytes(this.scratch, 0, length, bkey);
  }

  /** Sets the key spelled by the ASCII bytes `b[start, end)` (a snapshot's hash column). */
  setBytes(b: Uint8Array, start: number, end: number, bkey: number): void {
    const h = fnv1a(b, start, end);
    const found = this.find(b, start, end, h);
    if (found >= 0) {
      this.bkeys[found] = bkey;
      return;
    }
    if ((this.size + 1) * 2 > this.lengths.length) this.grow();
    const length = end - start;
    if (this.arenaUsed + length > this.arena.length) {
      const bigger = new Uint8Array(Math.max(this.arena.length * 2, this.arenaUsed + length));
      bigger.set(this.arena.subarray(0, this.arenaUsed));
      this.arena = bigger;
    }
    this.arena.set(b.subarray(start, end), this.arenaUsed);
    this.insert(h, this.arenaUsed, length, bkey);
    this.arenaUsed += length;
    this.size++;
  }

  /** Makes room for `n` more keys of about `bytesEach` bytes at once. */
  reserve(n: number, bytesEach: number): void {
    let capacity = this.lengths.length;
    while ((this.size + n) * 2 > capacity) capacity *= 2;
    if (capacity !== this.lengths.length) this.rehash(capacity);
    const need = this.arenaUsed + n * bytesEach;
    if (need > this.arena.length) {
      const bigger = new Uint8Array(need);
      bigger.set(this.arena.subarray(0, this.arenaUsed));
      this.arena = bigger;
    }
  }

  /** The key's ASCII bytes into `scratch`, or -1 when it has another character. */
  private ascii(hash: string): number {
    if (hash.length > this.scratch.length) this.scratch = new Uint8Array(hash.length * 2);
    const s = this.scratch;
    for (let i = 0; i < hash.length; i++) {
      const c = hash.charCodeAt(i);
      if (c >= 0x80) return -1;
      s[i] = c;
    }
    return hash.length;
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

  private insert(h: number, start: number, length: number, bkey: number): void {
    const { lengths, mask } = this;
    let i = h & mask;
    while (lengths[i]! >= 0) i = (i + 1) & mask;
    this.hashes[i] = h;
    this.starts[i] = start;
    lengths[i] = length;
    this.bkeys[i] = bkey;
  }

  private grow(): void {
    this.rehash(this.lengths.length * 2);
  }

  private rehash(capacity: number): void {
    const { hashes, starts, lengths, bkeys } = this;
    this.hashes = new Int32Array(capacity);
    this.starts = new Int32Array(capacity);
    this.lengths = new Int32Array(capacity).fill(-1);
    this.bkeys = new Int32Array(capacity);
    this.mask = capacity - 1;
    for (let i = 0; i < lengths.length; i++)
      if (lengths[i]! >= 0) this.insert(hashes[i]!, starts[i]!, lengths[i]!, bkeys[i]!);
  }
}

/** FNV-1a over `b[start, end)`. */
function fnv1a(b: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h;
}

function sameBytes(a: Uint8Array, at: number, b: Uint8Array, bt: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (a[at + i] !== b[bt + i]) return false;
  return true;
}
