/**
 * `npm start`: the main job on an embedded default. Replays the bundled RMD-X CAN-driver session
 * into a fresh in-memory ledger, one transaction per agent step, and prints what the ledger holds
 * as of the last epoch.
 */
import { openLedger } from '../src/entries/node.js';
import { RMDX_SESSION } from './traces/rmdx-can-session.js';

const ledger = await openLedger();
try {
  for (const tx of RMDX_SESSION) {
    const r = await ledger.commit(tx);
    const notes = [
      r.superseded.length ? `superseded ${r.superseded.join(', ')}` : '',
      r.contradictions.length ? `contradiction ${r.contradictions.map((c) => `${c.from} ⟂ ${c.to}`).join(', ')}` : '',
    ].filter(Boolean);
    console.log(`tx ${String(r.tx).padStart(2)} epoch ${String(r.epoch).padStart(2)}: +${r.counts.nodes} nodes +${r.counts.edges} edges${notes.length ? `  (${notes.join('; ')})` : ''}`);
  }
  const epoch = ledger.lastEpoch;
  const view = await ledger.asOf(epoch);
  console.log(`\nAs of epoch ${epoch}: ${view.nodes.length} valid nodes, ${view.edges.length} valid edges`);
  for (const n of view.nodes) {
    const where = n.path ? ` ${n.path}${n.range ? `:${n.range[0]}-${n.range[1]}` : ''}${n.revision ? `@${n.revision}` : ''}` : '';
    const first = (n.body ?? '').split('\n')[0]!.slice(0, 70);
    console.log(`  ${n.kind.padEnd(17)} ${n.id.padEnd(22)} ${(n.status ?? '').padEnd(8)} ${String(n.tokens).padStart(4)} tok${where}  ${first}`);
  }
} finally {
  await ledger.close();
}
