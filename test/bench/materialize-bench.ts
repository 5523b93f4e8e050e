import { rowsOf } from '../../src/engine/rows.js';
import { openLedger } from '../../src/entries/node.js';
import { type BenchRow, percentile, rssMiB, timed } from './bench-util.js';
import { sessionGraph } from './session-graph.js';

/**
 * Materialize latency at 1k, 10k and 100k nodes, and the same bounded closure done by an
 * in-memory traversal in JS (adjacency lists built once), so the cost of doing it in SQL shows.
 */
export async function materializeBench(sizes = [1_000, 10_000, 100_000], runs = 30): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const n of sizes) {
    const ledger = await openLedger();
    for (const tx of sessionGraph(n)) await ledger.commit(tx);
    const nodes = (await ledger.asOf(ledger.lastEpoch)).nodes.length;
    const lat: number[] = [];
    let items = 0;
    for (let i = 0; i < runs; i++) {
      const [ws, ms] = await timed(() => ledger.materialize({ budget: { tokens: 8000 } }));
      lat.push(ms);
      items = ws.items.length;
    }
    const target = n === 10_000 ? 10 : n === 100_000 ? 50 : undefined;
    const p50 = percentile(lat, 50);
    rows.push({
      metric: `materialize p50, ${nodes} nodes (${items} items at 8k tokens)`,
      value: p50,
      unit: 'ms',
      ...(target ? { target: `<= ${target}`, met: p50 <= target } : {}),
    });
    rows.push({ metric: `materialize p95, ${nodes} nodes`, value: percentile(lat, 95), unit: 'ms' });

    // The same bounded breadth-first closure (6 hops, 128 nodes) in JS over adjacency lists.
    const edges = rowsOf<{ src: number; dst: number }>(
      await ledger.engine.query('SELECT src, dst FROM edges WHERE valid_to IS NULL'),
    );
    const adj = new Map<number, number[]>();
    for (const e of edges) adj.set(e.src, [...(adj.get(e.src) ?? []), e.dst]);
    const roots = [ledger.index.nodes.get('task')!.nid, ledger.index.nodes.get('steer')!.nid];
    const js: number[] = [];
    for (let i = 0; i < runs; i++) {
      const [, ms] = await timed(async () => bfs(adj, roots, 6, 128));
      js.push(ms);
    }
    rows.push({
      metric: `same closure in JS (in-memory BFS) p50, ${nodes} nodes`,
      value: percentile(js, 50),
      unit: 'ms',
    });
    rows.push({ metric: `RSS after ${nodes} nodes`, value: rssMiB(), unit: 'MiB' });
    await ledger.close();
  }
  return rows;
}

function bfs(adj: ReadonlyMap<number, number[]>, roots: number[], hops: number, max: number): number[] {
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
