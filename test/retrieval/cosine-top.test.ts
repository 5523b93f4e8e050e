import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { rowsOf } from '../../src/engine/rows.js';
import { bundledCosineKernel } from '../../src/retrieval/cosine-kernel.js';
import { cosineTop, createVectorRows, GROUP_ROWS, setVectorRow } from '../../src/retrieval/cosine-top.js';
import { engineOf, LedgerPool } from '../helpers/ledgers.js';

/**
 * The in-memory cosine scan against DuckDB's own `array_cosine_similarity` over the same
 * `FLOAT[d]` rows: the same bodies in the same order with the same scores, bit for bit, including
 * rows whose norms underflow or overflow, zero rows, NaN elements, ties and invisible rows.
 */
const pool = new LedgerPool();
let engine: Engine;
beforeAll(async () => {
  engine = engineOf(await pool.ledger());
});
afterAll(() => pool.close());

const d = 24;
const n = 80 * GROUP_ROWS + 7; // the last group partly filled

const kernel = bundledCosineKernel();
/** Both scans: the wasm SIMD kernel and the JS fallback where SIMD is missing. */
const SCANS = [
  ['the SIMD kernel', kernel],
  ['the JS scan', null],
] as const;

function rowsFor(vectors: Float32Array[], module: WebAssembly.Module | null) {
  const rows = createVectorRows(d, module);
  for (let bkey = 0; bkey < vectors.length; bkey++) setVectorRow(rows, bkey, vectors[bkey]!);
  return rows;
}

it('compiles the SIMD kernel in Node (a null here would leave only the JS scan tested)', () => {
  expect(kernel).toBeInstanceOf(WebAssembly.Module);
});

/** The query as the vector channel reads it (7 significant digits, as its statement wrote it). */
const queryLiteral = (v: Float32Array) => `'[${Array.from(v, (x) => x.toPrecision(7)).join(',')}]'::FLOAT[${d}]`;

/** Exact float32 text (9 significant digits round-trip a float32). */
const literal = (v: Float32Array) =>
  `'[${Array.from(v, (x) => (Number.isNaN(x) ? 'nan' : Number.isFinite(x) ? x.toPrecision(9) : x > 0 ? 'inf' : '-inf')).join(',')}]'::FLOAT[${d}]`;

describe.each(SCANS)('cosineTop with %s', (_, module) => {
  it('ranks and scores as array_cosine_similarity does', async () => {
    let seed = 12345;
    const rnd = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const vectors: Float32Array[] = [];
    for (let i = 0; i < n; i++) {
      const v = new Float32Array(d);
      const scale = 10 ** Math.floor(rnd() * 8 - 4);
      for (let j = 0; j < d; j++) v[j] = rnd() < 0.6 ? 0 : (rnd() - 0.4) * scale;
      if (i % 97 === 0) v.fill(0); // zero row: 0 / 0
      if (i % 101 === 1) v.fill(0).set([1e-30], 3); // norm underflows to 0: x / 0 = inf, clamped to 1
      if (i % 103 === 2) v.fill(1e30); // norm overflows
      if (i % 107 === 3) v[5] = Number.NaN;
      if (i % 89 === 4)
        vectors.push(vectors[i - 1]!.slice()); // a tie with the row before
      else vectors.push(v);
    }
    await engine.run(`CREATE OR REPLACE TABLE cosine_ref (bkey INTEGER, vec FLOAT[${d}])`);
    for (let i = 0; i < n; i += 500)
      await engine.run(
        `INSERT INTO cosine_ref VALUES ${vectors
          .slice(i, i + 500)
          .map((v, k) => `(${i + k}, ${literal(v)})`)
          .join(', ')}`,
      );
    const rows = rowsFor(vectors, module);
    let scored = 0;
    let clamped = 0;
    for (let t = 0; t < 6; t++) {
      const query = new Float32Array(d);
      for (let j = 0; j < d; j++) query[j] = rnd() < 0.3 ? 0 : rnd() - 0.5;
      query[3] = 0.25; // the underflowing rows score inf before the clamp
      if (t === 5) query.set(vectors[10]!); // exact matches score 1
      const visible = new Int32Array(n + 5).map(() => (rnd() < 0.8 ? 1 : 0));
      for (const k of [1, 16, n]) {
        const ranked = rowsOf<{ bkey: number; score: number }>(
          await engine.query(
            `SELECT bkey, array_cosine_similarity(vec, ${queryLiteral(query)})::DOUBLE AS score FROM cosine_ref ORDER BY score DESC, bkey`,
          ),
        );
        const expected = ranked
          .filter((r) => visible[r.bkey]! > 0)
          .slice(0, k)
          .filter((r) => r.score > 0);
        expect(cosineTop(rows, query, k, visible)).toEqual(expected);
        scored += expected.length;
        clamped += expected.filter((r) => r.score === 1).length;
      }
    }
    expect(scored).toBeGreaterThan(1000);
    expect(clamped).toBeGreaterThan(0);
  });

  it('scores nothing for a zero query or when no row is visible', () => {
    const rows = rowsFor([Float32Array.from({ length: d }, (_, j) => j + 1)], module);
    expect(cosineTop(rows, new Float32Array(d), 5, Int32Array.of(1))).toEqual([]);
    expect(
      cosineTop(
        rows,
        Float32Array.from({ length: d }, () => 1),
        5,
        Int32Array.of(0),
      ),
    ).toEqual([]);
    expect(
      cosineTop(
        rows,
        Float32Array.from({ length: d }, () => 1),
        5,
        new Int32Array(0),
      ),
    ).toEqual([]);
  });
});
