import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import type { NodeKind, Status } from '../schema/kinds.js';
import { type BodyColumns, type NodeRow, rowMeta, rowRange } from '../schema/rows.js';
import type { EdgeRecord, GraphView, LineRange, NodeRecord } from '../schema/types.js';
import {
  EDGES_AS_OF_STATEMENT,
  EDGES_CURRENT_STATEMENT,
  NODES_AS_OF_STATEMENT,
  NODES_CURRENT_STATEMENT,
} from '../sql/as-of.js';
import { intLiteral } from '../sql/literals.js';
import { queryPrepared } from '../sql/prepared.js';

/** The nodes and edges valid at `epoch`, in recording order (the epoch is already checked); at
 * or after `lastEpoch` through the statements without an epoch, whose plans are kept. */
export async function readGraphView(engine: Engine, epoch: number, lastEpoch: number): Promise<GraphView> {
  const current = epoch >= lastEpoch;
  const at: Record<string, string> = current ? {} : { epoch: intLiteral(epoch) };
  const [nodesSql, edgesSql] = current
    ? [NODES_CURRENT_STATEMENT, EDGES_CURRENT_STATEMENT]
    : [NODES_AS_OF_STATEMENT, EDGES_AS_OF_STATEMENT];
  const nodes = rowsOf<NodeRow & BodyColumns>(await queryPrepared(engine, 'graph_view_nodes', nodesSql, at)).map(
    toNodeRecord,
  );
  const edges = rowsOf<{
    kind: string;
    tx: number;
    valid_from: number;
    valid_to: number | null;
    from_id: string;
    to_id: string;
  }>(await queryPrepared(engine, 'graph_view_edges', edgesSql, at)).map(
    (e): EdgeRecord => ({
      from: e.from_id,
      to: e.to_id,
      kind: e.kind as EdgeRecord['kind'],
      tx: e.tx,
      validFrom: e.valid_from,
      ...(e.valid_to === null ? {} : { validTo: e.valid_to }),
    }),
  );
  return { nodes, edges };
}

export function toNodeRecord(r: NodeRow & BodyColumns): NodeRecord {
  // Keys in the commit shape's order, then validity: the same record always serialises the same.
  const rec: Partial<NodeRecord> & Record<string, unknown> = { id: r.id, kind: r.kind as NodeKind };
  if (r.status !== null) rec.status = r.status as Status;
  rec.authority = r.authority;
  if (r.body !== null) rec.body = r.body;
  if (r.path !== null) rec.path = r.path;
  if (r.revision !== null) rec.revision = r.revision;
  const range = rowRange(r);
  if (range !== null) rec.range = range;
  if (r.changed !== null) rec.changed = JSON.parse(r.changed) as LineRange[];
  if (r.verifier !== null) rec.verifier = r.verifier;
  if (r.tool !== null) rec.tool = r.tool;
  if (r.role !== null) rec.role = r.role as NodeRecord['role'];
  const meta = rowMeta(r);
  if (meta !== null) rec.meta = meta;
  rec.tx = r.tx;
  rec.validFrom = r.valid_from;
  if (r.valid_to !== null) rec.validTo = r.valid_to;
  rec.tokens = r.tokens ?? 0;
  if (r.body_hash !== null) rec.bodyHash = r.body_hash;
  return rec as NodeRecord;
}
