import { openNodeEngine } from '../../src/engine/open-node.js';
import { openLedger } from '../../src/entries/node.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import type { EdgeInput, NodeInput, Transaction } from '../../src/schema/types.js';
import { type BenchRow, loadAverage, percentile, rssMiB, syntheticBody, timedCpu } from './bench-util.js';

/** A bulk graph: `n` messages with ~500-character bodies, 4 depends_on edges per node to earlier nodes. */
export function bulkTransactions(n: number, batch = 10_000, offset = 0): Transaction[] {
  const txs: Transaction[] = [];
  for (let start = 0; start < n; start += batch) {
    const nodes: NodeInput[] = [];
    const edges: EdgeInput[] = [];
    for (let i = start; i < Math.min(n, start + batch); i++) {
      const id = `n${offset + i}`;
      nodes.push({ id, kind: i % 10 === 0 ? 'task' : 'message', body: syntheticBody(offset + i) });
      for (let k = 1; k <= 4; k++) {
        const j = i - k * 7 - (i % 13);
        if (j >= 0) edges.push({ from: id, to: `n${offset + j}`, kind: 'depends_on' });
      }
    }
    txs.push({ epoch: 1 + start / batch, nodes, edges });
  }
  return txs;
}

async function commitAll(ledger: Ledger, txs: Transaction[]): Promise<void> {
  for (const tx of txs) await ledger.commit(tx);
}

export async function ledgerBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [
    { metric: 'machine load at start (1-min average)', value: loadAverage(), unit: 'runnable' },
  ];
  for (const n of [10_000, 100_000]) {
    const ledger = await openLedger();
    const txs = bulkTransactions(n);
    const [, ms, cpuMs] = await timedCpu(() => commitAll(ledger, txs));
    const rate = Math.round(n / (ms / 1000));
    rows.push({
      metric: `bulk commit, ${n} nodes (4 edges each, ~500-char bodies)`,
      value: rate,
      unit: 'nodes/s',
      target: '>= 100000',
      met: rate >= 100_000,
    });
    rows.push({
      metric: `  same, per CPU-second of this process`,
      value: Math.round(n / (cpuMs / 1000)),
      unit: 'nodes/s',
    });
    if (n === 100_000) {
      const [bytes, snapMs, snapCpu] = await timedCpu(() => ledger.snapshot());
      rows.push({ metric: 'snapshot at 100k nodes', value: Math.round(snapMs), unit: 'ms' });
      rows.push({ metric: '  same, CPU time', value: Math.round(snapCpu), unit: 'ms' });
      rows.push({ metric: 'snapshot size at 100k nodes', value: Math.round(bytes.length / 2 ** 20), unit: 'MiB' });
      // The floor under restore: starting an empty DuckDB-WASM, measured the same way.
      const [engine, openMs] = await timedCpu(() => openNodeEngine());
      await engine.close();
      const [restored, restoreMs, restoreCpu] = await timedCpu(() => openLedger({ snapshot: bytes }));
      rows.push({
        metric: 'restore at 100k nodes (incl. opening DuckDB)',
        value: Math.round(restoreMs),
        unit: 'ms',
        target: '<= 1000',
        met: restoreMs <= 1000,
      });
      rows.push({ metric: '  same, CPU time', value: Math.round(restoreCpu), unit: 'ms' });
      rows.push({ metric: '  of which opening an empty DuckDB alone (wall)', value: Math.round(openMs), unit: 'ms' });
      await restored.close();
    }
    if (n === 10_000) {
      // Typical agent step on top of the 10k-node ledger: 10 nodes, 12 edges.
      const lat: number[] = [];
      const cpu: number[] = [];
      for (let s = 0; s < 300; s++) {
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
        const [, t, c] = await timedCpu(() => ledger.commit({ epoch: 100 + s, nodes, edges }));
        lat.push(t);
        cpu.push(c);
      }
      const p50 = percentile(lat, 50);
      rows.push({
        metric: 'step transaction (10 nodes, 12 edges) p50',
        value: p50,
        unit: 'ms',
        target: '<= 5',
        met: p50 <= 5,
      });
      rows.push({ metric: 'step transaction p95', value: percentile(lat, 95), unit: 'ms' });
      rows.push({ metric: '  p50, CPU time', value: percentile(cpu, 50), unit: 'ms' });
    }
    rows.push({ metric: `RSS after ${n} nodes`, value: rssMiB(), unit: 'MiB' });
    await ledger.close();
  }
  rows.push({ metric: 'machine load at end (1-min average)', value: loadAverage(), unit: 'runnable' });
  return rows;
}
