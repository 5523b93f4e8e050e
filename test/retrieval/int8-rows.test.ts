import { describe, expect, it } from 'vitest';
import { openLedger } from '../../src/entries/node.js';
import { bundledCosineKernel } from '../../src/retrieval/cosine-kernel.js';
import { cosineTop, createVectorRows, setVectorRow } from '../../src/retrieval/cosine-top.js';
import { createInt8Rows, int8Top, setInt8Row } from '../../src/retrieval/int8-rows.js';

/** The 8-bit option: approximate scores, the same from the SIMD kernel and the JS scan. */
const d = 40; // not a multiple of 16: rows are zero-padded to 48 bytes
const n = 700;

function vectors(seed: number): Float32Array[] {
  let s = seed;
  const rnd = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
  const out: Float32Array[] = [];
  for (let i = 0; i < n; i++) {
    const scale = 10 ** Math.floor(rnd() * 8 - 4);
    const v = Float32Array.from({ length: d }, () => rnd() * scale);
    if (i % 50 === 7) v.fill(0);
    if (i % 61 === 3) v[2] = Number.NaN;
    out.push(v);
  }
  return out;
}

describe('int8 vectors', () => {
  const rows = vectors(7);
  const queries = vectors(99).slice(0, 12);
  const visible = new Int32Array(n).map((_, i) => (i % 9 === 4 ? 0 : 1));
  const simd = createInt8Rows(d, bundledCosineKernel());
  const js = createInt8Rows(d, null);
  const exact = createVectorRows(d, null);
  rows.forEach((v, bkey) => {
    setInt8Row(simd, bkey, v);
    setInt8Row(js, bkey, v);
    setVectorRow(exact, bkey, v);
  });

  it('scores the same in the SIMD kernel and the JS scan', () => {
    expect(simd.kernel).not.toBeNull();
    for (const q of queries) expect(int8Top(simd, q, 50, visible)).toEqual(int8Top(js, q, 50, visible));
  });

  it('stays within rounding of the exact scores and keeps most of the exact top 10', () => {
    let kept = 0;
    for (const q of queries) {
      const approx = int8Top(simd, q, n, visible);
      const truth = cosineTop(exact, q, n, visible);
      const byKey = new Map(truth.map((r) => [r.bkey, r.score]));
      for (const r of approx.slice(0, 50)) {
        expect(visible[r.bkey]).toBe(1);
        // A row with a NaN has no exact score (NaN is dropped); quantised, it reads as 0.
        if (rows[r.bkey]!.some(Number.isNaN)) continue;
        expect(Math.abs(r.score - (byKey.get(r.bkey) ?? 0))).toBeLessThan(0.03);
      }
      const top10 = new Set(truth.slice(0, 10).map((r) => r.bkey));
      kept += approx.slice(0, 10).filter((r) => top10.has(r.bkey)).length;
    }
    expect(kept / (10 * queries.length)).toBeGreaterThan(0.8);
  });

  it('is an option only: an unknown precision is refused with INVALID_OPTION naming it', async () => {
    await expect(openLedger({ vectorPrecision: 'int4' as 'int8' })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      details: { field: 'vectorPrecision' },
    });
  });
});
