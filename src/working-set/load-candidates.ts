import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import type { BodyColumns, NodeRow } from '../ledger/rows.js';
import type { EdgeKind, NodeKind, Status } from '../schema/kinds.js';
import { closureSql, neighbourhoodSql } from '../sql/closure.js';
import type { ResolvedRequest } from './request.js';
import type { Candidate, CandidateEdge } from './types.js';

export interface CandidateGraph {
  candidates: Map<number, Candidate>;
  edges: CandidateEdge[];
  /** For each candidate nid, the open nodes (any, visible) with an edge into it. */
  openDependants: Map<number, number[]>;
  explicitRoots: Set<number>;
  /** Reached by the walk but cut by a level's node bound (not walked on). */
  beyondBound: Array<{ nid: number; id: string }>;
  /** Reached through a valid edge but no longer valid (superseded or archived). */
  closed: Array<{ id: string; reason: string; closedAt: number; by: string | null }>;
  graphTruncated: boolean;
}

/**
 * Runs the closure and loads everything ranking needs in two statements: the bounded walk with
 * the default roots, the completion of every action transaction and tool call/result pair it
 * touched, and the node rows (closureSql); then the edges into the candidates, the closed
 * neighbours and, when the walk fit the node bound, whether the hop bound cut edges
 * (neighbourhoodSql).
 */
export async function loadCandidates(
  engine: Engine,
  req: ResolvedRequest,
  nidOf: (id: string) => number | undefined,
  idOf: (nid: number) => string | undefined,
): Promise<CandidateGraph> {
  const explicitRoots = new Set<number>();
  if (req.roots) {
    for (const id of req.roots) {
      const nid = nidOf(id);
      if (nid !== undefined) explicitRoots.add(nid);
    }
  }
  const closure = {
    epoch: req.epoch,
    roots: req.roots ? [...explicitRoots] : ('default' as const),
    authority: req.authority,
    hops: req.hops,
    maxNodes: req.maxNodes,
  };
  const table = await engine.query(closureSql(closure));
  // Read column-wise: a long session's walk reaches tens of thousands of nodes that the beam cut,
  // and building an object per row for them cost ~10 µs a row; only candidates become objects.
  const nids = table.getChild('nid')!.toArray() as Int32Array;
  const hopCol = table.getChild('hop')!;
  const beyondCol = table.getChild('beyond')!;
  const candidateCol = table.getChild('candidate')!;
  const names = table.schema.fields.map((f) => f.name);
  const columns = names.map((n) => table.getChild(n));
  // Completion-only rows (no hop) sort last: the walk's rows are a prefix.
  const walked: Array<{ nid: number; hop: number; beyond: boolean }> = [];
  const candidates = new Map<number, Candidate>();
  for (let i = 0; i < table.numRows; i++) {
    const nid = nids[i]!;
    const hop = hopCol.get(i) as number | null;
    const beyond = beyondCol.get(i) === true;
    if (hop !== null) walked.push({ nid, hop, beyond });
    if (candidateCol.get(i) !== true) continue;
    const row: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) row[names[c]!] = columns[c]?.get(i) ?? null;
    candidates.set(
      nid,
      toCandidate(row as unknown as NodeRowWithBody, hop === null || beyond ? Number.POSITIVE_INFINITY : hop),
    );
  }
  let graphTruncated = walked.some((r) => r.beyond);
  let frontier: { lastLevel: number[]; walked: number[] } | null = null;
  if (!graphTruncated && walked.length > 0) {
    const lastHop = walked[walked.length - 1]!.hop;
    frontier = {
      lastLevel: walked.filter((r) => r.hop === lastHop).map((r) => r.nid),
      walked: walked.map((r) => r.nid),
    };
  }
  const around = rowsOf<NeighbourhoodRow>(
    await engine.query(neighbourhoodSql(closure, [...candidates.keys()], frontier)),
  );
  const openDependants = new Map<number, number[]>();
  const inner: CandidateEdge[] = [];
  const closed: CandidateGraph['closed'] = [];
  for (const r of around) {
    if (r.part === 'cut') graphTruncated = r.cut === true;
    else if (r.part === 'closed') closed.push({ id: r.id!, reason: r.reason!, closedAt: r.closed_at!, by: r.by_id });
    else {
      const src = r.src!;
      const dst = r.dst!;
      if (candidates.has(src)) inner.push({ src, dst, kind: r.kind as EdgeKind });
      if (r.src_status === 'open') {
        const list = openDependants.get(dst);
        if (list) list.push(src);
        else openDependants.set(dst, [src]);
      }
    }
  }
  const beyondBound = walked
    .filter((r) => r.beyond && !candidates.has(r.nid))
    // Ids come from the ledger's in-memory index: no query for records that are only named.
    .map((r) => ({ nid: r.nid, id: idOf(r.nid) ?? String(r.nid) }));

  return {
    candidates,
    edges: inner,
    openDependants,
    explicitRoots,
    beyondBound,
    closed,
    graphTruncated,
  };
}

/** A row of neighbourhoodSql: an edge, a closed neighbour, or the frontier cut. */
interface NeighbourhoodRow {
  part: 'edge' | 'closed' | 'cut';
  src: number | null;
  dst: number | null;
  kind: string | null;
  src_status: string | null;
  id: string | null;
  reason: string | null;
  closed_at: number | null;
  by_id: string | null;
  cut: boolean | null;
}

/** A candidate row: the node version's columns with its body. */
type NodeRowWithBody = Pick<
  NodeRow,
  | 'nid'
  | 'id'
  | 'kind'
  | 'status'
  | 'authority'
  | 'path'
  | 'revision'
  | 'range_start'
  | 'range_end'
  | 'verifier'
  | 'tool'
  | 'role'
  | 'meta'
  | 'tx'
  | 'valid_from'
> &
  BodyColumns;

function toCandidate(r: NodeRowWithBody, hop: number): Candidate {
  return {
    nid: r.nid,
    id: r.id,
    kind: r.kind as NodeKind,
    status: r.status as Status | null,
    authority: r.authority,
    path: r.path,
    revision: r.revision,
    range: r.range_start !== null && r.range_end !== null ? [r.range_start, r.range_end] : null,
    verifier: r.verifier,
    tool: r.tool,
    role: r.role,
    meta: r.meta === null ? null : JSON.parse(r.meta),
    tx: r.tx,
    validFrom: r.valid_from,
    bodyHash: r.body_hash,
    body: r.body,
    tokens: r.tokens ?? 0,
    hop,
  };
}
