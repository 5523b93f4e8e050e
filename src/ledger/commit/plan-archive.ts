import type { Engine } from '../../engine/engine.js';
import { rowsOf } from '../../engine/rows.js';
import { LedgerError } from '../../errors.js';
import { LIMITS } from '../../schema/limits.js';
import type { ClosureRow, NodeRow } from '../../schema/rows.js';
import { archiveDependantsSql, archiveWrittenSql } from '../../sql/archive-sql.js';
import type { LedgerIndex } from '../ledger-index.js';
import type { CommitPlan } from './plan-commit.js';

const DISCOVERY_KINDS = new Set(['action', 'tool_call', 'tool_result', 'evidence', 'message']);

/**
 * Plans archiving a completed, unreferenced discovery transaction: one that only looked
 * (actions, tool calls and results, evidence, messages), has nothing open, changed no earlier
 * node, and that nothing valid outside it depends on (a task's `plans` edge to its action is
 * the parent link, not a dependency). Archiving is a new transaction closing its nodes; nothing
 * is deleted. Anything else is refused with ARCHIVE_REFUSED naming why.
 */
export async function planArchive(
  engine: Engine,
  index: LedgerIndex,
  txNo: number,
  epoch: number,
): Promise<CommitPlan> {
  const refuse = (reason: string, extra: Record<string, unknown> = {}) =>
    new LedgerError('ARCHIVE_REFUSED', { field: 'tx', tx: txNo, reason, ...extra });
  if (!Number.isSafeInteger(txNo) || index.transactions[txNo]?.kind !== 'commit')
    throw refuse('no such committed transaction');
  if (!Number.isSafeInteger(epoch) || epoch < index.lastEpoch) {
    throw new LedgerError('EPOCH_REGRESSION', { field: 'epoch', epoch, lastEpoch: index.lastEpoch });
  }
  if (epoch > LIMITS.maxEpoch) {
    throw new LedgerError('INVALID_EPOCH', { field: 'epoch', value: epoch, limit: 'maxEpoch', max: LIMITS.maxEpoch });
  }
  const written = rowsOf<{ nid: number; id: string; kind: string; first_tx: number }>(
    await engine.query(archiveWrittenSql(txNo)),
  );
  if (written.length === 0) throw refuse('the transaction wrote no nodes');
  const rewrite = written.find((w) => w.first_tx !== txNo);
  if (rewrite) throw refuse(`it changes an earlier node (${rewrite.id})`);
  const notDiscovery = written.find((w) => !DISCOVERY_KINDS.has(w.kind));
  if (notDiscovery) throw refuse(`not a discovery transaction: it records ${notDiscovery.kind} ${notDiscovery.id}`);
  const current = written.map((w) => index.byNid[w.nid]!);
  const open = current.find((n) => n.status === 'open');
  if (open) throw refuse(`not completed: ${open.id} is open`);
  const valid = current.filter((n) => n.valid_to === null);
  if (valid.length === 0) throw refuse('nothing in it is valid any more');
  const dependants = rowsOf<{ id: string; kind: string; edge: string; target: string }>(
    await engine.query(archiveDependantsSql(written.map((w) => w.nid))),
  );
  if (dependants.length > 0) {
    throw refuse(`referenced: ${dependants.map((d) => `${d.id} ${d.edge} ${d.target}`).join('; ')}`, {
      dependants: dependants.map((d) => d.id),
    });
  }
  const tx = index.lastTx + 1;
  let ckey = index.nextCkey;
  const closures: ClosureRow[] = valid.map((n: NodeRow) => ({
    ckey: ckey++,
    tx,
    epoch,
    target: 'node',
    key: n.vkey,
    reason: 'archived',
    by_nid: null,
  }));
  return {
    bodies: [],
    nodes: [],
    edges: [],
    closures,
    closedNodes: valid,
    transaction: { tx, epoch, kind: 'archive', nodes: 0, edges: 0, transitions: 0, archived_tx: txNo },
    receipt: {
      tx,
      epoch,
      counts: { nodes: 0, edges: 0, bodies: 0, transitions: 0 },
      superseded: valid.map((n) => n.id),
      contradictions: [],
    },
  };
}
