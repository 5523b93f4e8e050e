import { type CosineKernel, instantiateCosineKernel } from './cosine-kernel.js';

/**
 * Vectors by body key, stored once in a WebAssembly.Memory that the SIMD kernel
 * (wasm/vector-kernel/cosine-top.wat) and the JS scan both read in place, so no query copies a
 * vector. Layout, in float32 units: the query (`d` values, padded), then groups of 16 rows, each
 * the 16 rows' squared norms followed by, for each dimension `j` in order, the 16 rows' element
 * `j` — row `r` is lane `r & 15` of group `r >> 4`. Interleaving rows lets the kernel run 16 rows
 * side by side while each row is still summed in index order (see cosineTop). A key never
 * embedded is a zero row (its score is never positive). Written only through setVectorRow.
 */
export interface VectorRows {
  readonly dimensions: number;
  readonly memory: WebAssembly.Memory;
  /** The kernel over `memory`, or null: the JS scan. */
  readonly kernel: CosineKernel | null;
  /** Rows `0 .. count - 1` are filled. */
  count: number;
}

/** Rows per group. @internal Exported for its unit tests. */
export const GROUP_ROWS = 16;
const PAGE = 65536;

/** Where the first group starts (bytes): after the query, 64-byte aligned. */
const rowsStart = (d: number): number => Math.ceil((d * 4) / 64) * 64;
const groupBytes = (d: number): number => GROUP_ROWS * (d + 1) * 4;

/**
 * No rows yet, of `dimensions` floats each, scored by `kernel` (the compiled SIMD module, see
 * cosine-kernel.ts) or, when null, by the JS scan.
 */
export function createVectorRows(dimensions: number, kernel: WebAssembly.Module | null): VectorRows {
  const memory = new WebAssembly.Memory({ initial: 1 });
  return { dimensions, memory, kernel: kernel ? instantiateCosineKernel(kernel, memory) : null, count: 0 };
}

/** Grows `rows.memory` to at least `bytes`, by an eighth or more at a time. */
function reserve(rows: VectorRows, bytes: number): void {
  const have = rows.memory.buffer.byteLength;
  if (bytes <= have) return;
  const pages = Math.ceil((bytes - have) / PAGE);
  rows.memory.grow(Math.max(pages, Math.ceil(have / PAGE / 8)));
}

/** Writes `vector` (its first `dimensions` values) as row `bkey` with its norm. */
export function setVectorRow(rows: VectorRows, bkey: number, vector: Float32Array): void {
  const d = rows.dimensions;
  const group = bkey >>> 4;
  // Room for the row's group and for the kernel's scores of every group up to it.
  reserve(rows, rowsStart(d) + (group + 1) * (groupBytes(d) + GROUP_ROWS * 4));
  const v = new Float32Array(rows.memory.buffer);
  const base = (rowsStart(d) + group * groupBytes(d)) / 4;
  const lane = bkey & 15;
  let o = base + GROUP_ROWS + lane;
  for (let j = 0; j < d; j++, o += GROUP_ROWS) v[o] = j < vector.length ? vector[j]! : 0;
  v[base + lane] = squaredNorm(v, base + GROUP_ROWS + lane, GROUP_ROWS, d);
  rows.count = Math.max(rows.count, bkey + 1);
}

const f = Math.fround;

/**
 * A row's sum of squares (its `d` values `stride` apart from `offset`), summed in float32 in
 * index order: the `norm_l` DuckDB's `array_cosine_similarity` computes for a `FLOAT[d]` row.
 */
function squaredNorm(v: Float32Array, offset: number, stride: number, d: number): number {
  let s = 0;
  for (let j = 0, o = offset; j < d; j++, o += stride) s = f(s + f(v[o]! * v[o]!));
  return s;
}

/**
 * The `k` best rows among those `include` marks (> 0), by cosine similarity to `query`, keeping
 * only positive scores; ordered by score descending, then key ascending.
 *
 * Scores are bit for bit DuckDB's `array_cosine_similarity` over `FLOAT[d]` (the statement this
 * scan replaced, now test/helpers/vector-sql.ts): float32 sums in index order, `dot / sqrt(norm_l * norm_r)` in
 * float32, clamped to [-1, 1] with NaN becoming -1 (C++ `std::min`/`std::max` argument order).
 * Only positive scores are kept, so the clamp's lower bound never shows. Float addition is not
 * associative, so the order is the contract: both scans keep one accumulator per row, adding
 * products in index order, and run rows (never dimensions) side by side — the kernel 16 rows in
 * four f32x4 lanes, the JS scan 4 rows, where every float32 operation is a double operation
 * rounded by `Math.fround` (exact for + - * / and sqrt). Wasm has no fused multiply-add in its
 * SIMD set, so its products round once, as here and in DuckDB.
 */
