import {
  Field,
  FixedSizeList,
  Float32,
  makeData,
  makeTable,
  makeVector,
  type Table,
  tableToIPC,
  Utf8,
} from 'apache-arrow';
import type { Engine } from '../engine/engine.js';
import { rowsOf, scalarOf } from '../engine/rows.js';
import { intLiteral } from '../sql/literals.js';
import type { Embedder } from './hashed-embedder.js';
import { termCounts } from './text-terms.js';

/**
 * The derived search tables: BM25 postings and body vectors, keyed by body (bodies are
 * content-addressed and immutable, so each is indexed once). They are derived data — never in
 * snapshots — and caught up incrementally before a retrieval reads them (an append-only body
 * table makes "index bodies above the watermark" equivalent to maintaining them at commit,
 * without slowing commits). The library never loads DuckDB's fts/vss extensions (they would be
 * downloaded at run time; Workers cannot load them at all), so BM25 and cosine run as plain SQL
 * over these tables in every runtime.
 */
export class SearchIndex {
  private indexedUpTo = 0;
  private vectorsUpTo = 0;

  private constructor(
    private readonly engine: Engine,
    readonly embedder: Embedder,
    private readonly bodiesEnd: () => number,
  ) {}

  /**
   * Creates the tables afresh: they are derived, so rebuilding from the watermark 0 is always
   * right. `bodiesEnd` gives the next body key the ledger will assign (its in-memory index
   * knows), so a catch-up with nothing new costs no round trip.
   */
  static async create(
    engine: Engine,
    embedder: Embedder,
    bodiesEnd: () => number = () => Infinity,
  ): Promise<SearchIndex> {
    await engine.run(
      'CREATE OR REPLACE TABLE postings (bkey INTEGER NOT NULL, term VARCHAR NOT NULL, tf INTEGER NOT NULL)',
    );
    await engine.run('CREATE OR REPLACE TABLE doc_len (bkey INTEGER NOT NULL, len INTEGER NOT NULL)');
    await engine.run(
      `CREATE OR REPLACE TABLE body_vectors (bkey INTEGER NOT NULL, vec FLOAT[${intLiteral(embedder.dimensions)}] NOT NULL)`,
    );
    return new SearchIndex(engine, embedder, bodiesEnd);
  }

  /**
   * Indexes every body written since the last call: postings always, vectors only when `vectors`
   * is set — a lexical embedder's body vectors are read only for a host-given query vector, so
   * they are built on the first retrieval that needs them rather than on every first retrieval.
   */
  async catchUp(options: { vectors: boolean } = { vectors: true }, batch = 5000): Promise<number> {
    let done = await this.catchUpTable('postings', batch);
    if (options.vectors) done += await this.catchUpTable('vectors', batch);
    return done;
  }

  private async catchUpTable(what: 'postings' | 'vectors', batch: number): Promise<number> {
    let done = 0;
    for (;;) {
      const from = what === 'postings' ? this.indexedUpTo : this.vectorsUpTo;
      if (from >= this.bodiesEnd()) return done;
      const rows = rowsOf<{ bkey: number; text: string }>(
        await this.engine.query(
          `SELECT bkey, text FROM bodies WHERE bkey >= ${intLiteral(from)} ORDER BY bkey LIMIT ${intLiteral(batch)}`,
        ),
      );
      if (rows.length === 0) return done;
      const next = rows[rows.length - 1]!.bkey + 1;
      if (what === 'postings') {
        await this.indexPostings(rows);
        this.indexedUpTo = next;
      } else {
        await this.indexVectors(rows);
        this.vectorsUpTo = next;
      }
      done += rows.length;
    }
  }

  private async indexPostings(rows: ReadonlyArray<{ bkey: number; text: string }>): Promise<void> {
    const pk: number[] = [];
    const pt: string[] = [];
    const ptf: number[] = [];
    const lens = new Int32Array(rows.length);
    rows.forEach((r, i) => {
      const { counts, length } = termCounts(r.text);
      lens[i] = length;
      for (const [term, tf] of [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
        pk.push(r.bkey);
        pt.push(term);
        ptf.push(tf);
      }
    });
    const keys = Int32Array.from(rows.map((r) => r.bkey));
    await this.engine.run('BEGIN TRANSACTION');
    try {
      if (pk.length > 0) {
        await this.engine.insertIPC(
          'postings',
          tableToIPC(
            tableOf({
              bkey: makeVector(Int32Array.from(pk)),
              term: utf8(pt),
              tf: makeVector(Int32Array.from(ptf)),
            } as never),
            'stream',
          ),
        );
      }
      await this.engine.insertIPC(
        'doc_len',
        tableToIPC(tableOf({ bkey: makeVector(keys), len: makeVector(lens) } as never), 'stream'),
      );
      await this.engine.run('COMMIT');
    } catch (e) {
      await this.engine.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  private async indexVectors(rows: ReadonlyArray<{ bkey: number; text: string }>): Promise<void> {
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

  async postingCount(): Promise<number> {
    return scalarOf<number>(await this.engine.query('SELECT count(*)::INTEGER FROM postings')) ?? 0;
  }
}

/** makeTable's typing rejects a record of vectors; the columns here are built by hand. */
const tableOf = (columns: Record<string, unknown>): Table => makeTable(columns as never) as unknown as Table;

function utf8(values: string[]) {
  const enc = new TextEncoder();
  const bytes = values.map((v) => enc.encode(v));
  const offsets = new Int32Array(values.length + 1);
  for (let i = 0; i < bytes.length; i++) offsets[i + 1] = offsets[i]! + bytes[i]!.length;
  const data = new Uint8Array(offsets[values.length]!);
  for (let i = 0; i < bytes.length; i++) data.set(bytes[i]!, offsets[i]!);
  return makeVector(makeData({ type: new Utf8(), length: values.length, nullCount: 0, valueOffsets: offsets, data }));
}
