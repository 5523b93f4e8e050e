/**
 * The bench's 100k-node bulk ingest alone (ten 10k-node transactions into a fresh ledger, after a
 * 2k-node warm-up ledger), for a CPU profile:
 * `node --import tsx --cpu-prof --cpu-prof-dir=.out/prof test/bench/profile-ingest.ts [n] [flags]`.
 * Flags take work out, to see what the rest costs (the ledger is then not usable for reads):
 * `--no-hooks` runs no commit hook (retrieval indexing, the current view, the step log);
 * `--no-token-count` counts every body as 100 tokens instead of encoding it. `--warm N` sizes the
 * warm-up ledger (default 2,000 nodes): at N = n the engine's memory has already grown to what the
 * timed ingest needs and the commit path is compiled, as in a process that has ingested before.
 */
import { openLedger } from '../../src/entries/node.js';
import { ledgerCore } from '../../src/ledger/ledger.js';
import { bulkTransactions } from './synthetic.js';

const args = process.argv.slice(2);
const warmAt = args.indexOf('--warm');
const warmNodes = warmAt < 0 ? 2_000 : Number(args[warmAt + 1]);
const n = Number(args.find((a, k) => !a.startsWith('--') && (warmAt < 0 || k !== warmAt + 1)) ?? 100_000);
const warm = await openLedger();
for (const tx of bulkTransactions(warmNodes)) await warm.commit(tx);
await warm.close();
const ledger = await openLedger();
const core = ledgerCore(ledger);
if (args.includes('--no-hooks')) core.hooks.length = 0;
if (args.includes('--no-token-count')) core.config.counter.count = () => 100;
const txs = bulkTransactions(n);
const c0 = process.cpuUsage();
const t0 = performance.now();
for (const tx of txs) await ledger.commit(tx);
const ms = performance.now() - t0;
const cpu = process.cpuUsage(c0);
const removed = args
  .filter((a) => a.startsWith('--no-'))
  .map((a) => ` ${a}`)
  .join('');
const wall = `${ms.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU`;
console.log(`${n} nodes after a ${warmNodes}-node warm-up${removed}: ${wall}, ${Math.round(n / (ms / 1000))} nodes/s`);
await ledger.close();
