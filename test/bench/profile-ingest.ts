/**
 * The bench's 100k-node bulk ingest alone (ten 10k-node transactions into a fresh ledger, after a
 * 2k-node warm-up ledger), for a CPU profile:
 * `node --import tsx --cpu-prof --cpu-prof-dir=.out/prof test/bench/profile-ingest.ts`.
 */
import { openLedger } from '../../src/entries/node.js';
import { bulkTransactions } from './synthetic.js';

const n = Number(process.argv[2] ?? 100_000);
const warm = await openLedger();
for (const tx of bulkTransactions(2_000)) await warm.commit(tx);
await warm.close();
const ledger = await openLedger();
const txs = bulkTransactions(n);
const c0 = process.cpuUsage();
const t0 = performance.now();
for (const tx of txs) await ledger.commit(tx);
const ms = performance.now() - t0;
const cpu = process.cpuUsage(c0);
console.log(
  `${n} nodes: ${ms.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU, ${Math.round(n / (ms / 1000))} nodes/s`,
);
await ledger.close();
