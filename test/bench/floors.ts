/**
 * Floors: the same work as a ledger operation done the cheapest way known, measured in the same
 * run, so every figure is also a ratio (× floor). They bound what engineering inside the ledger can
 * win: a figure near its floor is spent in the engine or the data, not in the ledger's code.
 *
 * - bare DuckDB ingest: the ledger's own rows (its snapshot sections), one Arrow IPC stream per
 *   table into empty tables of a fresh database, in one transaction — no validation, planning,
 *   hashing or token counting;
 * - bare DuckDB transactions: the Arrow streams the ledger's commits wrote, replayed one engine
 *   transaction per commit as the ledger wrote them (the first floor in the commits' own shape);
 * - bare DuckDB step: a step's rows written as the ledger writes them (three Arrow streams, in
 *   one transaction) with none of its work around them; also,
 *   for comparison, the same rows as VALUES in one multi-statement round trip;
 * - bare DuckDB closure: the working set's closure statement alone, prepared (walk, group
 *   completion and node rows; no neighbourhood parts, tiers, packing or explanation);
 * - in-memory JS BFS: the same bounded closure over adjacency lists built once;
 * - Orama: BM25 (and hybrid) search over the same bodies in `@orama/orama`;
 * - memory bandwidth for the vector scan: a plain `Float32Array` sum over as many bytes as the
 *   vector channel scans (every body's float32 vector), the least any exact scan must read.
 */
import type { Engine } from '../../src/engine/engine.js';
import { openNodeEngine } from '../../src/engine/open-node.js';
import { commitRowsIPC } from '../../src/ledger/commit/commit-ipc.js';
import { type Ledger, ledgerCore } from '../../src/ledger/ledger.js';
import { CREATE_TABLES, ENGINE_TABLES } from '../../src/schema/ddl.js';
import {
  type ClosureShape,
  closureParams,
  closureShape,
  closureStatementSql,
  workingSetSql,
} from '../../src/sql/closure.js';
import { stringLiteral } from '../../src/sql/literals.js';
import { queryPrepared } from '../../src/sql/prepared.js';
import { beginTransactionSql, commitSql } from '../../src/sql/transaction-sql.js';
import { timed, timedCpu } from './bench-util.js';

/** Opens a fresh database with the ledger's tables, ingests the sections, returns ms (incl. open). */
export async function bareIngestMs(sections: ReadonlyMap<string, Uint8Array>): Promise<number> {
  const [engine, ms] = await timed(async () => {
    const engine = await openNodeEngine();
    for (const t of ENGINE_TABLES) await engine.run(CREATE_TABLES[t]);
    await engine.run(beginTransactionSql());
    for (const t of ENGINE_TABLES) {
      const ipc = sections.get(t);
      if (ipc && ipc.length > 0) await engine.insertIPC(t, ipc);
    }
    await engine.run(commitSql());
    return engine;
  });
  await engine.close();
  return ms;
}

/** One commit's engine writes as the ledger made them: each Arrow stream, by table, in order. */
export type RecordedWrite = Array<[table: string, ipc: Uint8Array]>;

/**
 * Records the Arrow streams `engine` inserts, one list per engine transaction, as copies (the
 * ledger reuses its stream buffer from call to call). For `bareTransactionsMs`.
 */
export function recordWrites(engine: Engine): { writes: RecordedWrite[]; stop: () => void } {
  const writes: RecordedWrite[] = [];
  const insertIPC = engine.insertIPC;
  const run = engine.run;
  let current: RecordedWrite | null = null;
  engine.run = async (sql) => {
    if (sql.startsWith(beginTransactionSql())) {
      current = [];
      writes.push(current);
    }
    return run.call(engine, sql);
  };
  engine.insertIPC = async (table, ipc) => {
    current?.push([table, ipc.slice()]);
    return insertIPC.call(engine, table, ipc);
  };
  return {
    writes,
    stop: () => {
      engine.run = run;
      engine.insertIPC = insertIPC;
    },
  };
}

/**
 * The same streams written the way the ledger wrote them, one engine transaction per commit
 * (BEGIN, its streams, COMMIT), into empty tables of a fresh database: what DuckDB-WASM alone
 * costs for a commit's shape. Returns ms (the database opened before timing).
 */
