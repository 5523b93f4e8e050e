import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import type { BodyColumns, NodeRow } from '../ledger/rows.js';
import type { EdgeKind, NodeKind, Status } from '../schema/kinds.js';
import {
  candidateEdgesSql,
  candidateNodesSql,
  closedNeighboursSql,
  closureSql,
  cutAtFrontierSql,
  visibleNodesSql,
} from '../sql/closure.js';
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

const UNIT_EDGES = new Set(['invokes', 'produces', 'mutates']);

/**
 * Runs the closure and loads everything ranking needs, in a handful of queries: the bounded walk,
 * the edges touching the reached nodes (repeated until every action transaction and tool
 * call/result pair the walk touched is whole — those may exceed the node bound, because splitting
 * them would break the pairing invariant), the node rows, and the closed neighbours.
 */
export async function loadCandidates(
  engine: Engine,
  req: ResolvedRequest,
  nidOf: (id: string) => number | undefined,
  idOf: (nid: number) => string | undefined,
): Promise<CandidateGraph> {
  const explicitRoots = new Set<number>();
  let roots: number[];
  if (req.roots) {
    for (const id of req.roots) {
      const nid = nidOf(id);
      if (nid !== undefined) explicitRoots.add(nid);
    }
    roots = [...explicitRoots];
  } else {
    roots = await defaultRoots(engine, req);
  }
  const closure = { epoch: req.epoch, roots, authority: req.authority, hops: req.hops, maxNodes: req.maxNodes };
  const walked = rowsOf<{ nid: number; hop: number; beyond: boolean }>(await engine.query(closureSql(closure)));
  const kept = walked.filter((r) => !r.beyond);
  let graphTruncated = kept.length < walked.length;
  if (!graphTruncated && walked.length > 0) {
    const lastHop = walked[walked.length - 1]!.hop;
    const lastLevel = walked.filter((r) => r.hop === lastHop).map((r) => r.nid);
    const cut = await engine.query(
      cutAtFrontierSql(
        closure,
        lastLevel,
        walked.map((r) => r.nid),
      ),
    );
    graphTruncated = cut.getChild('cut')?.get(0) === true;
  }
  const hops = new Map(kept.map((r) => [r.nid, r.hop]));
  const set = new Set(hops.keys());

  let edges: Array<CandidateEdge & { src_status: string | null }> = [];
  for (let round = 0; round < 4; round++) {
    edges = rowsOf(await engine.query(candidateEdgesSql(req.epoch, req.authority, [...set])));
    const before = set.size;
    for (const e of edges) {
      if (!UNIT_EDGES.has(e.kind)) continue;
      if (set.has(e.src)) set.add(e.dst);
      if (set.has(e.dst) && e.kind !== 'mutates') set.add(e.src);
    }
    if (set.size === before) break;
  }
  const nodeRows = rowsOf<NodeRowWithBody>(await engine.query(candidateNodesSql(req.epoch, [...set])));
  const candidates = new Map<number, Candidate>();
  for (const r of nodeRows) candidates.set(r.nid, toCandidate(r, hops.get(r.nid) ?? Number.POSITIVE_INFINITY));

  const openDependants = new Map<number, number[]>();
  const inner: CandidateEdge[] = [];
  for (const e of edges) {
    if (candidates.has(e.src) && candidates.has(e.dst))
      inner.push({ src: e.src, dst: e.dst, kind: e.kind as EdgeKind });
    if (e.src_status === 'open' && candidates.has(e.dst)) {
      const list = openDependants.get(e.dst);
      if (list) list.push(e.src);
      else openDependants.set(e.dst, [e.src]);
    }
  }
  const beyondBound = walked
    .filter((r) => r.beyond && !candidates.has(r.nid))
    // Ids come from the ledger's in-memory index: no query for records that are only named.
    .map((r) => ({ nid: r.nid, id: idOf(r.nid) ?? String(r.nid) }));
  const closed = rowsOf<{ id: string; reason: string; closed_at: number; by_id: string | null }>(
    await engine.query(closedNeighboursSql(req.epoch, req.authority, [...candidates.keys()])),
  ).map((r) => ({ id: r.id, reason: r.reason, closedAt: r.closed_at, by: r.by_id }));

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

/** Open tasks, steering and claims, and the current action: the open actions, else the latest one.
 * (Unresolved claims are roots too: a claim nobody linked to the task is still what the agent
 * must settle, and a contradiction must surface.) */
async function defaultRoots(engine: Engine, req: ResolvedRequest): Promise<number[]> {
  // Open request projections are roots too, so the evidence they rendered stays protected.
  // (meta is stable JSON written by the ledger; inside a string value a quote is escaped, so the
  // pattern only matches the real key.)
  const rows = rowsOf<{ nid: number; kind: string; status: string | null; tx: number }>(
    await engine.query(
      `SELECT nid, kind, status, tx FROM (${visibleNodesSql(req.epoch, req.authority)}) v
       WHERE kind IN ('task', 'steering', 'claim', 'action')
          OR (kind = 'message' AND status = 'open' AND meta LIKE '%"projection":true%')
       ORDER BY nid`,
    ),
  );
  const roots = rows.filter((r) => r.kind !== 'action' && r.status === 'open').map((r) => r.nid);
  const actions = rows.filter((r) => r.kind === 'action');
  const open = actions.filter((r) => r.status === 'open');
  const latest = actions.reduce<(typeof actions)[number] | null>(
    (b, r) => (!b || r.tx > b.tx || (r.tx === b.tx && r.nid > b.nid) ? r : b),
    null,
  );
  roots.push(...(open.length > 0 ? open.map((r) => r.nid) : latest ? [latest.nid] : []));
  return roots;
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
