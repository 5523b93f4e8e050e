#!/usr/bin/env node
// Records every function signature DuckDB-WASM turns into a wasm function at run time.
//
// Emscripten's dynamic-linking start-up (and some lazily resolved symbols later) wraps JS
// functions into wasm functions so they can sit in the indirect-call table. It does this either
// with `new WebAssembly.Function(type, fn)` or, where that is missing (Node 20, workerd), by
// compiling a tiny module from bytes. Cloudflare Workers refuse the byte path, so the workerd
// shim answers those requests from a precompiled module that has one trampoline per signature.
// This script finds the signatures by running DuckDB's Node blocking build (same duckdb-eh.wasm,
// same emscripten glue) with the WebAssembly constructors wrapped, through start-up and a set of
// representative queries.
//
//   node wasm/trampolines/list-signatures.mjs           writes signatures.json next to this file
//   node wasm/trampolines/list-signatures.mjs --stdout  prints the same JSON instead (used by tests)
//
// Any byte-compiled module of another shape is a hard error: the trampoline scheme could not
// serve it, so it must not go unnoticed.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** Emscripten's signature letters; `p` (pointer) never reaches the binary on wasm32. */
const LETTER_BY_VALTYPE = new Map([
  [0x7f, 'i'],
  [0x7e, 'j'],
  [0x7d, 'f'],
  [0x7c, 'd'],
  [0x6f, 'e'],
]);
const LETTER_BY_TYPE_NAME = new Map([
  ['i32', 'i'],
  ['i64', 'j'],
  ['f32', 'f'],
  ['f64', 'd'],
  ['externref', 'e'],
]);

/** Anything this small is one of emscripten's generated helpers, never DuckDB itself (34 MB). */
const HELPER_MAX_BYTES = 64 * 1024;

const signatures = new Set();
const problems = [];

function toBytes(source) {
  if (source instanceof Uint8Array) return source;
  if (ArrayBuffer.isView(source)) return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  return null;
}

/**
 * Reads the sections emscripten's helper modules use and records the signature if the module is
 * the plain "import e.f, export it as f" wrapper; anything else is recorded as a problem.
 */
function classify(bytes, via) {
  let pos = 8;
  const u32 = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[pos++];
      result |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result >>> 0;
      shift += 7;
    }
  };
  const name = () => {
    const n = u32();
    const s = new TextDecoder().decode(bytes.subarray(pos, pos + n));
    pos += n;
    return s;
  };
  const types = [];
  const imports = [];
  const exports = [];
  const sectionIds = [];
  while (pos < bytes.length) {
    const id = bytes[pos++];
    const size = u32();
    const end = pos + size;
    sectionIds.push(id);
    if (id === 1) {
      for (let n = u32(); n > 0; n--) {
        if (bytes[pos++] !== 0x60) throw new Error('unexpected type form');
        const params = [];
        for (let k = u32(); k > 0; k--) params.push(LETTER_BY_VALTYPE.get(bytes[pos++]) ?? '?');
        const results = [];
        for (let k = u32(); k > 0; k--) results.push(LETTER_BY_VALTYPE.get(bytes[pos++]) ?? '?');
        types.push({ params, results });
      }
    } else if (id === 2) {
      for (let n = u32(); n > 0; n--) {
        const mod = name();
        const field = name();
        const kind = bytes[pos++];
        imports.push({ mod, field, kind, index: kind === 0 ? u32() : -1 });
        if (kind !== 0) break; // only function imports are expected; the shape check below fails
      }
    } else if (id === 7) {
      for (let n = u32(); n > 0; n--) exports.push({ field: name(), kind: bytes[pos++], index: u32() });
    }
    pos = end;
  }
  const isWrapper =
    types.length === 1 &&
    types[0].results.length <= 1 &&
    imports.length === 1 &&
    imports[0].kind === 0 &&
    imports[0].index === 0 &&
    exports.length === 1 &&
    exports[0].kind === 0 &&
    exports[0].index === 0 &&
    sectionIds.every((id) => id === 1 || id === 2 || id === 7);
  if (!isWrapper) {
    problems.push({ via, bytes: bytes.length, sections: sectionIds, types, imports, exports });
    return;
  }
  const { params, results } = types[0];
  signatures.add((results[0] ?? 'v') + params.join(''));
}

function inspect(source, via) {
  const bytes = toBytes(source);
  if (bytes && bytes.length <= HELPER_MAX_BYTES) classify(bytes, via);
}