export async function bareTransactionsMs(writes: readonly RecordedWrite[]): Promise<number> {
  const engine = await openNodeEngine();
  for (const t of ENGINE_TABLES) await engine.run(CREATE_TABLES[t]);
  const [, ms] = await timed(async () => {
    for (const write of writes) {
      await engine.run(beginTransactionSql());
      for (const [table, ipc] of write) await engine.insertIPC(table, ipc);
      await engine.run(commitSql());
    }
  });
  await engine.close();
  return ms;
}

/** A step's worth of rows (bodies, nodes, edges) written as one SQL round trip. */
export async function bareStepMs(engine: Engine, step: number, bodies: readonly string[]): Promise<number> {
  const base = 10_000_000 + step * 100;
  const values = (rows: string[][]) => rows.map((r) => `(${r.join(', ')})`).join(', ');
  const sql = [
    beginTransactionSql(),
    `INSERT INTO floor_bodies VALUES ${values(bodies.map((b, i) => [String(base + i), stringLiteral(`h${base + i}`), stringLiteral(b), '100', String(b.length), String(step)]))}`,
    `INSERT INTO floor_nodes VALUES ${values(bodies.map((_, i) => [String(base + i), String(base + i), stringLiteral(`s${base + i}`), "'message'", 'NULL', "'agent'", String(base + i), 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', String(step), String(step), 'NULL']))}`,
    `INSERT INTO floor_edges VALUES ${values(Array.from({ length: 12 }, (_, i) => [String(base + i), String(base + (i % 10)), String(base), "'depends_on'", String(step), String(step), 'NULL']))}`,
    commitSql(),
  ].join(';\n');
  return (await timed(() => engine.run(sql)))[1];
}

/**
 * The same step's rows the way the ledger writes them, without the ledger's work around them:
 * `BEGIN`, bodies, nodes and edges as one Arrow stream each (the ledger's own writer,
 * commit-ipc.ts), `COMMIT` — five statements, five round trips. Returns ms.
 */
export async function bareStepArrowMs(engine: Engine, step: number, bodies: readonly string[]): Promise<number> {
  const base = 20_000_000 + step * 100;
  const bodyRows = bodies.map((b, i) => ({
    bkey: base + i,
    hash: `h${base + i}`,
    text: b,
    tokens: 100,
    chars: b.length,
    tx: step,
  }));
  const nodeRows = bodies.map((_, i) => ({
    vkey: base + i,
    nid: base + i,
    id: `s${base + i}`,
    kind: 'message',
    status: null,
    authority: 'agent',
    bkey: base + i,
    path: null,
    revision: null,
    range_start: null,
    range_end: null,
    verifier: null,
    tool: null,
    role: null,
    changed: null,
    meta: null,
    tx: step,
    valid_from: step,
    valid_to: null,
  }));
  const edgeRows = Array.from({ length: 12 }, (_, i) => ({
    ekey: base + i,
    src: base + (i % 10),
    dst: base,
    kind: 'depends_on',
    tx: step,
    valid_from: step,
    valid_to: null,
  }));
  const [, ms] = await timed(async () => {
    await engine.run(beginTransactionSql());
    await engine.insertIPC('floor_bodies', commitRowsIPC('bodies', bodyRows));
    await engine.insertIPC('floor_nodes', commitRowsIPC('nodes', nodeRows));
    await engine.insertIPC('floor_edges', commitRowsIPC('edges', edgeRows));
    await engine.run(commitSql());
  });
  return ms;
}

/**
 * What one DuckDB transaction costs in this engine, whatever is in it: an empty `BEGIN; COMMIT`
 * and `BEGIN; a 1-row INSERT; COMMIT` (each one round trip), in ms. A step commit writes three
 * or four tables, so its floor is above the second figure times the tables written.
 */
export async function bareTransactionMs(engine: Engine, step: number): Promise<{ empty: number; oneRow: number }> {
  const [, empty] = await timed(() => engine.run(`${beginTransactionSql()}; ${commitSql()}`));
  const [, oneRow] = await timed(() =>
    engine.run(
      `${beginTransactionSql()}; INSERT INTO floor_edges VALUES (${1_000_000 + step}, 0, 0, 'depends_on', 0, 0, NULL); ${commitSql()}`,
    ),
  );
  return { empty, oneRow };
}

