import type { ClosureReason } from '../../schema/ddl.js';
import type { NodeRow } from '../../schema/rows.js';
import type { EdgeInput, LineRange } from '../../schema/types.js';
import { edgeTarget } from '../ledger-index.js';
import { addEdgeRow, type CommitDraft, closeNode, nodeOf } from './commit-draft.js';

/**
 * The closures a commit's new nodes and edges imply, decided by rules, never guessed, and in
 * input order so receipts are deterministic:
 * - a new `artifact_revision` of a path closes the path's valid revisions and the evidence cut
 *   from them (only evidence overlapping `changed` ranges when the revision names them);
 * - a new `verifier_outcome` closes the valid outcome of the same verifier;
 * - an explicit `supersedes` edge closes its target.
 * A rule-made closure also gets its `supersedes` edge, unless the transaction gave it.
 */
export function planSupersession(draft: CommitDraft, edgesIn: readonly EdgeInput[]): void {
  // The commit's new nodes: transitions add their versions only after supersession.
  const newRows = draft.nodes;
  const revisionsSeen = new Map<string, NodeRow[]>();
  for (const row of newRows) {
    if (row.kind === 'artifact_revision' && row.path !== null) supersedeRevisions(draft, row, revisionsSeen);
    if (row.kind === 'verifier_outcome' && row.verifier !== null) supersedeOutcomes(draft, row, newRows);
  }
  for (const e of edgesIn) {
    if (e.kind === 'supersedes') supersede(draft, nodeOf(draft, e.to)!, 'superseded', nodeOf(draft, e.from)!);
  }
}

/** A newer revision closes the path's older revisions (the ledger's and this commit's earlier
 * ones) and the evidence cut from them. */
function supersedeRevisions(draft: CommitDraft, row: NodeRow, revisionsSeen: Map<string, NodeRow[]>): void {
  const { index } = draft;
  const path = row.path!;
  const older = [
    ...(index.revisionsByPath.get(path) ?? []).map((nid) => index.byNid[nid]!),
    ...(revisionsSeen.get(path) ?? []),
  ];
  for (const old of older) {
    supersede(draft, old, 'newer-revision', row);
    linkSupersedes(draft, row, old);
  }
  revisionsSeen.set(path, [...(revisionsSeen.get(path) ?? []), row]);
  const changed = row.changed === null ? null : (JSON.parse(row.changed) as LineRange[]);
  for (const nid of index.evidenceByPath.get(path) ?? []) {
    const ev = index.byNid[nid]!;
    if (ev.revision !== null && ev.revision === row.revision) continue;
    if (changed && !overlapsAny(ev, changed)) continue;
    supersede(draft, ev, 'stale-evidence', row);
  }
}

/** A newer outcome closes the verifier's latest outcome and this commit's earlier ones. */
function supersedeOutcomes(draft: CommitDraft, row: NodeRow, newRows: readonly NodeRow[]): void {
  const oldNid = draft.index.latestOutcome.get(row.verifier!);
  const older = oldNid === undefined ? [] : [draft.index.byNid[oldNid]!];
  for (const other of newRows) {
    if (other === row) break;
    if (other.kind === 'verifier_outcome' && other.verifier === row.verifier) older.push(other);
  }
  for (const old of older) {
    supersede(draft, old, 'newer-outcome', row);
    linkSupersedes(draft, row, old);
  }
}

/** Closes `row` once (an already closed row stays as it is) and lists its id as superseded. */
function supersede(draft: CommitDraft, row: NodeRow, reason: ClosureReason, by: NodeRow | null): void {
  if (row.valid_to !== null || draft.closedSet.has(row)) return;
  closeNode(draft, row, reason, by);
  if (!draft.supersededIds.has(row.id)) {
    draft.supersededIds.add(row.id);
    draft.superseded.push(row.id);
  }
}

/** The `supersedes` edge of a rule-made closure, unless the ledger or the commit holds it. */
function linkSupersedes(draft: CommitDraft, by: NodeRow, old: NodeRow): void {
  const target = edgeTarget('supersedes', old.nid);
  if (draft.edgeKeys.has(by.nid, target) || draft.index.hasValidEdge(by.nid, 'supersedes', old.nid)) return;
  draft.edgeKeys.add(by.nid, target);
  addEdgeRow(draft, by, 'supersedes', old);
}

function overlapsAny(ev: NodeRow, ranges: readonly LineRange[]): boolean {
  if (ev.range_start === null || ev.range_end === null) return true;
  return ranges.some(([a, b]) => ev.range_start! <= b && a <= ev.range_end!);
}
