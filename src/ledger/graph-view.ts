import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import type { NodeKind, Status } from '../schema/kinds.js';
import { type BodyColumns, type BodyRow, type NodeRow, rowMeta, rowRange } from '../schema/rows.js';
import type { EdgeRecord, GraphView, LineRange, NodeRecord } from '../schema/types.js';
import {
  EDGES_AS_OF_STATEMENT,
  EDGES_CURRENT_STATEMENT,
  NODES_AS_OF_STATEMENT,
  NODES_CURRENT_STATEMENT,
} from '../sql/as-of.js';
import { intLiteral } from '../sql/literals.js';
import { queryPrepared } from '../sql/prepared.js';
import type { CommitPlan } from './commit/plan-commit.js';
import type { LedgerIndex } from './ledger-index.js';

/** A node version as the graph view's statements return it. */
type ViewNodeRow = NodeRow & BodyColumns;

/** An edge as the graph view's statements return it. */
interface ViewEdgeRow {
  kind: string;
  tx: number;
  valid_from: number;
  valid_to: number | null;
  from_id: string;
  to_id: string;
}

/**
 * The nodes and edges valid at `epoch`, in recording order (the epoch is already checked); at
 * or after the last epoch from `current` when it holds the view, else through the statements
 * without an epoch, whose plans are kept (and `current` is filled from their rows).
 */
export async function readGraphView(
  engine: Engine,
  epoch: number,
  index: LedgerIndex,
  current?: CurrentGraphView,
): Promise<GraphView> {
  const isCurrent = epoch >= index.lastEpoch;
  if (isCurrent && current) {
    const kept = current.read(index);
    if (kept !== null) return kept;
  }
  const at: Record<string, string> = isCurrent ? {} : { epoch: intLiteral(epoch) };
  const [nodesSql, edgesSql] = isCurrent
    ? [NODES_CURRENT_STATEMENT, EDGES_CURRENT_STATEMENT]
    : [NODES_AS_OF_STATEMENT, EDGES_AS_OF_STATEMENT];
  const nodeRows = rowsOf<ViewNodeRow>(await queryPrepared(engine, 'graph_view_nodes', nodesSql, at));
  const edgeRows = rowsOf<ViewEdgeRow & { ekey: number }>(
    await queryPrepared(engine, 'graph_view_edges', edgesSql, at),
  );
  if (isCurrent && current) current.fill(index, nodeRows, edgeRows);
  return { nodes: nodeRows.map(toNodeRecord), edges: edgeRows.map(toEdgeRecord) };
}

/**
 * The current graph view (what `asOf` answers at or after the last epoch), kept in step with
 * every commit so that an agent reading the graph after each step costs no engine round trip:
 * the two statements were ~20% of a warm request's CPU (commit 2 nodes + asOf + materialize in
 * Node, test/bench/workerd-bench.ts). It starts empty, is filled from the statements' rows the
 * first time the current view is read, and follows each commit's plan: closed versions leave, new
 * versions enter in vkey order, new edges in ekey order. A node id is never reused and edges are
 * never closed, so an edge leaves the view only when an end has no valid version, which the
 * index says when the view is read.
 *
 * It holds a copy of the current bodies, so it is kept only while they total at most
 * CURRENT_VIEW_MAX_CHARS characters (a ledger past that reads through the engine as before: its
 * view is large enough that the statements are not the cost, and the copy would be). It answers
 * only for the transaction it was brought to: a commit it did not see (one made before it was
 * filled, or a body it cannot find) leaves it empty until the next read refills it.
 */
