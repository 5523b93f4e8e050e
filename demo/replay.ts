/**
 * `npm start`: the main job on an embedded default. Replays the bundled RMD-X CAN-driver session
 * into a fresh in-memory ledger, one transaction per agent step, prints what the ledger holds as
 * of the last epoch, then the working set it would hand the model at a 1,000-token budget, with
 * the reasons for what it left out.
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
    console.log(
      `tx ${String(r.tx).padStart(2)} epoch ${String(r.epoch).padStart(2)}: +${r.counts.nodes} nodes +${r.counts.edges} edges${notes.length ? `  (${notes.join('; ')})` : ''}`,
    );
  }
  const epoch = ledger.lastEpoch;
  const view = await ledger.asOf({ epoch });
  console.log(`\nAs of epoch ${epoch}: ${view.nodes.length} valid nodes, ${view.edges.length} valid edges`);
  for (const n of view.nodes) {
    const where = n.path
      ? ` ${n.path}${n.range ? `:${n.range[0]}-${n.range[1]}` : ''}${n.revision ? `@${n.revision}` : ''}`
      : '';
    const first = (n.body ?? '').split('\n')[0]!.slice(0, 70);
    console.log(
      `  ${n.kind.padEnd(17)} ${n.id.padEnd(22)} ${(n.status ?? '').padEnd(8)} ${String(n.tokens).padStart(4)} tok${where}  ${first}`,
    );
  }

  const budget = Number(process.argv[2] ?? 1000);
  const ws = await ledger.materialize({ budget: { tokens: budget } });
  console.log(
    `\nWorking set at epoch ${ws.epoch}, budget ${budget} tokens: ${ws.items.length} items, ${ws.tokens} tokens`,
  );
  for (const i of ws.items) {
    const why = ws.explanation.find((e) => e.id === i.id)?.reason ?? '';
    console.log(
      `  tier ${i.tier}  ${i.kind.padEnd(17)} ${i.id.padEnd(22)} ${String(i.tokens).padStart(4)} tok  ${why}`,
    );
  }
  console.log('Left out:');
  for (const e of ws.explanation.filter((x) => !x.included)) console.log(`  ${e.id.padEnd(22)} ${e.reason}`);
  const rerun = await ledger.rerunCandidates({ epoch: 9 });
  console.log(
    `\nRerun candidates at epoch 9: ${rerun.map((r) => `${r.id} (${r.verifier}; ${r.changed.map((c) => `${c.path} ${c.checkedRevision}→${c.newerRevision}`).join(', ')})`).join('; ')}`,
  );
} finally {
  await ledger.close();
}
