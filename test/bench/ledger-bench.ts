import { openLedger } from '../../src/entries/node.js';
import { type Ledger, ledgerCore } from '../../src/ledger/ledger.js';
import { decodeSnapshot } from '../../src/ledger/snapshot/snapshot-format.js';
import type { EdgeInput, NodeInput, Transaction } from '../../src/schema/types.js';
import {
  type BenchRow,
  collectGarbage,
  mib,
  percentile,
  rssMiB,
  syntheticBody,
  targetRow,
  timedCpu,
} from './bench-util.js';
import {
  bareIngestMs,
  bareStepArrowMs,
  bareStepMs,
  bareTransactionMs,
  bareTransactionsMs,
  createFloorTables,
  type RecordedWrite,
  recordWrites,
} from './floors.js';
import { bulkTransactions } from './synthetic.js';

export { bulkTransactions };

async function commitAll(ledger: Ledger, txs: Transaction[]): Promise<void> {
  for (const tx of txs) await ledger.commit(tx);
}

/**
 * A ledger of `n` bulk nodes, how long committing them took, and how much of it the commit hooks
 * that run after the engine commit took (the retrieval index's term indexing and adjacency), in
 * CPU time: on a loaded machine a wall-time share would count time the process was not running.
 */
async function bulkLedger(
  n: number,
  timeHooks: boolean | 'without' | 'record' = false,
): Promise<{ ledger: Ledger; ms: number; cpuMs: number; hookCpuMs: number; writes: RecordedWrite[] }> {
  const ledger = await openLedger();
  // 'record': the engine writes are copied for the per-transaction floor (the copies cost time, so
  // this run is not one of those timed).
  const recording = timeHooks === 'record' ? recordWrites(ledgerCore(ledger).pending.engine) : null;
  // 'without': no commit hooks at all (the ledger cannot retrieve; it is only timed and closed).
  if (timeHooks === 'without') ledgerCore(ledger).hooks.length = 0;
  let hookMs = 0;
  // Only where the share is reported: the wrapped hooks changed the memory suite's heap figure
  // (JS heap held by a 10k-node ledger measured 19.7 MiB wrapped, 11.0 unwrapped).
  for (const hook of timeHooks === true ? ledgerCore(ledger).hooks : []) {
    const committed = hook.committed?.bind(hook);
    if (committed)
      hook.committed = (plan) => {
        const c0 = process.cpuUsage();
        committed(plan);
        const c = process.cpuUsage(c0);
        hookMs += (c.user + c.system) / 1000;
      };
  }
  const txs = bulkTransactions(n);
  const [, ms, cpuMs] = await timedCpu(() => commitAll(ledger, txs));
  recording?.stop();
  return { ledger, ms, cpuMs, hookCpuMs: hookMs, writes: recording?.writes ?? [] };
}

/**
 * Bulk ingest: `n` nodes with ~500-character bodies and 4 edges each, committed in 10k-node
 * transactions through the public API. Floors: the same rows (the ledger's own snapshot sections)
 * ingested into a fresh database with no ledger work around it, in one transaction; and the Arrow
 * streams the commits wrote, replayed in their own transactions (what the engine alone costs in
 * the commits' shape).
 */
export async function ingestBench(sizes: readonly number[]): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  // Warm-up: the first ledger of a process compiles and starts DuckDB and tiktoken, and fills
  // the token piece cache; a long-running agent pays that once.
  await (await bulkLedger(2_000)).ledger.close();
  for (const n of sizes) {
    // The same ingest without the hooks, before and after, for the hooks' marginal cost.
    const before = await bulkLedger(n, 'without');
    await before.ledger.close();
    const { ledger, ms, cpuMs, hookCpuMs } = await bulkLedger(n, true);
    const { sections } = await decodeSnapshot(await ledger.snapshot());
    await ledger.close();
    const after = await bulkLedger(n, 'without');
    await after.ledger.close();
    const withoutCpuMs = (before.cpuMs + after.cpuMs) / 2;
    const floorMs = await bareIngestMs(sections);
    const recorded = await bulkLedger(n, 'record');
    await recorded.ledger.close();
    const transactionsMs = await bareTransactionsMs(recorded.writes);
    const rate = Math.round(n / (ms / 1000));
    rows.push(
      targetRow(`bulk commit, ${n} nodes (4 edges each, ~500-char bodies)`, rate, 'nodes/s', 100_000, false, {
        value: Math.round(n / (floorMs / 1000)),
        name: 'bare DuckDB ingest of the same rows',
      }),
      { metric: '  same, per CPU-second of this process', value: Math.round(n / (cpuMs / 1000)), unit: 'nodes/s' },
      {
        metric: `  bare DuckDB, the commits' own Arrow streams in their ${recorded.writes.length} transaction${recorded.writes.length === 1 ? '' : 's'} (fresh database)`,
        value: Math.round(n / (transactionsMs / 1000)),
        unit: 'nodes/s',
      },
      targetRow(
        `  retrieval indexing at commit (terms, adjacency), share of the bulk commit's CPU time: with the hooks minus the mean of a run without before and one after, over with`,
        Math.round((1000 * Math.max(0, cpuMs - withoutCpuMs)) / cpuMs) / 10,
        '%',
        10,
        true,
      ),
      {
        metric: `  same, the process's CPU time inside the hook (counts GC helper threads marking the commit's garbage meanwhile)`,
        value: Math.round((1000 * hookCpuMs) / cpuMs) / 10,
        unit: '%',
      },
    );
  }
  return rows;
}

