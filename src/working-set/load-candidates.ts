import { type ColumnReader, columnReader } from '../engine/arrow-columns.js';
import type { Engine } from '../engine/engine.js';
import { LedgerError } from '../errors.js';
import type { EdgeKind, NodeKind, Status } from '../schema/kinds.js';
import { type NodeRow, rowMeta, rowRange } from '../schema/rows.js';
import { closureParams, closureShape, workingSetSql } from '../sql/closure.js';
import { queryPrepared } from '../sql/prepared.js';
import { compareStrings } from '../text/compare.js';
import type { ResolvedRequest } from './request.js';
import type { Candidate, CandidateEdge } from './types.js';

export interface CandidateGraph {
  candidates: Map<number, Candidate>;
  edges: CandidateEdge[];
  /** For each candidate nid, the open nodes (any, visible) with an edge into it. */
  openDependants: Map<number, number[]>;
  explicitRoots: Set<number>;
  /** Ids of the nodes reached by the walk but cut by a level's node bound (not walked on), sorted
   * (code-unit order). Ids only: a long session's walk cuts tens of thousands. Named and sorted
   * on first read (only the explanation reads it; see namedOnce). */
  readonly beyondBound: string[];
  /** Reached through a valid edge but no longer valid (superseded or archived). */
  closed: Array<{ id: string; reason: string; closedAt: number; by: string | null }>;
  graphTruncated: boolean;
}

/** Row tags of workingSetSql. */
const NODE = 0;
const EDGE = 1;
const CLOSED = 2;
const CUT = 3;

/** What loadCandidates reads from the ledger's in-memory index. */
export interface CandidateLookups {
  nidOf(id: string): number | undefined;
  idOf(nid: number): string | undefined;
  /** The latest version of a node: at the last epoch, the valid one (see candidatePartSql). */
  rowOf(nid: number): NodeRow | undefined;
}

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
  { nidOf, idOf, rowOf }: CandidateLookups,
  lastEpoch: number,
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
  // Batch by batch: a column of the whole table is chunked, and each `get` on it searched for its
  // chunk (a third of reading the rows at 86k nodes).
  const candidates = new Map<number, Candidate>();
  let beyondNids: Int32Array = new Int32Array(0);
  const inner: CandidateEdge[] = [];
  const openDependants = new Map<number, number[]>();
  const closed: CandidateGraph['closed'] = [];
  let graphTruncated = false;
  let cut = false;
  for (const batch of table.batches) {
    const col = (n: string) => batch.getChild(n)!;
    const parts = col('part').toArray() as Int32Array;
    const nids = col('nid').toArray() as Int32Array;
    const hopCol = col('hop');
    const beyondCol = col('beyond');
    const srcs = col('src').toArray() as Int32Array;
    const dsts = col('dst').toArray() as Int32Array;
    const edgeKinds = col('edge_kind');
    const srcStatus = col('src_status');
    // At the last epoch the rows carry keys and bodies only; the node's columns are its row in
    // the index (see candidatePartSql).
    const node = shape.current ? undefined : nodeColumnsOf(col);
    const body = bodyColumnsOf(col);
    const vkeys = shape.current ? (col('vkey').toArray() as Int32Array) : undefined;
    for (let i = 0; i < batch.numRows; i++) {
      const part = parts[i]!;
      if (part === NODE) {
        const nid = nids[i]!;
        const walked = hopCol.isValid(i);
        const beyond = beyondCol.get(i) === true;
        if (walked && beyond) graphTruncated = true;
        const hop = !walked || beyond ? Number.POSITIVE_INFINITY : hopCol.get(i);
        candidates.set(
          nid,
          node ? toCandidate(node, body, i, hop) : fromIndex(nid, rowOf(nid), vkeys![i]!, body, i, hop),
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
        // ledger's in-memory index: no query for them, and not until the explanation asks.
        // (A copy: the list's values live in the result's buffers.)
        const namedOnly = col('named_only').get(i) as { toArray(): Int32Array } | null;
        if (namedOnly) beyondNids = Int32Array.from(namedOnly.toArray());
        if (beyondNids.length > 0) graphTruncated = true;
      }
    }
  }
  closed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const namedBeyond = namedOnce(beyondNids, idOf);
  return {
    candidates,
    edges: inner,
    openDependants,
    explicitRoots,
    get beyondBound() {
      return namedBeyond();
    },
    closed,
    graphTruncated: graphTruncated || cut,
  };
}

