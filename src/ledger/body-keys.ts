import { ByteKeyTable } from '../text/byte-key-table.js';

/**
 * Body key by content hash, for deduplicating bodies at commit. Hashes are ASCII (hex digests), so
 * each key is kept as its bytes in one arena with the bkey in a typed array: a restore fills it
 * straight from the snapshot's Arrow bytes, with no string and no Map entry per body (100k of
 * each at 100k bodies were a visible part of a restore, and of the JS heap): a ByteKeyTable; keys
 * are never removed (bodies are immutable). A key with a non-ASCII character
 * (a custom `hashTexts` could produce one) goes to a small Map instead.
 */
export class BodyKeys {
  private readonly table = new ByteKeyTable(1024, 1024 * 64);
  private scratch = new Uint8Array(128);
  private readonly other = new Map<string, number>();

  get size(): number {
    return this.table.size + this.other.size;
  }

  get(hash: string): number | undefined {
    const length = this.ascii(hash);
    if (length < 0) return this.other.get(hash);
    const found = this.table.get(this.scratch, 0, length, ByteKeyTable.hash(this.scratch, 0, length));
    return found < 0 ? undefined : found;
  }

  set(hash: string, bkey: number): void {
    const length = this.ascii(hash);
    if (length < 0) this.other.set(hash, bkey);
    else this.setBytes(this.scratch, 0, length, bkey);
  }

  /** Sets the key spelled by the ASCII bytes `b[start, end)` (a snapshot's hash column). */
  setBytes(b: Uint8Array, start: number, end: number, bkey: number): void {
    this.table.set(b, start, end, ByteKeyTable.hash(b, start, end), bkey);
  }

  /** Makes room for `n` more keys of about `bytesEach` bytes at once. */
  reserve(n: number, bytesEach: number): void {
    this.table.reserve(n, bytesEach);
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
}
