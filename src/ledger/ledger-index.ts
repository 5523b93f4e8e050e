import { EDGE_KINDS, type EdgeKind } from '../schema/kinds.js';
import type { BodyRow, EdgeRow, NodeRow, TransactionRow } from '../schema/rows.js';
import { BodyKeys } from './body-keys.js';
import { EdgeSet } from './edge-set.js';

export const EDGE_KIND_INDEX: ReadonlyMap<string, number> = new Map<string, number>(EDGE_KINDS.map((k, i) => [k, i]));
/** One int32 per (kind, dst): 11 edge kinds fit in 4 bits, so nids must stay below 2^27. */
export const edgeTarget = (kind: EdgeKind, dst: number): number => dst * 16 + EDGE_KIND_INDEX.get(kind)!;

/**
 * An in-memory mirror of what validation and supersession need to know about the ledger: the
 * latest version of every node, the valid edges, the valid revisions and evidence per path and
 * the latest outcome per verifier. The ledger is the only writer, so the mirror is updated after
 * each successful engine commit and rebuilt from the tables on restore; commits validate against
 * it without a database round trip.
 */
export class LedgerIndex {
  /** Latest version of each node, by id. */
  readonly nodes = new Map<string, NodeRow>();
  /** Latest version of each node, by nid. */
  readonly byNid: NodeRow[] = [];
  /** Body key by content hash (see BodyKeys). */
  readonly bodyKeys = new BodyKeys();
  /** Valid edges as (src nid, `dst * 16 + kind index`) pairs, in typed arrays (see EdgeSet). */
  readonly validEdges = new EdgeSet();
  /** Valid artifact revisions per path, as nids in recording order. */
  readonly revisionsByPath = new Map<string, number[]>();
  /** Valid evidence per path, as nids in recording order. */
  readonly evidenceByPath = new Map<string, number[]>();
  /** Valid verifier outcome per verifier name, as nid. */
  readonly latestOutcome = new Map<string, number>();
  nextNid = 0;
  nextVkey = 0;
  nextEkey = 0;
  nextBkey = 0;
  nextCkey = 0;
  lastTx = 0;
  lastEpoch = 0;
  /** Transactions, by number. */
  readonly transactions: TransactionRow[] = [];

  hasValidEdge(src: number, kind: EdgeKind, dst: number): boolean {
    return this.validEdges.has(src, edgeTarget(kind, dst));
  }

  isValid(row: NodeRow): boolean {
    return row.valid_to === null;
  }

  addBody(b: Pick<BodyRow, 'bkey' | 'hash'>): void {
    this.bodyKeys.set(b.hash, b.bkey);
    this.nextBkey = Math.max(this.nextBkey, b.bkey + 1);
  }

  addNodeVersion(row: NodeRow): void {
    this.nextVkey = Math.max(this.nextVkey, row.vkey + 1);
    this.nextNid = Math.max(this.nextNid, row.nid + 1);
    const previous = this.byNid[row.nid];
    if (previous && previous.vkey > row.vkey) return;
    this.nodes.set(row.id, row);
    this.byNid[row.nid] = row;
    if (row.valid_to !== null) return;
    if (row.kind === 'artifact_revision' && row.path !== null) pushUnique(this.revisionsByPath, row.path, row.nid);
    if (row.kind === 'evidence' && row.path !== null) pushUnique(this.evidenceByPath, row.path, row.nid);
    if (row.kind === 'verifier_outcome' && row.verifier !== null) this.latestOutcome.set(row.verifier, row.nid);
  }

  addEdge(e: EdgeRow): void {
    this.nextEkey = Math.max(this.nextEkey, e.ekey + 1);
    if (e.valid_to === null) this.validEdges.add(e.src, edgeTarget(e.kind as EdgeKind, e.dst));
  }

  /** Marks a node version invalid from `epoch` on and drops it from the per-path lookups. */
  closeNode(row: NodeRow, epoch: number): void {
    row.valid_to = epoch;
    if (this.byNid[row.nid] !== row) return;
    if (row.path !== null) {
      if (row.kind === 'artifact_revision') removeFrom(this.revisionsByPath, row.path, row.nid);
      if (row.kind === 'evidence') removeFrom(this.evidenceByPath, row.path, row.nid);
    }
    if (row.kind === 'verifier_outcome' && row.verifier !== null && this.latestOutcome.get(row.verifier) === row.nid) {
      this.latestOutcome.delete(row.verifier);
    }
  }

  /** Every transaction's row in number order: a snapshot's `transactions` section. */
  transactionRows(): TransactionRow[] {
    return this.transactions.filter((t) => t !== undefined);
  }

  addTransaction(t: TransactionRow): void {
    this.transactions[t.tx] = t;
    this.lastTx = Math.max(this.lastTx, t.tx);
    this.lastEpoch = Math.max(this.lastEpoch, t.epoch);
  }
}

function pushUnique(map: Map<string, number[]>, key: string, nid: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [nid]);
  else if (!list.includes(nid)) list.push(nid);
}

function removeFrom(map: Map<string, number[]>, key: string, nid: number): void {
  const list = map.get(key);
  if (!list) return;
  const i = list.indexOf(nid);
  if (i >= 0) list.splice(i, 1);
  if (list.length === 0) map.delete(key);
}
