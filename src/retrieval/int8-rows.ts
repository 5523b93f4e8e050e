import { type CosineKernel, instantiateCosineKernel } from './cosine-kernel.js';
import { TopK } from './cosine-top.js';

/**
 * Vectors quantised to 8 bits, the `vectorPrecision: 'int8'` option: a quarter of float32's
 * memory and of the bytes each query scans, for approximate scores. Each row is scaled by its
 * largest magnitude to integers in [-127, 127] (its scale kept as a float), the query to int16;
 * the kernel's integer dot products are exact, so the only error is the rounding of each value
 * (at most half a step of 1/127 of the row's largest value). The squared norm is the float32
 * row's, so a row's score is its dot product's approximation over the exact norms.
 *
 * Layout in `memory` (bytes): the int16 query (`width` values, 64-byte aligned), then the rows,
 * `width` bytes each (`dimensions` rounded up to 16, zero-padded), then the kernel's scores.
 */
export interface Int8Rows {
  readonly dimensions: number;
  readonly width: number;
  readonly memory: WebAssembly.Memory;
  readonly kernel: CosineKernel | null;
  scales: Float32Array;
  norms: Float32Array;
  count: number;
}

const PAGE = 65536;
const rowsStart = (width: number): number => Math.ceil((width * 2) / 64) * 64;

export function createInt8Rows(dimensions: number, kernel: WebAssembly.Module | null): Int8Rows {
  const memory = new WebAssembly.Memory({ initial: 1 });
  return {
    dimensions,
    width: Math.ceil(dimensions / 16) * 16,
    memory,
    kernel: kernel ? instantiateCosineKernel(kernel, memory) : null,
    scales: new Float32Array(1024),
    norms: new Float32Array(1024),
    count: 0,
  };
}

/** Quantises `vector` (its first `dimensions` values; non-finite ones as 0) into row `bkey`. */
export function setInt8Row(rows: Int8Rows, bkey: number, vector: Float32Array): void {
  const { dimensions: d, width } = rows;
  const need = rowsStart(width) + (bkey + 1) * (width + 4);
  const have = rows.memory.buffer.byteLength;
  if (need > have) rows.memory.grow(Math.max(Math.ceil((need - have) / PAGE), Math.ceil(have / PAGE / 8)));
  if (bkey >= rows.scales.length) {
    const size = Math.max(bkey + 1, rows.scales.length * 2);
    const scales = new Float32Array(size);
    scales.set(rows.scales);
    rows.scales = scales;
    const norms = new Float32Array(size);
    norms.set(rows.norms);
    rows.norms = norms;
  }
  let max = 0;
  let norm = 0;
  for (let j = 0; j < d; j++) {
    const x = finite(vector[j]);
    max = Math.max(max, Math.abs(x));
    norm = Math.fround(norm + Math.fround(x * x));
  }
  const row = new Int8Array(rows.memory.buffer, rowsStart(width) + bkey * width, width);
  const step = max / 127;
  for (let j = 0; j < d; j++) row[j] = step > 0 ? Math.round(finite(vector[j]) / step) : 0;
  rows.scales[bkey] = step;
  rows.norms[bkey] = norm;
  rows.count = Math.max(rows.count, bkey + 1);
}

const finite = (x: number | undefined): number => (x !== undefined && Number.isFinite(x) ? x : 0);

/**
 * The `k` best rows among those `include` marks (> 0) by approximate cosine similarity to
 * `query`, positive scores only, by score descending then key ascending.
 */
export function int8Top(
  rows: Readonly<Int8Rows>,
  query: Float32Array,
  k: number,
  include: Int32Array,
): Array<{ bkey: number; score: number }> {
  const { dimensions: d, width } = rows;
  const end = Math.min(rows.count, include.length);
  if (end === 0 || k <= 0) return [];
  let max = 0;
  let qNorm = 0;
  for (let j = 0; j < d; j++) {
    const x = finite(query[j]);
    max = Math.max(max, Math.abs(x));
    qNorm += x * x;
  }
  if (max === 0) return [];
  // The largest int16 scale whose dot products cannot overflow an int32.
  const levels = Math.min(32767, Math.floor(0x7fffffff / (127 * width)));
  const qStep = max / levels;
  const q = new Int16Array(rows.memory.buffer, 0, width);
  q.fill(0);
  for (let j = 0; j < d; j++) q[j] = Math.round(finite(query[j]) / qStep);
  const dots = dotProducts(rows, q, end);
  const top = new TopK(k);
  const { scales, norms } = rows;
  for (let r = 0; r < end; r++)
    if (include[r]! > 0) top.offer(r, (dots[r]! * scales[r]! * qStep) / Math.sqrt(norms[r]! * qNorm));
  return top.result();
}

function dotProducts(rows: Readonly<Int8Rows>, q: Int16Array, end: number): Int32Array {
  const { width, memory } = rows;
  const start = rowsStart(width);
  const out = start + rows.count * width;
  if (rows.kernel) {
    rows.kernel.dots_i8(0, start, end, width, out);
    return new Int32Array(memory.buffer, out, end);
  }
  const data = new Int8Array(memory.buffer, start, end * width);
  const dots = new Int32Array(end);
  for (let r = 0, o = 0; r < end; r++, o += width) {
    let s = 0;
    for (let j = 0; j < width; j++) s += data[o + j]! * q[j]!;
    dots[r] = s;
  }
  return dots;
}
