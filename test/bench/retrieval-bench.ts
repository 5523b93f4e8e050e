import { openLedger } from '../../src/entries/node.js';
import { hashedTrigramEmbedder } from '../../src/retrieval/hashed-embedder.js';
import type { RetrievalQuery } from '../../src/retrieval/query.js';
import { type BenchRow, percentile, timed } from './bench-util.js';
import { sessionGraph } from './session-graph.js';

/**
 * Retrieval latency at 10k and 100k records with 384-dimension vectors, per channel and in total.
 * The derived BM25/vector tables are built on the first query; that catch-up is reported on its
 * own, the latencies are steady state.
 */
export async function retrievalBench(sizes = [10_000, 100_000], runs = 20): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const n of sizes) {
    const ledger = await openLedger({ embedder: hashedTrigramEmbedder(384) });
    for (const tx of sessionGraph(n)) await ledger.commit(tx);
    const records = (await ledger.asOf(ledger.lastEpoch)).nodes.length;
    const steps = Math.floor(n / 5);
    const base: RetrievalQuery = {
      text: 'parse motor speed status reply buffer',
      artifacts: [{ path: `src/mod${steps % 50}.c`, range: [10, 30] }],
      action: `act:${steps}`,
      claims: [`claim:${Math.max(10, Math.floor(steps / 10) * 10 - 10)}`],
    };
    const [, catchUp] = await timed(() => ledger.retrieve({ ...base, channels: ['lexical', 'vector'] }));
    rows.push({ metric: `first retrieval incl. indexing ${records} records`, value: Math.round(catchUp), unit: 'ms' });
    const target = n === 10_000 ? 15 : 60;
    for (const channels of [
      ['exact'],
      ['lexical'],
      ['vector'],
      ['graph'],
      ['exact', 'lexical', 'vector', 'graph'],
    ] as const) {
      const lat: number[] = [];
      for (let i = 0; i < runs; i++)
        lat.push((await timed(() => ledger.retrieve({ ...base, channels: [...channels] })))[1]);
      const total = channels.length === 4;
      const p50 = percentile(lat, 50);
      rows.push({
        metric: `retrieve ${total ? 'total' : channels[0]} p50, ${records} records`,
        value: p50,
        unit: 'ms',
        ...(total ? { target: `<= ${target}`, met: p50 <= target } : {}),
      });
      rows.push({
        metric: `retrieve ${total ? 'total' : channels[0]} p95, ${records} records`,
        value: percentile(lat, 95),
        unit: 'ms',
      });
    }
    await ledger.close();
  }
  return rows;
}
