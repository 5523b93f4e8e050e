/**
 * `npm run bench [-- --only a,b,...] [--quick | --large] [--out DIR]`
 *
 * Prints a table per suite — each figure with its target and verdict where it has one,
 * and its floor (the same work done the cheapest known way, measured in the same run, see
 * floors.ts) with the ratio — then one table of every targeted figure, and writes DIR/bench.json
 * (default .out/bench). Figures, never pass/fail assertions. The machine's load average is
 * printed with every suite: wall times on a shared machine grow with everyone else's load.
 *
 * Suites: memory, ingest, step, restore, reopen, materialize, session, middleware, retrieval, limits, embedder, workerd,
 * bundle
 * (`ledger` = memory,ingest,step,restore). 100k-node sizes run by default except retrieval's, which builds
 * Orama's floor over 86k records and takes minutes: `--large` adds it. `--quick` leaves every
 * 100k size out.
 */
import { type BenchRow, loadAverage, printSummary, printTable, writeJson } from './bench-util.js';
import { bundleBench } from './bundle-bench.js';
import { embedderBench } from './embedder-bench.js';
import { ingestBench, memoryBench, restoreBench, stepBench } from './ledger-bench.js';
import { bodyLimitBench, requestLimitsBench } from './limits-bench.js';
import { materializeBench } from './materialize-bench.js';
import { middlewareBench } from './middleware-bench.js';
import { reopenBench } from './reopen-bench.js';
import { retrievalBench } from './retrieval-bench.js';
import { sessionBench } from './session-bench.js';
import { workerdBench } from './workerd-bench.js';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const GROUPS: Record<string, string[]> = { ledger: ['memory', 'ingest', 'step', 'restore', 'reopen'] };
const only = flag('--only')
  ?.split(',')
  .flatMap((s) => GROUPS[s] ?? [s]);
const quick = args.includes('--quick');
const outDir = flag('--out') ?? '.out/bench';
const large = quick ? [] : [100_000];
const largest = args.includes('--large') ? [100_000] : [];

// Memory first: DuckDB's wasm memory never shrinks, so later (larger) suites would set its mark.
const suites: Record<string, () => Promise<BenchRow[]>> = {
  memory: () => memoryBench(),
  ingest: () => ingestBench([10_000, ...large]),
  step: () => stepBench(),
  restore: () => restoreBench([10_000, ...large]),
  reopen: () => reopenBench(),
  materialize: () => materializeBench([1_000, 10_000, ...large]),
  session: () => sessionBench([10_000, ...large]),
  middleware: middlewareBench,
  retrieval: () => retrievalBench([10_000, ...largest]),
  limits: async () => [...(await bodyLimitBench()), ...(await requestLimitsBench())],
  embedder: embedderBench,
  workerd: workerdBench,
  bundle: bundleBench,
};
const unknown = only?.filter((s) => !(s in suites));
if (unknown?.length) {
  console.error(`unknown suite(s): ${unknown.join(', ')}; known: ${Object.keys(suites).join(', ')}, ledger`);
  process.exit(2);
}

const results: Record<string, BenchRow[]> = {};
const loads: Record<string, { start: number; end: number; seconds: number }> = {};
for (const [name, run] of Object.entries(suites)) {
  if (only && !only.includes(name)) continue;
  const start = loadAverage();
  const t0 = performance.now();
  results[name] = await run();
  loads[name] = { start, end: loadAverage(), seconds: Math.round((performance.now() - t0) / 1000) };
  printTable(`${name} (load ${start} → ${loads[name].end}, ${loads[name].seconds} s)`, results[name]);
}
printSummary(results);
writeJson(`${outDir}/bench.json`, { node: process.version, date: new Date().toISOString(), quick, loads, results });
console.log(`\nwrote ${outDir}/bench.json`);
