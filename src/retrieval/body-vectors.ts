import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import { bodiesFromSql } from '../sql/retrieval-sql.js';
import type { Embedder } from '../text/hashed-embedder.js';
import { cosineTop, createVectorRows, setVectorRow, type VectorRows } from './cosine-top.js';

/**
 * Body vectors for the vector channel, keyed by body, in memory (float32 chunks, see
 * cosine-top.ts). Built on the first retrieval that reads them (a query vector, or text with a
 * semantic embedder) and caught up before each such retrieval: embedding is the host's model,
 * possibly slow and async, so it is kept off the commit path, and a ledger that never asks by
 * vector never embeds. Derived data, never in snapshots. The library never loads DuckDB's vss
 * extension (it would be downloaded at run time; Workers cannot load extensions at all).
 *
 * Why not a DuckDB table (`FLOAT[d]`, `array_cosine_similarity`): each retrieval would copy
 * every vector out of the table to score it, which costs more than scanning them in place here
 * (docs/benchmarks/profiles.md). The vectors take the same 4 bytes a float either way, here in
 * typed arrays outside the JS heap's objects instead of DuckDB's wasm memory, which never shrinks.
 */
export class BodyVectors {
  private upTo = 0;
  private readonly rows: VectorRows;

  private constructor(
    private readonly engine: Engine,
    readonly embedder: Embedder,
    private readonly bodiesEnd: () => number,
  ) {
    this.rows = createVectorRows(embedder.dimensions);
  }

  /** Starts empty: the vectors are derived, so building them from key 0 is always right. */
  static async create(engine: Engine, embedder: Embedder, bodiesEnd: () => number): Promise<BodyVectors> {
    return new BodyVectors(engine, embedder, bodiesEnd);
  }

  /** Embeds every body written since the last call. */
  async catchUp(batch = 5000): Promise<number> {
    let done = 0;
    while (this.upTo < this.bodiesEnd()) {
      const rows = rowsOf<{ bkey: number; text: string }>(await this.engine.query(bodiesFromSql(this.upTo, batch)));
      if (rows.length === 0) break;
      await this.insert(rows);
      this.upTo = rows[rows.length - 1]!.bkey + 1;
      done += rows.length;
    }
    return done;
  }

  /** The `k` visible bodies (`visible[bkey] > 0`) most similar to `query`, positive scores only. */
  top(query: Float32Array, k: number, visible: Int32Array): Array<{ bkey: number; score: number }> {
    return cosineTop(this.rows, query, k, visible);
  }

  private async insert(rows: ReadonlyArray<{ bkey: number; text: string }>): Promise<void> {
    const vectors = await this.embedder.embed(rows.map((r) => r.text));
    for (let i = 0; i < rows.length; i++) setVectorRow(this.rows, rows[i]!.bkey, vectors[i]!);
  }
}