/**
 * The ids of `nids`, sorted (code-unit order), made on the first call and kept. A long session's
 * beam cuts tens of thousands of nodes, and naming and sorting them was about half of the
 * JavaScript of a materialize call at 86k nodes; only the explanation lists them, and it is built
 * when it is first read (see WorkingSet).
 */
function namedOnce(nids: Int32Array, idOf: (nid: number) => string | undefined): () => string[] {
  let ids: string[] | undefined;
  return () => {
    if (ids === undefined) {
      ids = Array.from(nids, (nid) => idOf(nid) ?? String(nid));
      ids.sort(compareStrings);
    }
    return ids;
  };
}

/** The node columns a candidate is built from, of one batch. */
function nodeColumnsOf(vector: (name: string) => ColumnReader) {
  const col = (name: string) => columnReader(vector(name));
  return {
    id: col('id'),
    kind: col('kind'),
    status: col('status'),
    authority: col('authority'),
    path: col('path'),
    revision: col('revision'),
    rangeStart: col('range_start'),
    rangeEnd: col('range_end'),
    verifier: col('verifier'),
    tool: col('tool'),
    role: col('role'),
    meta: col('meta'),
    tx: col('tx'),
    validFrom: col('valid_from'),
    nid: col('nid'),
  };
}

/** The body columns of one batch's candidate rows. */
function bodyColumnsOf(vector: (name: string) => ColumnReader) {
  const col = (name: string) => columnReader(vector(name));
  return { bodyHash: col('body_hash'), body: col('body'), tokens: col('tokens') };
}

/** Row `i` of a batch's node columns as a candidate (read straight from the columns: an object
 * of the row's values first, keyed by column name, cost as much again). */
function toCandidate(
  c: ReturnType<typeof nodeColumnsOf>,
  b: ReturnType<typeof bodyColumnsOf>,
  i: number,
  hop: number,
): Candidate {
  const r = {
    range_start: (c.rangeStart.get(i) ?? null) as number | null,
    range_end: (c.rangeEnd.get(i) ?? null) as number | null,
    meta: (c.meta.get(i) ?? null) as string | null,
  };
  return {
    nid: c.nid.get(i) as number,
    id: c.id.get(i) as string,
    kind: c.kind.get(i) as NodeKind,
    status: (c.status.get(i) ?? null) as Status | null,
    authority: c.authority.get(i) as string,
    path: (c.path.get(i) ?? null) as string | null,
    revision: (c.revision.get(i) ?? null) as string | null,
    range: rowRange(r),
    verifier: (c.verifier.get(i) ?? null) as string | null,
    tool: (c.tool.get(i) ?? null) as string | null,
    role: (c.role.get(i) ?? null) as string | null,
    meta: rowMeta(r),
    tx: c.tx.get(i) as number,
    validFrom: c.validFrom.get(i) as number,
    bodyHash: (b.bodyHash.get(i) ?? null) as string | null,
    body: (b.body.get(i) ?? null) as string | null,
    tokens: (b.tokens.get(i) ?? 0) as number,
    hop,
  };
}

/** A candidate from its node's row in the index and row `i` of the batch's body columns; the
 * statement's `vkey` says which version is valid, and the index must hold that one. */
function fromIndex(
  nid: number,
  row: NodeRow | undefined,
  vkey: number,
  b: ReturnType<typeof bodyColumnsOf>,
  i: number,
  hop: number,
): Candidate {
  if (row === undefined || row.vkey !== vkey)
    throw new LedgerError('INTERNAL', {
      field: '',
      reason: `the ledger's index does not hold the valid version (${vkey}) of node ${nid}`,
    });
  return candidateOf(
    row,
    {
      hash: (b.bodyHash.get(i) ?? null) as string | null,
      text: (b.body.get(i) ?? null) as string | null,
      tokens: (b.tokens.get(i) ?? 0) as number,
    },
    hop,
  );
}

/** A node version with its body (none: no body) as a candidate reached at `hop`. */
export function candidateOf(
  row: NodeRow,
  body: { hash: string | null; text: string | null; tokens: number } | undefined,
  hop: number,
): Candidate {
  return {
    nid: row.nid,
    id: row.id,
    kind: row.kind,
    status: row.status,
    authority: row.authority,
    path: row.path,
    revision: row.revision,
    range: rowRange(row),
    verifier: row.verifier,
    tool: row.tool,
    role: row.role,
    meta: rowMeta(row),
    tx: row.tx,
    validFrom: row.valid_from,
    bodyHash: body?.hash ?? null,
    body: body?.text ?? null,
    tokens: body?.tokens ?? 0,
    hop,
  };
}