/** Creates the floor_* copies of the ledger's tables that bareStepMs writes. */
export async function createFloorTables(engine: Engine): Promise<void> {
  for (const t of ['bodies', 'nodes', 'edges'] as const) {
    await engine.run(CREATE_TABLES[t].replace(`CREATE TABLE ${t}`, `CREATE TABLE floor_${t}`));
  }
}

/**
 * The working set's closure statement alone, as materialize runs it (prepared, at the last
 * epoch, default roots and bounds: 6 hops, 128 nodes a level) — no edges, closed neighbours,
 * frontier check, ranking, packing or explanation. Wall and CPU ms.
 */
export async function bareClosureMs(ledger: Ledger): Promise<[number, number]> {
  return preparedMs(ledger, 'bench_closure_floor', closureStatementSql);
}

/**
 * The whole working-set statement materialize sends (closure, edges, closed neighbours, frontier
 * check), prepared as materialize runs it, without reading its rows into candidates: the engine's
 * share of a materialize call. Wall and CPU ms.
 */
export async function workingSetStatementMs(ledger: Ledger): Promise<[number, number]> {
  return preparedMs(ledger, 'bench_working_set', workingSetSql);
}

async function preparedMs(
  ledger: Ledger,
  name: string,
  statement: (shape: ClosureShape) => string,
): Promise<[number, number]> {
  const q = { epoch: ledger.lastEpoch, roots: 'default' as const, authority: null, hops: 6, maxNodes: 128 };
  const shape = closureShape(q, ledger.lastEpoch);
  const engine = ledgerCore(ledger).config.engine;
  const run = () => queryPrepared(engine, name, statement(shape), closureParams(shape, q));
  // Run as text, then prepared: timed as materialize runs it from its second call, by name.
  await run();
  await run();
  const [, wall, cpu] = await timedCpu(run);
  return [wall, cpu];
}

/** Adjacency lists of the valid edges, built once (not timed). */
export async function adjacency(ledger: Ledger): Promise<Map<number, number[]>> {
  const t = await ledgerCore(ledger).config.engine.query('SELECT src, dst FROM edges WHERE valid_to IS NULL');
  const src = t.getChild('src')!.toArray() as Int32Array;
  const dst = t.getChild('dst')!.toArray() as Int32Array;
  const adj = new Map<number, number[]>();
  for (let i = 0; i < src.length; i++) {
    const list = adj.get(src[i]!);
    if (list) list.push(dst[i]!);
    else adj.set(src[i]!, [dst[i]!]);
  }
  return adj;
}

/** Bounded breadth-first closure (hops, node bound) in JS. */
export function bfs(adj: ReadonlyMap<number, number[]>, roots: number[], hops: number, max: number): number[] {
  const seen = new Set(roots);
  let frontier = roots;
  for (let h = 0; h < hops && seen.size < max; h++) {
    const next: number[] = [];
    for (const n of frontier) {
      for (const m of adj.get(n) ?? []) {
        if (seen.has(m)) continue;
        seen.add(m);
        next.push(m);
      }
    }
    frontier = next;
  }
  return [...seen].slice(0, max);
}

/**
 * Ms to sum `floats` float32 values in a plain loop (p50 of `runs`): the memory-bandwidth floor
 * of an exact vector scan over that many floats. Four accumulators, so the loop waits on memory
 * rather than on one chain of dependent adds. The array is filled first (untouched pages would
 * read as zero pages, faster than memory).
 */
export function floatSumMs(floats: number, runs = 9): number {
  const data = new Float32Array(floats).fill(0.5);
  const times: number[] = [];
  let sink = 0;
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    let a = 0;
    let b = 0;
    let c = 0;
    let d = 0;
    let i = 0;
    for (; i + 4 <= data.length; i += 4) {
      a += data[i]!;
      b += data[i + 1]!;
      c += data[i + 2]!;
      d += data[i + 3]!;
    }
    for (; i < data.length; i++) a += data[i]!;
    sink += a + b + c + d;
    times.push(performance.now() - start);
  }
  if (sink !== floats * 0.5 * runs) throw new Error('the floor loop did not sum every float');
  return times.sort((x, y) => x - y)[Math.floor(times.length / 2)]!;
}
