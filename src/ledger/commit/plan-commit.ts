import { LedgerError } from '../../errors.js';
import type { ClosureReason } from '../../schema/ddl.js';
import { EDGE_JOINS, EDGE_KINDS, type EdgeKind, NODE_KINDS, STATUS_RULES } from '../../schema/kinds.js';
import type { BodyRow, ClosureRow, EdgeRow, NodeRow, TransactionRow } from '../../schema/rows.js';
import type { EdgeInput, LineRange, NodeInput, Receipt, Transaction } from '../../schema/types.js';
import { EdgeSet } from '../edge-set.js';
import { EDGE_KIND_INDEX, edgeTarget, type LedgerIndex } from '../ledger-index.js';

/** Everything one commit writes, decided before the engine is touched. */
export interface CommitPlan {
  bodies: BodyRow[];
  nodes: NodeRow[];
  edges: EdgeRow[];
  closures: ClosureRow[];
  /** Index rows whose validity the commit closes (applied to the index after the engine commit). */
  closedNodes: NodeRow[];
  transaction: TransactionRow;
  receipt: Receipt;
}

/** EDGE_JOINS as bit masks over node kinds (`includes` over kind lists was a visible cost per
 * edge), with the kind's index as used in edge keys. */
const KIND_BITS: ReadonlyMap<string, number> = new Map(NODE_KINDS.map((k, i) => [k, 1 << i]));
const kindMask = (kinds: readonly string[]): number => kinds.reduce((m, k) => m | KIND_BITS.get(k)!, 0);
const JOIN_MASKS: ReadonlyMap<string, { index: number; from: number; to: number }> = new Map(
  EDGE_KINDS.map((k) => [
    k,
    { index: EDGE_KIND_INDEX.get(k)!, from: kindMask(EDGE_JOINS[k].from), to: kindMask(EDGE_JOINS[k].to) },
  ]),
);

/** Content hash of each node's body, by the node's position in the transaction (undefined when
 * the node has none). Positional, so no Map keyed by body text: hashing every 500-character text
 * for Set/Map keys cost ~4 µs a body. */
export type BodyHashes = ReadonlyArray<string | undefined>;

/**
 * Validates a shape-checked transaction against the ledger and decides every row it writes,
 * including the supersession the rules imply:
 * - a new `artifact_revision` of a path closes the path's valid revisions and the evidence cut
 *   from them (only evidence overlapping `changed` ranges when the revision names them);
 * - a new `verifier_outcome` closes the valid outcome of the same verifier;
 * - an explicit `supersedes` edge closes its target;
 * - a transition closes the node's current version and writes a new one;
 * - `contradicts` edges are reported in the receipt, never resolved.
 * Pure with respect to the index: nothing is mutated, so a rejected transaction changes nothing.
 */
