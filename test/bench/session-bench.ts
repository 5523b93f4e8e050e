import { openLedger } from '../../src/entries/node.js';
import { ledgerCore } from '../../src/ledger/ledger.js';
import { type BenchRow, percentile, syntheticBody, targetRow, timed } from './bench-util.js';
import { bareClosureMs } from './floors.js';
import { sessionGraph } from './session-graph.js';

/**
 * Session-mode materialize as an agent loop calls it: commit a step (an action, its call and
 * result) at a new epoch, then `materialize({ budget, mode: 'session' })`. Each call is one step
 * of the session fold, either appending to the previous request or re-packing; their p50s are
 * reported apart, next to the bare closure query on the same ledger.
 */
export async function sessionBench(sizes: readonly number[] = [10_000, 100_000], steps = 60): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const n of sizes) {
    const ledger = await openLedger();
    for (const tx of sessionGraph(n)) await ledger.commit(tx);
    const nodes = ledgerCore(ledger).index.byNid.length;
    const request = { budget: { tokens: 8000 }, mode: 'session' } as const;
    await ledger.materialize(request); // warm-up: first-query compilation and the fold's window
    const append: number[] = [];
    const repack: number[] = [];
    for (let s = 0; s < steps; s++) {
      const epoch = ledger.lastEpoch + 1;
      const act = `live:act:${s}`;
      await ledger.commit({
        epoch,
        nodes: [
          { id: act, kind: 'action', status: 'resolved', body: syntheticBody(900_000 + s, 120) },
          { id: `live:call:${s}`, kind: 'tool_call', tool: 'bash', body: `sed -n '${s},${s + 40}p' src/live.c` },
          { id: `live:res:${s}`, kind: 'tool_result', authority: 'tool:bash', body: syntheticBody(910_000 + s, 500) },
        ],
        edges: [
          { from: 'task', to: act, kind: 'plans' },
          { from: act, to: `live:call:${s}`, kind: 'invokes' },
          { from: `live:call:${s}`, to: `live:res:${s}`, kind: 'produces' },
        ],
      });
      const [ws, ms] = await timed(() => ledger.materialize(request));
      (ws.session?.step === 'repack' ? repack : append).push(ms);
    }
    const floor: number[] = [];
    for (let i = 0; i < 10; i++) floor.push((await bareClosureMs(ledger))[0]);
    const floorRow = { value: percentile(floor, 50), name: 'bare DuckDB closure query' };
    const limit = n === 10_000 ? 10 : undefined;
    const metric = `session materialize p50, appending step, ${nodes} nodes (${append.length} of ${steps} steps)`;
    rows.push(
      limit
        ? targetRow(metric, percentile(append, 50), 'ms', limit, true, floorRow)
        : { metric, value: percentile(append, 50), unit: 'ms', floor: floorRow.value, floorName: floorRow.name },
      {
        metric: `  re-pack step p50 (${repack.length} of ${steps} steps)`,
        value: repack.length === 0 ? Number.NaN : percentile(repack, 50),
        unit: 'ms',
        floor: floorRow.value,
        floorName: floorRow.name,
      },
    );
    await ledger.close();
  }
  return rows;
}
