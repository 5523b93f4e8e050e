import { intLiteral } from '../../src/sql/literals.js';

/**
 * The vector channel's former SQL, kept as the reference its in-memory scan
 * (src/retrieval/cosine-top.ts) reproduces bit for bit; the library no longer runs it.
 */

/** The body-vector table, one fixed-size `FLOAT[d]` per body. */
export function bodyVectorsTableSql(dimensions: number): string {
  return `CREATE OR REPLACE TABLE body_vectors (bkey INTEGER NOT NULL, vec FLOAT[${intLiteral(dimensions)}] NOT NULL)`;
}

/**
 * The `limit` body vectors most similar to the query vector, brute force. The query vector is one
 * string cast to `FLOAT[d]`, not a list of d numeric literals: DuckDB binds each of those as a
 * DECIMAL constant cast to FLOAT, which at 384 dimensions cost ~4.8 ms of CPU per statement (the
 * string is parsed in ~0.5 ms; same floats, checked element by element on 76,800 values from
 * 1e-20 to 1e10).
 */
export function cosineTopSql(vector: Float32Array, limit: number): string {
  const text = Array.from(vector, (x) => (Number.isFinite(x) ? x.toPrecision(7) : '0')).join(',');
  return `SELECT bkey, array_cosine_similarity(vec, '[${text}]'::FLOAT[${intLiteral(vector.length)}])::DOUBLE AS score FROM body_vectors
ORDER BY score DESC, bkey LIMIT ${intLiteral(limit)}`;
}
