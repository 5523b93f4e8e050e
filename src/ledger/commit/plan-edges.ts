import { LedgerError } from '../../errors.js';
import { EDGE_JOINS, EDGE_KINDS, NODE_KINDS } from '../../schema/kinds.js';
import type { NodeRow } from '../../schema/rows.js';
import type { EdgeInput } from '../../schema/types.js';
import { EDGE_KIND_INDEX } from '../ledger-index.js';
import { addEdgeRow, type CommitDraft, nodeOf } from './commit-draft.js';

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

/**
 * The transaction's edges, each checked against the ledger as of this commit: both ends valid
 * nodes, a join the schema allows (`supersedes` only between nodes of one kind), not a valid
 * edge already. `contradicts` edges are noted for the receipt, never resolved.
 */
export function planEdges(draft: CommitDraft, edgesIn: readonly EdgeInput[]): void {
  const { index, edgeKeys } = draft;
  // One tight loop: bulk commits carry ~4 edges per node. Consecutive edges usually share their
  // source (a node and its out-edges), so the last source lookup is reused.
  let lastFrom: string | null = null;
  let lastSrc: NodeRow | null = null;
  for (let i = 0; i < edgesIn.length; i++) {
    const e: EdgeInput = edgesIn[i]!;
    const src: NodeRow = e.from === lastFrom && lastSrc !== null ? lastSrc : validEnd(draft, e.from, i, 'from');
    lastFrom = e.from;
    lastSrc = src;
    const dst = validEnd(draft, e.to, i, 'to');
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
    addEdgeRow(draft, src, e.kind, dst);
    if (e.kind === 'contradicts') draft.contradictions.push({ from: e.from, to: e.to });
  }
}

/** The valid node an edge end names. The field name is built only for the error (a template
 * string per edge end was most of the planner's garbage on bulk commits). */
function validEnd(draft: CommitDraft, id: string, edge: number, end: 'from' | 'to'): NodeRow {
  const row = nodeOf(draft, id);
  if (!row || row.valid_to !== null) {
    throw new LedgerError('DANGLING_EDGE', {
      field: `edges[${edge}].${end}`,
      id,
      reason: row ? 'the node is no longer valid' : 'no such node',
    });
  }
  return row;
}
