import { openLedger } from '../../src/entries/node.js';
import { ledgerCore } from '../../src/ledger/ledger.js';
import { type BenchRow, percentile, rssMiB, targetRow, timed, timedCpu } from './bench-util.js';
import { adjacency, bareClosureMs, bfs, workingSetStatementMs } from './floors.js';
import { sessionGraph } from './session-graph.js';

/**
 * Materialize latency on session-shaped ledgers (see session-graph.ts), with two floors measured
 * on the same ledger: the closure query alone in DuckDB, and the same bounded closure by an
 * in-memory BFS in JS (adjacency lists built once). Each is also given in CPU time (this
 * process, all threads), next to the whole working-set statement as materialize runs it: on a
 * shared machine wall time grows with everyone else's load, and statement vs. materialize CPU
 * says how much of a call is the engine and how much the ranking in JS.
 */
export async function materializeBench(sizes: readonly number[] = [1_000, 10_000, 100_000]): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const n of sizes) {
    const ledger = await openLedger();
    for (const tx of sessionGraph(n)) await ledger.commit(tx);
    const nodes = ledgerCore(ledger).index.byNid.length;
    let items = 0;
    await ledger.materialize({ budget: { tokens: 8000 } }); // warm-up: first-query compilation
    // A commit before every sample: materialize keeps its last ranking until the ledger changes,
    // and what is measured here is the ranking itself (an agent commits a step, then asks).
    let step = 0;
    const cpu: number[] = [];
    // The explanation is built when first read (see WorkingSet): timed apart, so both figures,
    // without and with it, come from the same calls.
    const withExplanation: number[] = [];
    const withExplanationCpu: number[] = [];
    const lat = await sampleOwnTime(async () => {
      await ledger.commit({ epoch: ledger.lastEpoch, nodes: [{ id: `bench:${step++}`, kind: 'message' }] });
      // The commit's engine write waits for the next read (write-behind): made here, so that the
      // sample times the ranking alone (the step suite times that write).
      await ledgerCore(ledger).pending.flush();
      const [ws, ms, cpuMs] = await timedCpu(() => ledger.materialize({ budget: { tokens: 8000 } }));
      const [, explainMs, explainCpu] = await timedCpu(async () => ws.explanation.length);
      items = ws.items.length;
      cpu.push(cpuMs);
      withExplanation.push(ms + explainMs);
      withExplanationCpu.push(cpuMs + explainCpu);
      return ms;
    });
    const sqlFloor: number[] = [];
    const sqlFloorCpu: number[] = [];
    const statementCpu: number[] = [];
    for (let i = 0; i < Math.max(lat.length, 10); i++) {
      const [wall, cpuMs] = await bareClosureMs(ledger);
      sqlFloor.push(wall);
      sqlFloorCpu.push(cpuMs);
      statementCpu.push((await workingSetStatementMs(ledger))[1]);
    }
    const adj = await adjacency(ledger);
    const roots = [ledgerCore(ledger).index.nodes.get('task')!.nid, ledgerCore(ledger).index.nodes.get('steer')!.nid];
    const js: number[] = [];
    for (let i = 0; i < 30; i++) js.push((await timed(async () => bfs(adj, roots, 6, 128)))[1]);
    const limit = n === 10_000 ? 10 : n === 100_000 ? 50 : undefined;
    const p50 = percentile(lat, 50);
    const metric = `materialize p50, ${nodes} nodes (${items} items at 8k tokens)`;
    const sqlFloorRow = { value: percentile(sqlFloor, 50), name: 'bare DuckDB closure query' };
    rows.push(
      limit
        ? targetRow(metric, p50, 'ms', limit, true, sqlFloorRow)
        : { metric, value: p50, unit: 'ms', floor: sqlFloorRow.value, floorName: sqlFloorRow.name },
      {
        metric: '  same p50, against the JS floor',
        value: p50,
        unit: 'ms',
        floor: percentile(js, 50),
        floorName: 'in-memory JS BFS',
      },
      { metric: `  p95 (${lat.length} runs)`, value: percentile(lat, 95), unit: 'ms' },
      { metric: '  p50 reading the explanation too', value: percentile(withExplanation, 50), unit: 'ms' },
      {
        metric: '  p50, CPU time',
        value: percentile(cpu, 50),
        unit: 'ms',
        floor: percentile(sqlFloorCpu, 50),
        floorName: 'bare DuckDB closure query, CPU',
      },
      { metric: '  p50, CPU time, reading the explanation too', value: percentile(withExplanationCpu, 50), unit: 'ms' },
      {
        metric: '  the working-set statement alone (all materialize asks of DuckDB), CPU p50',
        value: percentile(statementCpu, 50),
        unit: 'ms',
      },
      { metric: `  process RSS after ${nodes} nodes`, value: rssMiB(), unit: 'MiB' },
    );
    await ledger.close();
  }
  return rows;
}

/** Like sample(), for a function that times its own part (untimed setup before it). */
async function sampleOwnTime(fn: () => Promise<number>, minRuns = 5, maxRuns = 30, budgetMs = 4000): Promise<number[]> {
  const out: number[] = [];
  const start = performance.now();
  while (out.length < maxRuns && (out.length < minRuns || performance.now() - start < budgetMs)) out.push(await fn());
  return out;
}