export function planCommit(
  tx: Transaction,
  index: LedgerIndex,
  bodyHashes: BodyHashes,
  countTokens: (text: string, node: number) => number,
): CommitPlan {
  const epoch = tx.epoch;
  if (epoch < index.lastEpoch) {
    throw new LedgerError('EPOCH_REGRESSION', { field: 'epoch', epoch, lastEpoch: index.lastEpoch });
  }
  const txNo = index.lastTx + 1;
  const nodesIn = tx.nodes ?? [];
  const edgesIn = tx.edges ?? [];
  const transitionsIn = tx.transitions ?? [];

  let nextNid = index.nextNid;
  let nextVkey = index.nextVkey;
  let nextEkey = index.nextEkey;
  let nextBkey = index.nextBkey;
  let nextCkey = index.nextCkey;

  // Bodies: one row per content hash not yet stored.
  const bodies: BodyRow[] = [];
  const newBodyKeys = new Map<string, number>();
  const bodyKeyOf = (text: string, i: number): number => {
    const hash = bodyHashes[i];
    if (hash === undefined) throw new Error('body not hashed');
    const known = index.bodyKeys.get(hash) ?? newBodyKeys.get(hash);
    if (known !== undefined) return known;
    const bkey = nextBkey++;
    newBodyKeys.set(hash, bkey);
    bodies.push({
      bkey,
      hash,
      text,
      tokens: countTokens(text, i),
      chars: text.length,
      tx: txNo,
    });
    return bkey;
  };

  // Nodes.
  const newNodes = new Map<string, NodeRow>();
  const nodeRows: NodeRow[] = [];
  nodesIn.forEach((n, i) => {
    if (index.nodes.has(n.id) || newNodes.has(n.id))
      throw new LedgerError('DUPLICATE_ID', { field: `nodes[${i}].id`, id: n.id });
    const row = nodeRow(n, nextNid++, nextVkey++, txNo, epoch, n.body === undefined ? null : bodyKeyOf(n.body, i));
    newNodes.set(n.id, row);
    nodeRows.push(row);
  });

  // Field names are built only for errors (a template string per edge end was most of the
  // planner's garbage on bulk commits).
  const resolve = (id: string, edge: number, end: 'from' | 'to'): NodeRow => {
    const row = newNodes.get(id) ?? index.nodes.get(id);
    if (!row || row.valid_to !== null) {
      throw new LedgerError('DANGLING_EDGE', {
        field: `edges[${edge}].${end}`,
        id,
        reason: row ? 'the node is no longer valid' : 'no such node',
      });
    }
    return row;
  };

  // Edges.
  const edgeRows: EdgeRow[] = [];
  const edgeKeys = new EdgeSet(edgesIn.length);
  const contradictions: Receipt['contradictions'] = [];
  const pushEdge = (src: NodeRow, kind: EdgeKind, dst: NodeRow): void => {
    edgeKeys.add(src.nid, edgeTarget(kind, dst.nid));
    edgeRows.push({ ekey: nextEkey++, src: src.nid, dst: dst.nid, kind, tx: txNo, valid_from: epoch, valid_to: null });
  };
  const hasEdge = (src: NodeRow, kind: EdgeKind, dst: NodeRow): boolean =>
    edgeKeys.has(src.nid, edgeTarget(kind, dst.nid)) || index.hasValidEdge(src.nid, kind, dst.nid);
  // One tight loop: bulk commits carry ~4 edges per node. Consecutive edges usually share their
  // source (a node and its out-edges), so the last source lookup is reused.
  let lastFrom: string | null = null;
  let lastSrc: NodeRow | null = null;
  for (let i = 0; i < edgesIn.length; i++) {
    const e: EdgeInput = edgesIn[i]!;
    const src: NodeRow = e.from === lastFrom && lastSrc !== null ? lastSrc : resolve(e.from, i, 'from');
    lastFrom = e.from;
    lastSrc = src;
    const dst = resolve(e.to, i, 'to');
    const join = JOIN_MASKS.get(e.kind)!;
    if (
      (join.from & KIND_BITS.get(src.kind)!) === 0 ||
      (join.to & KIND_BITS.get(dst.kind)!) === 0 ||
      (e.kind === 'supersedes' && src.kind !== dst.kind)
    ) {
      throw new LedgerError('EDGE_KIND_MISMATCH', { field: `edges[${i}]`, edge: e.kind, from: src.kind, to: dst.kind });
    }
    const target = dst.nid * 16 + join.index; // = edgeTarget(e.kind, dst.nid)
    if (index.validEdges.has(src.nid, target) || !edgeKeys.add(src.nid, target)) {
      throw new LedgerError('DUPLICATE_EDGE', { field: `edges[${i}]`, from: e.from, to: e.to, kind: e.kind });
    }
    edgeRows.push({
      ekey: nextEkey++,
      src: src.nid,
      dst: dst.nid,
      kind: e.kind,
      tx: txNo,
      valid_from: epoch,
      valid_to: null,
    });
    if (e.kind === 'contradicts') contradictions.push({ from: e.from, to: e.to });
  }

  // Closures (supersession) — decided in input order so receipts are deterministic.
  const closures: ClosureRow[] = [];
  const closedNodes: NodeRow[] = [];
  const closedSet = new Set<NodeRow>();
  const superseded: string[] = [];
  const supersededIds = new Set<string>();
  const close = (row: NodeRow, reason: ClosureReason, by: NodeRow | null): void => {
    if (row.valid_to !== null || closedSet.has(row)) return;
    closedSet.add(row);
    closedNodes.push(row);
    closures.push({
      ckey: nextCkey++,
      tx: txNo,
      epoch,
      target: 'node',
      key: row.vkey,
      reason,
      by_nid: by?.nid ?? null,
    });
    if (!supersededIds.has(row.id)) {
      supersededIds.add(row.id);
      superseded.push(row.id);
    }
  };
  const autoSupersede = (by: NodeRow, old: NodeRow): void => {
    if (!hasEdge(by, 'supersedes', old)) pushEdge(by, 'supersedes', old);
  };

  const revisionsSeen = new Map<string, NodeRow[]>();
  for (const row of nodeRows) {
    if (row.kind === 'artifact_revision' && row.path !== null) {
      const older = [
        ...(index.revisionsByPath.get(row.path) ?? []).map((nid) => index.byNid[nid]!),
        ...(revisionsSeen.get(row.path) ?? []),
      ];
      for (const old of older) {
        close(old, 'newer-revision', row);
        autoSupersede(row, old);
      }
      revisionsSeen.set(row.path, [...(revisionsSeen.get(row.path) ?? []), row]);
      const changed = row.changed === null ? null : (JSON.parse(row.changed) as LineRange[]);
      for (const nid of index.evidenceByPath.get(row.path) ?? []) {
        const ev = index.byNid[nid]!;
        if (ev.revision !== null && ev.revision === row.revision) continue;
        if (changed && !overlapsAny(ev, changed)) continue;
        close(ev, 'stale-evidence', row);
      }
    }
    if (row.kind === 'verifier_outcome' && row.verifier !== null) {
      const oldNid = index.latestOutcome.get(row.verifier);
      const older = oldNid === undefined ? [] : [index.byNid[oldNid]!];
      for (const other of nodeRows) {
        if (other === row) break;
        if (other.kind === 'verifier_outcome' && other.verifier === row.verifier) older.push(other);
      }
      for (const old of older) {
        close(old, 'newer-outcome', row);
        autoSupersede(row, old);
      }
    }
  }
  edgesIn.forEach((e) => {
    if (e.kind !== 'supersedes') return;
    close(
      (newNodes.get(e.to) ?? index.nodes.get(e.to))!,
      'superseded',
      (newNodes.get(e.from) ?? index.nodes.get(e.from))!,
    );
  });

  // Transitions: a new version of the node with the new status.
  const transitioned = new Set<string>();
  transitionsIn.forEach((t, i) => {
    const at = `transitions[${i}]`;
    if (transitioned.has(t.id))
      throw new LedgerError('DUPLICATE_ID', { field: `${at}.id`, id: t.id, reason: 'transitioned twice' });
    transitioned.add(t.id);
    const fresh = newNodes.get(t.id);
    const current = fresh ?? index.nodes.get(t.id);
    if (!current) throw new LedgerError('UNKNOWN_NODE', { field: `${at}.id`, id: t.id });
    if (current.valid_to !== null || closedSet.has(current)) {
      throw new LedgerError('UNKNOWN_NODE', { field: `${at}.id`, id: t.id, reason: 'the node is no longer valid' });
    }
    if (!STATUS_RULES[current.kind].allowed.includes(t.status)) {
      throw new LedgerError('INVALID_STATUS', { field: `${at}.status`, value: t.status, kind: current.kind });
    }
    if (fresh) {
      fresh.status = t.status;
      return;
    }
    closures.push({
      ckey: nextCkey++,
      tx: txNo,
      epoch,
      target: 'node',
      key: current.vkey,
      reason: 'status-change',
      by_nid: null,
    });
    closedNodes.push(current);
    closedSet.add(current);
    nodeRows.push({ ...current, vkey: nextVkey++, status: t.status, tx: txNo, valid_from: epoch, valid_to: null });
  });

  const transaction: TransactionRow = {
    tx: txNo,
    epoch,
    kind: 'commit',
    nodes: nodesIn.length,
    edges: edgesIn.length,
    transitions: transitionsIn.length,
    archived_tx: null,
  };
  return {
    bodies,
    nodes: nodeRows,
    edges: edgeRows,
    closures,
    closedNodes,
    transaction,
    receipt: {
      tx: txNo,
      epoch,
      counts: {
        nodes: nodesIn.length,
        edges: edgeRows.length,
        bodies: bodies.length,
        transitions: transitionsIn.length,
      },
      superseded,
      contradictions,
    },
  };
}

function nodeRow(n: NodeInput, nid: number, vkey: number, tx: number, epoch: number, bkey: number | null): NodeRow {
  return {
    vkey,
    nid,
    id: n.id,
    kind: n.kind,
    status: n.status ?? STATUS_RULES[n.kind].default,
    authority: n.authority ?? 'agent',
    bkey,
    path: n.path ?? null,
    revision: n.revision ?? null,
    range_start: n.range?.[0] ?? null,
    range_end: n.range?.[1] ?? null,
    verifier: n.verifier ?? null,
    tool: n.tool ?? null,
    role: n.role ?? null,
    changed: n.changed === undefined ? null : JSON.stringify(n.changed),
    meta: n.meta === undefined ? null : stableJson(n.meta),
    tx,
    valid_from: epoch,
    valid_to: null,
  };
}

function overlapsAny(ev: NodeRow, ranges: readonly LineRange[]): boolean {
  if (ev.range_start === null || ev.range_end === null) return true;
  return ranges.some(([a, b]) => ev.range_start! <= b && a <= ev.range_end!);
}

/** JSON with keys sorted, so equal metadata serialises to equal bytes. */
export function stableJson(o: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    ),
  );
}
