/**
 * Probe Worker: proves DuckDB-WASM and tiktoken run inside workerd behind the library's own
 * engine and token-counter code. `GET /probe` returns what the test asserts, plus timings.
 */

import duckdbModule from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm';
import { makeData, makeVector, Table, tableToIPC, Utf8, type Vector } from 'apache-arrow';
import tiktokenModule from 'tiktoken/lite/tiktoken_bg.wasm';
import type { Engine } from '../../src/engine/engine.js';
import { openWorkerdEngine } from '../../src/engine/open-workerd.js';
import { rowsOf } from '../../src/engine/rows.js';
import { createWorkerdTokenCounter } from '../../src/tokenizer/tiktoken-workerd.js';
import trampolineModule from '../../wasm/trampolines/trampolines.wasm';
import { PROBE_TEXT } from './probe-input.js';

/**
 * A Utf8 column built from its buffers. apache-arrow's builders (behind `tableFromArrays` and
 * `vectorFromArray` on plain JS arrays) compile their null check with `new Function`, which
 * Workers forbid.
 */
function utf8Vector(values: readonly string[]): Vector<Utf8> {
  const encoded = values.map((v) => new TextEncoder().encode(v));
  const valueOffsets = new Int32Array(values.length + 1);
  const data = new Uint8Array(encoded.reduce((total, bytes) => total + bytes.length, 0));
  let offset = 0;
  for (const [i, bytes] of encoded.entries()) {
    data.set(bytes, offset);
    offset += bytes.length;
    valueOffsets[i + 1] = offset;
  }
  return makeVector(makeData({ type: new Utf8(), length: values.length, valueOffsets, data }));
}

/** Opened once per isolate: the first request pays the start-up, later ones reuse it. */
let engine: Promise<Engine> | undefined;
let openMs: number | undefined;

async function getEngine(): Promise<Engine> {
  if (!engine) {
    const started = performance.now();
    engine = openWorkerdEngine({ duckdbModule, trampolineModule }).then((opened) => {
      openMs = performance.now() - started;
      return opened;
    });
    // A failed start must not poison the isolate: the next request tries again.
    engine.catch(() => {
      engine = undefined;
    });
  }
  return engine;
}

async function probe(): Promise<Record<string, unknown>> {
  const coldStart = engine === undefined;
  // Meaningful locally only: deployed Workers advance the clock on I/O, not while computing.
  const started = performance.now();
  const db = await getEngine();
  const tokenStarted = performance.now();
  const counter = await createWorkerdTokenCounter(tiktokenModule, 'o200k_base');
  const tokenInitMs = performance.now() - tokenStarted;
  const queriesStarted = performance.now();

  await db.run(
    'CREATE OR REPLACE TABLE t(a INTEGER, v FLOAT[3]);' +
      'INSERT INTO t VALUES (1, [1, 0, 0]), (2, [1, 1, 0]), (3, [0, 0, 1]);',
  );
  const similarity = rowsOf(
    await db.query('SELECT a, array_cosine_similarity(v, [1, 0, 0]::FLOAT[3]) AS sim FROM t ORDER BY sim DESC, a'),
  );

  await db.run(
    'CREATE OR REPLACE TABLE e(src VARCHAR, dst VARCHAR);' +
      "INSERT INTO e VALUES ('a', 'b'), ('b', 'c'), ('c', 'd'), ('x', 'y');",
  );
  const reachable = rowsOf(
    await db.query(
      "WITH RECURSIVE r(id, depth) AS (SELECT 'a', 0 UNION SELECT e.dst, r.depth + 1 FROM r JOIN e ON e.src = r.id) " +
        "SELECT string_agg(id, ',' ORDER BY id) AS ids, max(depth)::INTEGER AS depth FROM r",
    ),
  );

  await db.run('CREATE OR REPLACE TABLE ing(id VARCHAR, n INTEGER, w DOUBLE)');
  const batch = new Table({
    id: utf8Vector(['p', 'q', 'ü🚀']),
    n: makeVector(Int32Array.from([1, 2, 3])),
    w: makeVector(Float64Array.from([0.25, 0.5, 0.75])),
  });
  await db.insertIPC('ing', tableToIPC(batch, 'stream'));
  const ingested = rowsOf(await db.query('SELECT id, n, w FROM ing ORDER BY n'));

  const tokens = counter.count(PROBE_TEXT);
  const queriesMs = performance.now() - queriesStarted;
  const runtime = globalThis as { process?: { versions?: { node?: string }; type?: string } };
  return {
    runtime: {
      nodeCompat: typeof runtime.process?.versions?.node === 'string',
      processType: runtime.process?.type ?? null,
    },
    coldStart,
    timings: { openMs, tokenInitMs, queriesMs, totalMs: performance.now() - started },
    similarity,
    reachable,
    ingested,
    tokens: { encoding: counter.encoding, count: tokens },
  };
}

export default {
  async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname !== '/probe') return new Response('not found', { status: 404 });
    try {
      return Response.json(await probe());
    } catch (error) {
      // The message (e.g. a missing trampoline signature) is what the test prints on failure.
      return Response.json({ error: error instanceof Error ? error.message : String(error) }, { status: 500 });
    }
  },
};
