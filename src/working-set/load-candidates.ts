import type { Engine } from '../engine/engine.js';
import type { EdgeKind, NodeKind, Status } from '../schema/kinds.js';
import { type BodyColumns, type NodeRow, rowMeta, rowRange } from '../schema/rows.js';
import { closureParams, closureShape, workingSetSql } from '../sql/closure.js';
import { queryPrepared } from '../sql/prepared.js';
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

/** Row tags of workingSetSql. */
const NODE = 0;
const EDGE = 1;
const CLOSED = 2;
const CUT = 3;

/**
 * Runs the closure and loads everything ranking needs in one prepared statement
 * (workingSetSql): the bounded walk with the default roots, the completion of every action
 * transaction and tool call/result pair it touched, the node rows, the edges into the
 * candidates, the closed neighbours and whether the hop bound cut edges. At the ledger's last
 * epoch (the common case) the statement's validity test is `valid_to IS NULL`; older epochs take
 * the general one (see ClosureShape).
 */
export async function loadCandidates(
  engine: Engine,
  req: ResolvedRequest,
  nidOf: (id: string) => number | undefined,
  idOf: (nid: number) => string | undefined,
  lastEpoch: number = Number.POSITIVE_INFINITY,
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
  const shape = closureShape(closure, lastEpoch);
  const name = `working_set_${shape.current ? 'current' : 'as_of'}_${shape.defaultRoots ? 'default' : 'given'}_roots`;
  const table = await queryPrepared(engine, name, workingSetSql(shape), closureParams(shape, closure));
  // Read column-wise, and only candidates become objects (building one per row cost ~10 µs a
  // row); the tens of thousands of nodes a long session's beam cuts come as one list of nids.
  const col = (n: string) => table.getChild(n)!;
  const parts = col('part').toArray() as Int32Array;
  const nids = col('nid').toArray() as Int32Array;
  const hopCol = col('hop');
  const beyondCol = col('beyond');
  const srcs = col('src').toArray() as Int32Array;
  const dsts = col('dst').toArray() as Int32Array;
  const edgeKinds = col('edge_kind');
  const srcStatus = col('src_status');
  const nodeNames = CANDIDATE_COLUMNS;
  const nodeColumns = nodeNames.map((n) => table.getChild(n));
  const candidates = new Map<number, Candidate>();
  const beyondBound: CandidateGraph['beyondBound'] = [];
  const inner: CandidateEdge[] = [];
  const openDependants = new Map<number, number[]>();
  const closed: CandidateGraph['closed'] = [];
  let graphTruncated = false;
  let cut = false;
  for (let i = 0; i < table.numRows; i++) {
    const part = parts[i]!;
    if (part === NODE) {
      const nid = nids[i]!;
      const walked = hopCol.isValid(i);
      const beyond = beyondCol.get(i) === true;
      if (walked && beyond) graphTruncated = true;
      const row: Record<string, unknown> = {};
      for (let c = 0; c < nodeNames.length; c++) row[nodeNames[c]!] = nodeColumns[c]?.get(i) ?? null;
      candidates.set(
        nid,
        toCandidate(row as unknown as NodeRowWithBody, !walked || beyond ? Number.POSITIVE_INFINITY : hopCol.get(i)),
      );
    } else if (part === EDGE) {
      const src = srcs[i]!;
      const dst = dsts[i]!;
      if (candidates.has(src)) inner.push({ src, dst, kind: edgeKinds.get(i) as EdgeKind });
      if (srcStatus.get(i) === 'open') {
        const list = openDependants.get(dst);
        if (list) list.push(src);
        else openDependants.set(dst, [src]);
      }
    } else if (part === CLOSED) {
      const by = col('by_nid').get(i) as number | null;
      closed.push({
        id: idOf(nids[i]!) ?? String(nids[i]),
        reason: col('reason').get(i) as string,
        closedAt: col('closed_at').get(i) as number,
        by: by === null ? null : (idOf(by) ?? null),
      });
    } else if (part === CUT) {
      cut = col('cut').get(i) === true;
      // Nodes a level's beam cut and the completion did not add, named only. Ids come from the
      // ledger's in-memory index: no query for them. (Their order is free: explain sorts by id.)
      const namedOnly = (col('named_only').get(i) as { toArray(): Int32Array } | null)?.toArray() ?? [];
      for (const nid of namedOnly) beyondBound.push({ nid, id: idOf(nid) ?? String(nid) });
      if (namedOnly.length > 0) graphTruncated = true;
    }
  }
  closed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    candidates,
    edges: inner,
    openDependants,
    explicitRoots,
    beyondBound,
    closed,
    graphTruncated: graphTruncated || cut,
  };
}

/** The node columns a candidate is built from. */
const CANDIDATE_COLUMNS = [
  'nid',
  'id',
  'kind',
  'status',
  'authority',
  'path',
  'revision',
  'range_start',
  'range_end',
  'verifier',
  'tool',
  'role',
  'meta',
  'tx',
  'valid_from',
  'body_hash',
  'body',
  'tokens',
] as const;

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
    range: rowRange(r),
    verifier: r.verifier,
    tool: r.tool,
    role: r.role,
    meta: rowMeta(r),
    tx: r.tx,
    validFrom: r.valid_from,
    bodyHash: r.body_hash,
    body: r.body,
    tokens: r.tokens ?? 0,
    hop,
  };
}
