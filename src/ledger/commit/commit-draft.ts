import type { ClosureReason } from '../../schema/ddl.js';
import type { EdgeKind } from '../../schema/kinds.js';
import type { BodyRow, ClosureRow, EdgeRow, NodeRow } from '../../schema/rows.js';
import type { Receipt } from '../../schema/types.js';
import { EdgeSet } from '../edge-set.js';
import type { LedgerIndex } from '../ledger-index.js';

/**
 * The rows one commit is deciding, shared by the planner's phases. Keys are drawn from the
 * draft's own counters, never the index's, and nothing here writes to the index: a phase that
 * throws leaves the ledger as it was.
 */
export interface CommitDraft {
  readonly index: LedgerIndex;
  readonly tx: number;
  readonly epoch: number;
  nextNid: number;
  nextVkey: number;
  nextEkey: number;
  nextBkey: number;
  nextCkey: number;
  readonly bodies: BodyRow[];
  /** Keys of the bodies this commit adds, by content hash. */
  readonly newBodyKeys: Map<string, number>;
  readonly nodes: NodeRow[];
  /** The commit's new nodes by id (their first version). */
  readonly newNodes: Map<string, NodeRow>;
  readonly edges: EdgeRow[];
  /** The commit's edges as (src, edge target) keys, for duplicate checks. */
  readonly edgeKeys: EdgeSet;
  readonly closures: ClosureRow[];
  /** Index rows whose validity the commit closes, in closing order. */
  readonly closedNodes: NodeRow[];
  readonly closedSet: Set<NodeRow>;
  /** Ids the commit supersedes, in closing order, each once (the receipt's list). */
  readonly superseded: string[];
  readonly supersededIds: Set<string>;
  readonly contradictions: Receipt['contradictions'];
}

export function newDraft(index: LedgerIndex, epoch: number, edgeCount: number): CommitDraft {
  return {
    index,
    tx: index.lastTx + 1,
    epoch,
    nextNid: index.nextNid,
    nextVkey: index.nextVkey,
    nextEkey: index.nextEkey,
    nextBkey: index.nextBkey,
    nextCkey: index.nextCkey,
    bodies: [],
    newBodyKeys: new Map(),
    nodes: [],
    newNodes: new Map(),
    edges: [],
    edgeKeys: new EdgeSet(edgeCount),
    closures: [],
    closedNodes: [],
    closedSet: new Set(),
    superseded: [],
    supersededIds: new Set(),
    contradictions: [],
  };
}

/** A node by id as this commit sees it: its new version first, else the index's. */
export const nodeOf = (draft: CommitDraft, id: string): NodeRow | undefined =>
  draft.newNodes.get(id) ?? draft.index.nodes.get(id);

/** Closes the validity of `row` at the commit's epoch, `by` naming the node that caused it. */
export function closeNode(draft: CommitDraft, row: NodeRow, reason: ClosureReason, by: NodeRow | null): void {
  draft.closedSet.add(row);
  draft.closedNodes.push(row);
  draft.closures.push({
    ckey: draft.nextCkey++,
    tx: draft.tx,
    epoch: draft.epoch,
    target: 'node',
    key: row.vkey,
    reason,
    by_nid: by?.nid ?? null,
  });
}

/** Appends an edge valid from the commit's epoch; its kind and ends are already checked. */
export function addEdgeRow(draft: CommitDraft, src: NodeRow, kind: EdgeKind, dst: NodeRow): void {
  draft.edges.push({
    ekey: draft.nextEkey++,
    src: src.nid,
    dst: dst.nid,
    kind,
    tx: draft.tx,
    valid_from: draft.epoch,
    valid_to: null,
  });
}
