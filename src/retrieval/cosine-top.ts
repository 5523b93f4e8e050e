/**
 * Vectors by body key in fixed-size chunks (no reallocation as bodies arrive): row `bkey` is
 * `chunks[bkey >> CHUNK_BITS]` at `(bkey & CHUNK_MASK) * dimensions`; `norms` holds each row's
 * sum of squares. A key never embedded is a zero row (its score is never positive). Written only
 * through setVectorRow, which keeps the layout in this file.
 */
export interface VectorRows {
  readonly dimensions: number;
  readonly chunks: Float32Array[];
  readonly norms: Float32Array[];
  /** Rows `0 .. count - 1` are filled. */
  count: number;
}

/** Rows per chunk. */
export const CHUNK_ROWS = 1 << 10;
const CHUNK_BITS = 10;
const CHUNK_MASK = CHUNK_ROWS - 1;

/** No rows yet, of `dimensions` floats each. */
export function createVectorRows(dimensions: number): VectorRows {
  return { dimensions, chunks: [], norms: [], count: 0 };
}

/** Writes `vector` (its first `dimensions` values) as row `bkey` with its norm, adding chunks as needed. */
export function setVectorRow(rows: VectorRows, bkey: number, vector: Float32Array): void {
  const d = rows.dimensions;
  while (rows.chunks.length <= bkey >> CHUNK_BITS) {
    rows.chunks.push(new Float32Array(CHUNK_ROWS * d));
    rows.norms.push(new Float32Array(CHUNK_ROWS));
  }
  const chunk = rows.chunks[bkey >> CHUNK_BITS]!;
  const offset = (bkey & CHUNK_MASK) * d;
  chunk.set(vector.subarray(0, d), offset);
  rows.norms[bkey >> CHUNK_BITS]![bkey & CHUNK_MASK] = squaredNorm(chunk, offset, d);
  rows.count = Math.max(rows.count, bkey + 1);
}

const f = Math.fround;

/**
 * A row's sum of squares, summed in float32 in index order: the `norm_l` DuckDB's
 * `array_cosine_similarity` computes for a `FLOAT[d]` row.
 */
function squaredNorm(v: Float32Array, offset: number, d: number): number {
  let s = 0;
  for (let j = 0; j < d; j++) s = f(s + f(v[offset + j]! * v[offset + j]!));
  return s;
}

/**
 * The `k` best rows among those `include` marks (> 0), by cosine similarity to `query`, keeping
 * only positive scores; ordered by score descending, then key ascending.
 *
 * Scores are bit for bit DuckDB's `array_cosine_similarity` over `FLOAT[d]` (the statement this
 * scan replaced, now test/helpers/vector-sql.ts): float32 sums in index order, `dot / sqrt(norm_l * norm_r)` in
 * float32, clamped to [-1, 1] with NaN becoming -1 (C++ `std::min`/`std::max` argument order).
 * Every float32 operation is a double operation rounded by `Math.fround`, which is exact for
 * + - * / and sqrt. Only positive scores are kept, so the clamp's lower bound never shows.
 *
 * Why in JavaScript: the SQL scan copied every vector out of DuckDB's storage and summed three
 * dependent chains per row (86k bodies of 384 floats: ~40 ms CPU); here four rows are summed side
 * by side (four independent chains, each still in index order) over the stored floats directly.
 */
export function cosineTop(
  rows: Readonly<VectorRows>,
  query: Float32Array,
  k: number,
  include: Int32Array,
): Array<{ bkey: number; score: number }> {
  const d = rows.dimensions;
  // The query as the statement read it: each element written with 7 significant digits (a
  // non-finite one as 0) and read back as a float32. Kept so results stay byte-identical to the
  // statement's (checked on 48 requests at 8.6k records, past epochs and scopes included).
  const q = new Float32Array(d);
  for (let j = 0; j < d && j < query.length; j++)
    q[j] = Number.isFinite(query[j]!) ? Number(query[j]!.toPrecision(7)) : 0;
  const qNorm = squaredNorm(q, 0, d);
  const keys: number[] = [];
  const scores: number[] = [];
  const offer = (bkey: number, dot: number, norm: number): void => {
    let s = f(dot / f(Math.sqrt(f(norm * qNorm))));
    if (!(s > 0)) return;
    if (s > 1) s = 1;
    if (keys.length === k && s <= scores[k - 1]!) return;
    // Keys arrive ascending, so an equal score goes after the ones already kept.
    let at = keys.length;
    while (at > 0 && scores[at - 1]! < s) at--;
    keys.splice(at, 0, bkey);
    scores.splice(at, 0, s);
    if (keys.length > k) {
      keys.pop();
      scores.pop();
    }
  };
  const end = Math.min(rows.count, include.length);
  for (let c = 0; c * CHUNK_ROWS < end; c++) {
    const data = rows.chunks[c]!;
    const norms = rows.norms[c]!;
    const first = c * CHUNK_ROWS;
    const n = Math.min(CHUNK_ROWS, end - first);
    let r = 0;
    for (; r + 4 <= n; r += 4) {
      const b = first + r;
      if (include[b]! > 0 && include[b + 1]! > 0 && include[b + 2]! > 0 && include[b + 3]! > 0) {
        const o0 = r * d;
        const o1 = o0 + d;
        const o2 = o1 + d;
        const o3 = o2 + d;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        for (let j = 0; j < d; j++) {
          const y = q[j]!;
          s0 = f(s0 + f(data[o0 + j]! * y));
          s1 = f(s1 + f(data[o1 + j]! * y));
          s2 = f(s2 + f(data[o2 + j]! * y));
          s3 = f(s3 + f(data[o3 + j]! * y));
        }
        offer(b, s0, norms[r]!);
        offer(b + 1, s1, norms[r + 1]!);
        offer(b + 2, s2, norms[r + 2]!);
        offer(b + 3, s3, norms[r + 3]!);
      } else {
        for (let i = r; i < r + 4; i++)
          if (include[first + i]! > 0) offer(first + i, dot(data, i * d, q, d), norms[i]!);
      }
    }
    for (; r < n; r++) if (include[first + r]! > 0) offer(first + r, dot(data, r * d, q, d), norms[r]!);
  }
  return keys.map((bkey, i) => ({ bkey, score: scores[i]! }));
}

function dot(data: Float32Array, offset: number, q: Float32Array, d: number): number {
  let s = 0;
  for (let j = 0; j < d; j++) s = f(s + f(data[offset + j]! * q[j]!));
  return s;
}