function installRecorders() {
  const W = globalThis.WebAssembly;
  // A Proxy keeps `instanceof WebAssembly.Module` and the static helpers working unchanged.
  W.Module = new Proxy(W.Module, {
    construct(target, args, newTarget) {
      inspect(args[0], 'new WebAssembly.Module');
      return Reflect.construct(target, args, newTarget);
    },
  });
  for (const key of ['instantiate', 'compile']) {
    const original = W[key];
    W[key] = function (source, ...rest) {
      inspect(source, `WebAssembly.${key}`);
      return original.call(this, source, ...rest);
    };
  }
  if (typeof W.Function === 'function') {
    W.Function = new Proxy(W.Function, {
      construct(target, args, newTarget) {
        const { parameters = [], results = [] } = args[0] ?? {};
        const letter = (t) => LETTER_BY_TYPE_NAME.get(t) ?? '?';
        signatures.add((results.length ? letter(results[0]) : 'v') + parameters.map(letter).join(''));
        return Reflect.construct(target, args, newTarget);
      },
    });
  }
}

/** Start-up plus the kinds of statement the ledger runs; each may resolve symbols lazily. */
async function exercise() {
  const duckdb = require('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs');
  const arrow = await import('apache-arrow');
  const dist = dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm'));
  const bundles = {
    mvp: { mainModule: join(dist, 'duckdb-mvp.wasm'), mainWorker: join(dist, 'duckdb-node-mvp.worker.cjs') },
    eh: { mainModule: join(dist, 'duckdb-eh.wasm'), mainWorker: join(dist, 'duckdb-node-eh.worker.cjs') },
  };
  const db = await duckdb.createDuckDB(bundles, new duckdb.VoidLogger(), duckdb.NODE_RUNTIME);
  await db.instantiate();
  db.open({ path: ':memory:', query: { castBigIntToDouble: false } });
  const conn = db.connect();
  const statements = [
    'SET autoload_known_extensions=false',
    'CREATE TABLE t(a INTEGER, s VARCHAR, v FLOAT[4])',
    "INSERT INTO t VALUES (1, 'alpha', [1, 0, 0, 0]), (2, 'beta', [0.5, 0.5, 0, 0]), (3, NULL, NULL)",
    'SELECT a, array_cosine_similarity(v, [1, 0, 0, 0]::FLOAT[4]) AS sim FROM t ORDER BY sim DESC NULLS LAST',
    "SELECT count(*), sum(a), avg(a), min(s), max(s), string_agg(s, ',' ORDER BY a), list(a ORDER BY a) FROM t",
    'SELECT a % 2 AS k, count(*) AS n, arg_max(s, a) FROM t GROUP BY ALL ORDER BY k',
    "SELECT upper(s), lower(s), length(s), substr(s, 2, 3), replace(s, 'a', 'x'), concat_ws('-', s, a::VARCHAR), s LIKE 'a%', regexp_matches(s, '^b'), strpos(s, 'e'), trim('  x  '), split_part('a/b/c', '/', 2), md5(s) FROM t",
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 100) SELECT sum(n) FROM r',
    "SELECT row_number() OVER (ORDER BY a), lag(a) OVER (ORDER BY a), now() > TIMESTAMP '2000-01-01', epoch_ms(0::BIGINT), 1::HUGEINT * 3, 2.5::DECIMAL(10,2) FROM t",
    'BEGIN TRANSACTION',
    "UPDATE t SET s = 'gamma' WHERE a = 3",
    'DELETE FROM t WHERE a = 2',
    'ROLLBACK',
  ];
  for (const sql of statements) conn.query(sql);
  const table = arrow.tableFromArrays({
    id: ['x', 'y', 'z'],
    n: Int32Array.from([10, 20, 30]),
    w: Float64Array.from([0.5, 1.5, 2.5]),
  });
  conn.query('CREATE TABLE ing(id VARCHAR, n INTEGER, w DOUBLE)');
  conn.insertArrowFromIPCStream(arrow.tableToIPC(table, 'stream'), { name: 'ing', create: false });
  conn.insertArrowFromIPCStream(arrow.tableToIPC(table, 'stream'), { name: 'ing_created', create: true });
  const check = conn.query(
    'SELECT (SELECT count(*) FROM ing)::INTEGER + (SELECT count(*) FROM ing_created)::INTEGER AS n',
  );
  if (check.get(0)?.n !== 6) throw new Error('the Arrow ingest check returned a wrong count');
  try {
    conn.query('SELECT no_such_column FROM t');
  } catch {
    // The error path marshals a message through JS, which is worth recording too.
  }
  conn.close();
  await db.reset();
  return duckdb.PACKAGE_VERSION;
}

installRecorders();
const duckdbWasm = await exercise();
if (problems.length > 0) {
  console.error('DuckDB compiled a module that is not a plain JS-function wrapper:');
  console.error(JSON.stringify(problems, null, 2));
  process.exit(1);
}
const output = `${JSON.stringify({ duckdbWasm, signatures: [...signatures].sort() }, null, 2)}\n`;
if (process.argv.includes('--stdout')) {
  process.stdout.write(output);
} else {
  writeFileSync(join(here, 'signatures.json'), output);
  console.log(`wrote ${signatures.size} signatures to signatures.json`);
}
