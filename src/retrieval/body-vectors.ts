import { Field, FixedSizeList, Float32, makeData, makeTable, makeVector, type Table, tableToIPC } from 'apache-arrow';
import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import { bodiesFromSql, bodyVectorsTableSql } from '../sql/retrieval-sql.js';
import type { Embedder } from '../text/hashed-embedder.js';

/**
 * Body vectors for the vector channel, keyed by body, in a DuckDB table (`FLOAT[d]`, cosine in
 * SQL): at 384 dimensions they are 1.5 KB a body, too many to hold in JS beside the engine. Built
 * on the first retrieval that reads them (a query vector, or text with a semantic embedder) and
 * caught up before each such retrieval: embedding is the host's model, possibly slow and async,
 * so it is kept off the commit path, and a ledger that never asks by vector never embeds. Derived
 * data, never in snapshots. The library never loads DuckDB's vss extension (it would be
 * downloaded at run time; Workers cannot load extensions at all).
 */
export class BodyVectors {
  private upTo = 0;

  private constructor(
    private readonly engine: Engine,
    readonly embedder: Embedder,
    private readonly bodiesEnd: () => number,
  ) {}

  /** Creates the table afresh: it is derived, so rebuilding from key 0 is always right. */
  static async create(engine: Engine, embedder: Embedder, bodiesEnd: () => number): Promise<BodyVectors> {
    await engine.run(bodyVectorsTableSql(embedder.dimensions));
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

  private async insert(rows: ReadonlyArray<{ bkey: number; text: string }>): Promise<void> {
    const keys = Int32Array.from(rows.map((r) => r.bkey));
    const vectors = await this.embedder.embed(rows.map((r) => r.text));
    const d = this.embedder.dimensions;
    const flat = new Float32Array(rows.length * d);
    for (let i = 0; i < vectors.length; i++) flat.set(vectors[i]!.subarray(0, d), i * d);
    const child = makeData({ type: new Float32(), length: flat.length, data: flat });
    const vec = makeVector(
      makeData({
        type: new FixedSizeList(d, new Field('item', new Float32(), true)),
        length: rows.length,
        nullCount: 0,
        child,
      }),
    );
    await this.engine.insertIPC(
      'body_vectors',
      tableToIPC(tableOf({ bkey: makeVector(keys), vec } as never), 'stream'),
    );
  }
}

/** makeTable's typing rejects a record of vectors; the columns here are built by hand. */
const tableOf = (columns: Record<string, unknown>): Table => makeTable(columns as never) as unknown as Table;
