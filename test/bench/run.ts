/**
 * `npm run bench [-- --only ledger,materialize,...] [--out DIR]`: prints a table per benchmark and
 * writes DIR/bench.json (default .out/bench). Figures, never pass/fail assertions.
 */

import { type BenchRow, printTable, writeJson } from './bench-util.js';
import { bundleBench } from './bundle-bench.js';
import { ledgerBench } from './ledger-bench.js';
import { materializeBench } from './materialize-bench.js';
import { retrievalBench } from './retrieval-bench.js';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = flag('--only')?.split(',');
const outDir = flag('--out') ?? '.out/bench';

const suites: Record<string, () => Promise<BenchRow[]>> = {
  ledger: ledgerBench,
  materialize: () => materializeBench(),
  retrieval: () => retrievalBench(),
  bundle: bundleBench,
};

const results: Record<string, BenchRow[]> = {};
for (const [name, run] of Object.entries(suites)) {
  if (only && !only.includes(name)) continue;
  results[name] = await run();
  printTable(name, results[name]);
}
writeJson(`${outDir}/bench.json`, { node: process.version, date: new Date().toISOString(), results });
console.log(`\nwrote ${outDir}/bench.json`);