export class CurrentGraphView {
  #state: {
    tx: number;
    nodes: ViewNodeRow[];
    edges: Array<ViewEdgeRow & { src: number; dst: number }>;
    chars: number;
  } | null = null;

  /** The view if it is the ledger's current one, as fresh records (callers may change them). */
  read(index: LedgerIndex): GraphView | null {
    const state = this.#state;
    if (state === null || state.tx !== index.lastTx) return null;
    const valid = (nid: number): boolean => index.byNid[nid]?.valid_to === null;
    const edges: EdgeRecord[] = [];
    for (const e of state.edges) if (valid(e.src) && valid(e.dst)) edges.push(toEdgeRecord(e));
    return { nodes: state.nodes.map(toNodeRecord), edges };
  }

  /** Takes the current view's rows as the statements returned them. */
  fill(index: LedgerIndex, nodes: ViewNodeRow[], edges: ViewEdgeRow[]): void {
    const chars = bodyChars(nodes);
    if (chars > CURRENT_VIEW_MAX_CHARS) {
      this.#state = null;
      return;
    }
    const withEnds = edges.map((e) => ({
      kind: e.kind,
      tx: e.tx,
      valid_from: e.valid_from,
      valid_to: e.valid_to,
      from_id: e.from_id,
      to_id: e.to_id,
      src: index.nodes.get(e.from_id)!.nid,
      dst: index.nodes.get(e.to_id)!.nid,
    }));
    this.#state = { tx: index.lastTx, nodes, edges: withEnds, chars };
  }

  /** Follows a committed plan (a commit hook; the index already holds the plan). */
  onCommit(plan: CommitPlan, index: LedgerIndex): void {
    const state = this.#state;
    if (state === null) return;
    this.#state = null; // kept again only once the plan is fully applied
    if (state.tx !== plan.transaction.tx - 1) return;
    const bodies = new Map<number, BodyRow>();
    for (const b of plan.bodies) bodies.set(b.bkey, b);
    const entering: ViewNodeRow[] = [];
    for (const row of plan.nodes) {
      if (row.valid_to !== null) continue; // written and closed by the same commit
      let body: BodyColumns = { body: null, tokens: null, body_hash: null };
      if (row.bkey !== null) {
        const b = bodies.get(row.bkey);
        const known = b ? { body: b.text, tokens: b.tokens, body_hash: b.hash } : bodyOf(state.nodes, row.bkey);
        if (known === null) return; // a body stored earlier whose text the view does not hold
        body = known;
      }
      entering.push({ ...row, ...body });
    }
    const leaving = new Set<number>();
    for (const c of plan.closures) if (c.target === 'node') leaving.add(c.key);
    const nodes = leaving.size === 0 ? state.nodes : state.nodes.filter((n) => !leaving.has(n.vkey));
    entering.sort((a, b) => a.vkey - b.vkey);
    for (const row of entering) nodes.push(row);
    const edges = state.edges;
    for (const e of [...plan.edges].sort((a, b) => a.ekey - b.ekey)) {
      edges.push({
        kind: e.kind,
        tx: e.tx,
        valid_from: e.valid_from,
        valid_to: e.valid_to,
        from_id: index.byNid[e.src]!.id,
        to_id: index.byNid[e.dst]!.id,
        src: e.src,
        dst: e.dst,
      });
    }
    const chars = leaving.size === 0 ? state.chars + bodyChars(entering) : bodyChars(nodes);
    if (chars > CURRENT_VIEW_MAX_CHARS) return;
    this.#state = { tx: plan.transaction.tx, nodes, edges, chars };
  }
}

/**
 * Body characters the current view may copy: 1 Mi characters (~2 MiB of JS strings) is a few
 * percent of a Workers isolate's 128 MB, and a view that large costs more to build as records
 * than its two statements do.
 * @internal Exported for its unit tests.
 */
export const CURRENT_VIEW_MAX_CHARS = 1 << 20;

function bodyChars(rows: readonly ViewNodeRow[]): number {
  let chars = 0;
  for (const r of rows) chars += r.body?.length ?? 0;
  return chars;
}

function bodyOf(rows: readonly ViewNodeRow[], bkey: number): BodyColumns | null {
  for (const r of rows) if (r.bkey === bkey) return { body: r.body, tokens: r.tokens, body_hash: r.body_hash };
  return null;
}

function toEdgeRecord(e: ViewEdgeRow): EdgeRecord {
  return {
    from: e.from_id,
    to: e.to_id,
    kind: e.kind as EdgeRecord['kind'],
    tx: e.tx,
    validFrom: e.valid_from,
    ...(e.valid_to === null ? {} : { validTo: e.valid_to }),
  };
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
