/**
 * An encoding's merge ranks (token bytes → rank), read from the `bpe_ranks` text tiktoken's lite
 * binding takes: `! <offset> <base64> <base64> …`, one line or several, the n-th token of a line
 * ranking `offset + n` (the format tiktoken's wasm `parse_bfe` reads). Compact on purpose: it is
 * built only when a body holds an over-long piece, and a Worker has 128 MB in all (~4.4 MB for
 * o200k_base: the token bytes once, their offsets, and an open-addressing index of ranks).
 */
export class RankTable {
  /** Bytes of the longest token: a longer byte string has no rank, with no lookup. */
  readonly maxTokenBytes: number;
  private readonly arena: Uint8Array;
  private readonly starts: Int32Array; // token r's bytes are arena[starts[r], starts[r + 1])
  private readonly slots: Int32Array; // rank + 1, 0 when empty
  private readonly mask: number;
  private readonly shift: number;

  constructor(bpeRanks: string) {
    const lines = bpeRanks.split('\n').filter((l) => l.length > 0);
    let count = 0;
    let bytes = 0;
    const parsed: { offset: number; tokens: string[] }[] = [];
    for (const line of lines) {
      const fields = line.split(' ');
      if (fields[0] !== '!' || fields.length < 2) throw new Error('bpe_ranks: not the `! <offset> <tokens…>` format');
      const offset = Number(fields[1]);
      const tokens = fields.slice(2);
      parsed.push({ offset, tokens });
      count = Math.max(count, offset + tokens.length);
      for (const t of tokens) bytes += base64Length(t);
    }
    this.arena = new Uint8Array(bytes);
    this.starts = new Int32Array(count + 1);
    const lengths = new Int32Array(count).fill(-1);
    let bits = 1;
    while (1 << bits < count * 2) bits++;
    this.slots = new Int32Array(1 << bits);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
    // Tokens are decoded in rank order into the arena, so `starts` stays monotonic even when
    // lines come out of order or leave gaps (a gap is a zero-length, unindexed entry).
    const byRank: (string | undefined)[] = new Array(count);
    for (const { offset, tokens } of parsed) for (let i = 0; i < tokens.length; i++) byRank[offset + i] = tokens[i];
    let used = 0;
    let longest = 0;
    for (let r = 0; r < count; r++) {
      this.starts[r] = used;
      const t = byRank[r];
      if (t === undefined) continue;
      const n = decodeBase64(t, this.arena, used);
      lengths[r] = n;
      used += n;
      if (n > longest) longest = n;
    }
    this.starts[count] = used;
    if (longest > MAX_POWER) throw new Error('bpe_ranks: a token longer than 4096 bytes');
    this.maxTokenBytes = longest;
    for (let r = 0; r < count; r++) {
      if (lengths[r]! < 0) continue;
      const s = this.starts[r]!;
      let i = this.slotOf(prefixHash(this.arena, s, s + lengths[r]!));
      while (this.slots[i] !== 0) i = (i + 1) & this.mask;
      this.slots[i] = r + 1;
    }
  }

  /** The rank of `b[start, end)`, or -1 when those bytes are not a token. */
  rank(b: Uint8Array, start: number, end: number): number {
    return this.rankHashed(b, start, end, prefixHash(b, start, end));
  }

  /** `rank` given the bytes' `prefixHash` (which `hashOfRange` gives in O(1) from prefix hashes). */
  rankHashed(b: Uint8Array, start: number, end: number, h: number): number {
    const length = end - start;
    if (length > this.maxTokenBytes) return -1;
    const { arena, starts, slots, mask } = this;
    for (let i = this.slotOf(h); ; i = (i + 1) & mask) {
      const slot = slots[i]!;
      if (slot === 0) return -1;
      const r = slot - 1;
      const s = starts[r]!;
      if (starts[r + 1]! - s !== length) continue;
      let j = 0;
      while (j < length && arena[s + j] === b[start + j]) j++;
      if (j === length) return r;
    }
  }

  /** The high bits of the hash, mixed: a polynomial hash mod 2³² is weakest in its low bits. */
  private slotOf(h: number): number {
    return Math.imul(h, 0x9e3779b1) >>> this.shift;
  }
}

/**
 * A polynomial hash of bytes, mod 2³²: the hash of any range follows from the hashes of the
 * prefixes of one buffer in O(1) (`hashOfRange`), so merging two parts costs one probe, not a
 * pass over the merged bytes (up to 128 for one token).
 */
const BASE = 0x01000193;
const MAX_POWER = 1 << 12;
const POWERS = new Int32Array(MAX_POWER + 1);
POWERS[0] = 1;
for (let i = 1; i <= MAX_POWER; i++) POWERS[i] = Math.imul(POWERS[i - 1]!, BASE);

function prefixHash(b: Uint8Array, start: number, end: number): number {
  let h = 0;
  for (let i = start; i < end; i++) h = (Math.imul(h, BASE) + b[i]! + 1) | 0;
  return h;
}

/** `prefixes[i]` = prefixHash of `b[start, start + i)`, for i in [0, end − start]. */
export function prefixHashes(b: Uint8Array, start: number, end: number): Int32Array {
  const prefixes = new Int32Array(end - start + 1);
  let h = 0;
  for (let i = start; i < end; i++) prefixes[i - start + 1] = h = (Math.imul(h, BASE) + b[i]! + 1) | 0;
  return prefixes;
}

/** prefixHash of the range [from, to) from the prefix hashes (`to - from <= 4096`). */
export function hashOfRange(prefixes: Int32Array, from: number, to: number): number {
  return (prefixes[to]! - Math.imul(prefixes[from]!, POWERS[to - from]!)) | 0;
}

const BASE64 = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++)
  BASE64['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;

function base64Length(t: string): number {
  let pad = 0;
  while (pad < t.length && t.charCodeAt(t.length - 1 - pad) === 61) pad++;
  return ((t.length - pad) * 3) >> 2;
}

/** Decodes standard base64 `t` into `out` at `at`; returns the byte count. */
function decodeBase64(t: string, out: Uint8Array, at: number): number {
  let bits = 0;
  let acc = 0;
  let n = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 61) break;
    const v = c < 128 ? BASE64[c]! : -1;
    if (v < 0) throw new Error('bpe_ranks: a token is not base64');
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at + n++] = (acc >> bits) & 0xff;
    }
  }
  return n;
}