export function cosineTop(
  rows: Readonly<VectorRows>,
  query: Float32Array,
  k: number,
  include: Int32Array,
): Array<{ bkey: number; score: number }> {
  const d = rows.dimensions;
  const end = Math.min(rows.count, include.length);
  if (end === 0 || k <= 0) return [];
  // The query as the statement read it: each element written with 7 significant digits (a
  // non-finite one as 0) and read back as a float32. Kept so results stay byte-identical to the
  // statement's (checked on 48 requests at 8.6k records, past epochs and scopes included).
  const q = new Float32Array(rows.memory.buffer, 0, d);
  for (let j = 0; j < d; j++)
    q[j] = j < query.length && Number.isFinite(query[j]!) ? Number(query[j]!.toPrecision(7)) : 0;
  const qNorm = squaredNorm(q, 0, 1, d);
  const top = new TopK(k);
  const groups = Math.ceil(end / GROUP_ROWS);
  if (rows.kernel) {
    const out = rowsStart(d) + groups * groupBytes(d);
    rows.kernel.scores_f32(0, qNorm, rowsStart(d), groups, d, out);
    const scores = new Float32Array(rows.memory.buffer, out, end);
    for (let r = 0; r < end; r++) if (include[r]! > 0) top.offer(r, scores[r]!);
  } else {
    scanJs(new Float32Array(rows.memory.buffer), q, qNorm, d, end, include, top);
  }
  return top.result();
}

/** The fallback where wasm SIMD is missing: 4 rows of a group at a time, each in index order. */
function scanJs(
  v: Float32Array,
  q: Float32Array,
  qNorm: number,
  d: number,
  end: number,
  include: Int32Array,
  top: TopK,
): void {
  const score = (dot: number, norm: number) => f(dot / f(Math.sqrt(f(norm * qNorm))));
  for (let b = 0; b < end; b += 4) {
    if (!(include[b]! > 0 || include[b + 1]! > 0 || include[b + 2]! > 0 || include[b + 3]! > 0)) continue;
    const base = (rowsStart(d) + (b >>> 4) * groupBytes(d)) / 4;
    const lane = b & 15;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let j = 0, o = base + GROUP_ROWS + lane; j < d; j++, o += GROUP_ROWS) {
      const y = q[j]!;
      s0 = f(s0 + f(v[o]! * y));
      s1 = f(s1 + f(v[o + 1]! * y));
      s2 = f(s2 + f(v[o + 2]! * y));
      s3 = f(s3 + f(v[o + 3]! * y));
    }
    const sums = [s0, s1, s2, s3];
    for (let i = 0; i < 4 && b + i < end; i++)
      if (include[b + i]! > 0) top.offer(b + i, score(sums[i]!, v[base + lane + i]!));
  }
}

/**
 * The `k` best positive scores offered, by score descending then key ascending; keys must be
 * offered ascending, so an equal score goes after the ones already kept. A score above 1 counts
 * as 1 (DuckDB's clamp); NaN and scores ≤ 0 are dropped.
 */
export class TopK {
  private readonly keys: number[] = [];
  private readonly scores: number[] = [];

  constructor(private readonly k: number) {}

  offer(key: number, score: number): void {
    let s = score;
    if (!(s > 0)) return;
    if (s > 1) s = 1;
    const { keys, scores, k } = this;
    if (keys.length === k && s <= scores[k - 1]!) return;
    let at = keys.length;
    while (at > 0 && scores[at - 1]! < s) at--;
    keys.splice(at, 0, key);
    scores.splice(at, 0, s);
    if (keys.length > k) {
      keys.pop();
      scores.pop();
    }
  }

  result(): Array<{ bkey: number; score: number }> {
    return this.keys.map((bkey, i) => ({ bkey, score: this.scores[i]! }));
  }
}