/**
 * Typical agent step on top of a 10k-node ledger: 10 nodes (~300-char bodies), 12 edges. A step's
 * engine write waits for the engine's next read (write-behind, src/ledger/commit/write-behind.ts),
 * so the commit call and that write are timed apart: first with a read after every step (each write
 * carries one step, the most it can cost), then with WRITE_EVERY steps between reads (one write
 * carries them all). The floors run on the raw engine, beside the waiting rows.
 */
export async function stepBench(steps = 300): Promise<BenchRow[]> {
  const WRITE_EVERY = 16;
  const { ledger } = await bulkLedger(10_000);
  const core = ledgerCore(ledger);
  const raw = core.pending.engine;
  await createFloorTables(raw);
  const stepTx = (s: number) => {
    const nodes: NodeInput[] = Array.from({ length: 10 }, (_, k) => ({
      id: `step${s}.${k}`,
      kind: 'message' as const,
      body: syntheticBody(1e6 + s * 10 + k, 300),
    }));
    const edges: EdgeInput[] = [
      ...nodes.slice(1).map((nd) => ({ from: nd.id, to: nodes[0]!.id, kind: 'depends_on' as const })),
      { from: nodes[0]!.id, to: `n${s}`, kind: 'depends_on' },
      { from: nodes[1]!.id, to: `n${s + 1}`, kind: 'depends_on' },
      { from: nodes[2]!.id, to: `n${s + 2}`, kind: 'depends_on' },
    ];
    return { epoch: 100 + s, nodes, edges };
  };
  const lat: number[] = [];
  const cpu: number[] = [];
  const write: number[] = [];
  const withWrite: number[] = [];
  const floor: number[] = [];
  const valuesFloor: number[] = [];
  const emptyTx: number[] = [];
  const oneRowTx: number[] = [];
  for (let s = 0; s < steps; s++) {
    const tx = stepTx(s);
    const [, t, c] = await timedCpu(() => ledger.commit(tx));
    const [, w] = await timedCpu(() => core.pending.flush());
    lat.push(t);
    cpu.push(c);
    write.push(w);
    withWrite.push(t + w);
    const bodies = tx.nodes.map((n) => n.body!);
    floor.push(await bareStepArrowMs(raw, s, bodies));
    valuesFloor.push(await bareStepMs(raw, s, bodies));
    const bare = await bareTransactionMs(raw, s);
    emptyTx.push(bare.empty);
    oneRowTx.push(bare.oneRow);
  }
  // Reads every WRITE_EVERY steps: the mean step, its share of the one write included.
  const grouped: number[] = [];
  for (let s = steps; s + WRITE_EVERY <= 2 * steps; s += WRITE_EVERY) {
    let total = 0;
    for (let k = 0; k < WRITE_EVERY; k++) total += (await timedCpu(() => ledger.commit(stepTx(s + k))))[1];
    total += (await timedCpu(() => core.pending.flush()))[1];
    grouped.push(total / WRITE_EVERY);
  }
  await ledger.close();
  const arrowFloor = {
    value: percentile(floor, 50),
    name: 'bare DuckDB: the rows as the ledger writes them (BEGIN, 3 Arrow streams, COMMIT)',
  };
  return [
    targetRow(
      'step transaction (10 nodes, 12 edges) on 10k nodes, p50: the commit call',
      percentile(lat, 50),
      'ms',
      2,
      true,
      arrowFloor,
    ),
    { metric: '  p95', value: percentile(lat, 95), unit: 'ms' },
    { metric: '  p50, CPU time', value: percentile(cpu, 50), unit: 'ms' },
    {
      metric: "  the step's engine write at the next read, a read after every step, p50",
      value: percentile(write, 50),
      unit: 'ms',
    },
    {
      metric: '  commit + that write, a read after every step, p50',
      value: percentile(withWrite, 50),
      unit: 'ms',
      floor: arrowFloor.value,
      floorName: arrowFloor.name,
    },
    {
      metric: `  per step with a read every ${WRITE_EVERY} steps (commits + the one write, over ${WRITE_EVERY}), p50`,
      value: percentile(grouped, 50),
      unit: 'ms',
    },
    {
      metric: '  bare DuckDB: the rows as VALUES in one SQL round trip, p50',
      value: percentile(valuesFloor, 50),
      unit: 'ms',
    },
    { metric: '  DuckDB floor: BEGIN; COMMIT (one round trip), p50', value: percentile(emptyTx, 50), unit: 'ms' },
    { metric: '  DuckDB floor: BEGIN; 1-row INSERT; COMMIT, p50', value: percentile(oneRowTx, 50), unit: 'ms' },
  ];
}

/**
 * Snapshot and restore of an `n`-node bulk ledger. Restore is timed through the public API from
 * the bytes, including starting its database; the floor opens a database and ingests the same
 * sections bare.
 */
export async function restoreBench(sizes: readonly number[]): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const n of sizes) {
    const { ledger } = await bulkLedger(n);
    const [bytes, snapMs] = await timedCpu(() => ledger.snapshot());
    await ledger.close();
    const { sections } = await decodeSnapshot(bytes);
    const floorMs = await bareIngestMs(sections);
    const [restored, restoreMs, restoreCpu] = await timedCpu(() => openLedger({ snapshot: bytes }));
    await restored.close();
    rows.push(
      { metric: `snapshot at ${n} nodes`, value: Math.round(snapMs), unit: 'ms' },
      { metric: `snapshot size at ${n} nodes`, value: mib(bytes.length), unit: 'MiB' },
      n === 100_000
        ? targetRow(`restore at ${n} nodes (from bytes, incl. its database)`, Math.round(restoreMs), 'ms', 1000, true, {
            value: Math.round(floorMs),
            name: 'open + bare DuckDB ingest of the sections',
          })
        : {
            metric: `restore at ${n} nodes (from bytes, incl. its database)`,
            value: Math.round(restoreMs),
            unit: 'ms',
            floor: Math.round(floorMs),
            floorName: 'open + bare DuckDB ingest of the sections',
          },
      { metric: '  same, CPU time', value: Math.round(restoreCpu), unit: 'ms' },
    );
  }
  return rows;
}

/**
 * Memory of a 10k-node bulk ledger, each part apart: the JS heap the library and the ledger hold
 * (heap growth after full collections, from before DuckDB and tiktoken were started), the part of
 * it the ledger itself holds, DuckDB's own accounting, DuckDB's wasm linear memory (which never
 * shrinks: it keeps the high-water mark of every ledger this process opened, so this suite runs
 * first), and the process RSS (which also counts code compiled from the 34 MB wasm). Not counted
 * anywhere: tiktoken's own wasm memory.
 */
export async function memoryBench(n = 10_000): Promise<BenchRow[]> {
  collectGarbage();
  const heapStart = process.memoryUsage().heapUsed;
  await (await openLedger()).close();
  collectGarbage();
  const heapOpen = process.memoryUsage().heapUsed;
  const { ledger } = await bulkLedger(n);
  collectGarbage();
  const heap = process.memoryUsage().heapUsed;
  const stats = (await ledger.engineMemory())!;
  const wasm = stats.wasmBytes ?? 0;
  const rows: BenchRow[] = [
    { metric: 'JS heap added by starting DuckDB + tiktoken (after GC)', value: mib(heapOpen - heapStart), unit: 'MiB' },
    { metric: `JS heap held by the ${n}-node ledger itself (after GC)`, value: mib(heap - heapOpen), unit: 'MiB' },
    {
      metric: `DuckDB memory in use (duckdb_memory), limit ${stats.memoryLimit}`,
      value: mib(stats.duckdbBytes),
      unit: 'MiB',
    },
    { metric: 'DuckDB wasm linear memory', value: mib(wasm), unit: 'MiB' },
    targetRow(
      `JS heap added + DuckDB wasm memory, ${n}-node ledger (Node; tiktoken's wasm not counted)`,
      mib(heap - heapStart + wasm),
      'MiB',
      128,
      true,
    ),
    { metric: 'process RSS (incl. compiled wasm code, the bench itself)', value: rssMiB(), unit: 'MiB' },
  ];
  // A kept plan pins DuckDB memory until deallocated (src/engine/kept-plans.ts): the working-set
  // plan, kept after two default materializes (a commit before each: repeats answer from cache),
  // then freed by capping the instance at 0 plans.
  for (let i = 0; i < 2; i++) {
    await ledger.commit({ epoch: 1000 + i, nodes: [{ id: `plan${i}`, kind: 'message', body: 'step' }] });
    await ledger.materialize({ budget: { tokens: 4000 } });
  }
  const plans = ledgerCore(ledger).config.engine.plans!;
  const kept = (await ledger.engineMemory())!.duckdbBytes;
  const limit = plans.limit;
  plans.setLimit(0);
  const freed = (await ledger.engineMemory())!.duckdbBytes;
  plans.setLimit(limit);
  rows.push({
    metric: `DuckDB memory a kept working-set plan holds, ${n}-node ledger (freed by DEALLOCATE; ${limit} kept per instance by default)`,
    value: mib(kept - freed),
    unit: 'MiB',
  });
  await ledger.close();
  return rows;
}
