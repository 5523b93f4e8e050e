import type { Engine } from '../engine/engine.js';
import { rowsOf } from '../engine/rows.js';
import type { EdgeKind } from '../schema/kinds.js';
import type { ClosureRow, EdgeRow, NodeRow, TransactionRow } from '../schema/rows.js';
import { bodiesByKeySql, nodeVersionsSql, stepDeltaSql, versionsAtSql } from '../sql/step-delta.js';
import type { BodyCache, BodyRecord } from '../text/body-cache.js';
import { candidateOf } from './load-candidates.js';
import type { Candidate } from './types.js';

/** A stored body with its content hash. */
export type HashedBody = BodyRecord & { hash: string };

/** What one session step's transactions changed (see extendCandidates), in recording order. */
export interface StepDelta {
  /** Node versions recorded in the step and valid at its epoch; `fresh` when the node itself is
   * the step's (else a status change of an older node). */
  versions: Array<{ candidate: Candidate; fresh: boolean }>;
  /** Nodes the step closed: no version valid at its epoch. */
  closed: Array<{ nid: number; authority: string; reason: string; closedAt: number; by: number | null }>;
  /** Edges recorded in the step and valid at its epoch, with the source's version valid then
   * (undefined when it has none). */
  edges: Array<{ src: number; dst: number; kind: EdgeKind; source: NodeRow | undefined }>;
  /** Edges the step closed (the ledger's rules close node versions only; counted to be sure). */
  edgesClosed: number;
}

/** What the delta reads besides the engine. */
export interface DeltaLookups {
  /** The latest version of a node (the ledger's index). */
  rowOf(nid: number): NodeRow | undefined;
  /** Bodies committed lately, by key: those of a step are read from here, not from the table. */
  bodies?: BodyCache<HashedBody>;
  /** The rows of the latest commits: a step they hold is read from here, not from the tables. */
  steps?: StepLog;
}

/** A step's rows by key, from the tables (stepDeltaSql) or the step log, in recording order. */
interface StepRows {
  /** Node versions recorded in the step and valid at its epoch (with the row when at hand). */
  versions: Array<{ vkey: number; nid: number; row?: NodeRow }>;
  /** The step's closures; for a node version, its nid and the epoch it was recorded at. */
  closures: Array<{
    target: string;
    reason: string;
    closedAt: number;
    by: number | null;
    nid: number;
    closedFrom: number;
  }>;
  edges: Array<{ src: number; dst: number; kind: string }>;
}

/** What the step log keeps of a commit (its plan's rows; closedNodes: the versions it closed). */
interface LoggedCommit {
  nodes: readonly NodeRow[];
  edges: readonly EdgeRow[];
  closures: readonly ClosureRow[];
  closedNodes: readonly NodeRow[];
  transaction: TransactionRow;
}

/**
 * The rows of the ledger's latest commits, while they are step-sized (at most STEP_ROWS nodes,
 * edges and closures each), so that the session fold's next step reads them from memory: one
 * engine statement costs DuckDB-WASM more than extending a ranking. A run of consecutive
 * transactions up to the ledger's last; a bulk commit or a gap (a restore) starts it afresh.
 * Fed by a commit hook (live commits, archives and log replay alike).
 */
export class StepLog {
  private commits: LoggedCommit[] = [];
  private lastTx = 0;
  /** The epoch of the transaction before the first one held (-1: none; Infinity: not known). */
  private epochBefore = -1;

  add(plan: LoggedCommit): void {
    const t = plan.transaction;
    if (t.tx !== this.lastTx + 1) {
      this.commits = [];
      this.epochBefore = Number.POSITIVE_INFINITY;
    }
    this.lastTx = t.tx;
    if (Math.max(plan.nodes.length, plan.edges.length, plan.closures.length) > STEP_ROWS) {
      this.commits = [];
      this.epochBefore = t.epoch;
      return;
    }
    this.commits.push(plan);
    if (this.commits.length > MAX_COMMITS) this.epochBefore = this.commits.shift()!.transaction.epoch;
  }

  /** The rows of the transactions after epoch `from` up to `to`, or null unless the log holds them all. */
  rows(from: number, to: number): StepRows | null {
    const first = this.commits.findIndex((c) => c.transaction.epoch > from);
    // Epochs never decrease: the step's transactions are a run, all held when the one before the
    // run is held (and so at or before `from`) or known to be.
    if (first < 0 || (first === 0 && !(this.epochBefore <= from))) return null;
    const closedRows = new Map<number, NodeRow>();
    for (const c of this.commits) for (const r of c.closedNodes) closedRows.set(r.vkey, r);
    const validAt = (r: { valid_to: number | null }) => r.valid_to === null || r.valid_to > to;
    const out: StepRows = { versions: [], closures: [], edges: [] };
    for (const c of this.commits.slice(first)) {
      if (c.transaction.epoch > to) break;
      for (const r of c.nodes) if (validAt(r)) out.versions.push({ vkey: r.vkey, nid: r.nid, row: r });
      for (const k of c.closures) {
        const closed = k.target === 'node' ? closedRows.get(k.key) : undefined;
        if (k.target === 'node' && closed === undefined) return null;
        out.closures.push({
          target: k.target,
          reason: k.reason,
          closedAt: k.epoch,
          by: k.by_nid,
          nid: closed?.nid ?? -1,
          closedFrom: closed?.valid_from ?? -1,
        });
      }
      for (const e of c.edges) if (validAt(e)) out.edges.push({ src: e.src, dst: e.dst, kind: e.kind });
    }
    out.versions.sort((a, b) => a.vkey - b.vkey);
    return out;
  }
}

/** Rows above which a commit (per table) or a session step (its transactions' nodes, edges and
 * transitions) is a bulk load, not a step: ranked afresh, and not kept in the step log. */
export const STEP_ROWS = 256;
/** Commits the step log holds: a session window's steps (see REPACK_WINDOW). */
const MAX_COMMITS = 64;

async function stepRowsFromTables(engine: Engine, from: number, to: number): Promise<StepRows> {
  const rows = rowsOf<{
    part: number;
    vkey: number | null;
    nid: number | null;
    bkey: number | null;
    target: string | null;
    reason: string | null;
    closed_at: number | null;
    by_nid: number | null;
    closed_from: number | null;
    src: number | null;
    dst: number | null;
    edge_kind: string | null;
  }>(await engine.query(stepDeltaSql(from, to)));
  const out: StepRows = { versions: [], closures: [], edges: [] };
  for (const r of rows) {
    if (r.part === 0) out.versions.push({ vkey: r.vkey!, nid: r.nid! });
    else if (r.part === 1)
      out.closures.push({
        target: r.target!,
        reason: r.reason!,
        closedAt: r.closed_at!,
        by: r.by_nid,
        nid: r.nid ?? -1,
        closedFrom: r.closed_from ?? -1,
      });
    else out.edges.push({ src: r.src!, dst: r.dst!, kind: r.edge_kind! });
  }
  return out;
}

/**
 * What the transactions committed after epoch `from`, up to `to`, changed: the step's rows from
 * the step log, else by one statement of keys (stepDeltaSql); the nodes' columns from the
 * ledger's index when it holds the version valid at `to` (at the last epoch it always does); the
 * bodies from the lately committed ones. Older versions and bodies not at hand take one more
 * statement each. Either source gives the same delta.
 */
export async function loadStepDelta(
  engine: Engine,
  from: number,
  to: number,
  lookups: DeltaLookups,
): Promise<StepDelta> {
  const step = lookups.steps?.rows(from, to) ?? (await stepRowsFromTables(engine, from, to));
  const validAt = (r: NodeRow | undefined) =>
    r !== undefined && r.valid_from <= to && (r.valid_to === null || r.valid_to > to) ? r : undefined;

  // Versions: from the log or the index when it holds that version, else read whole.
  const versions = new Map<number, NodeRow | undefined>();
  const older: number[] = [];
  for (const v of step.versions) {
    const row = v.row ?? lookups.rowOf(v.nid);
    versions.set(v.nid, row?.vkey === v.vkey ? row : undefined);
    if (row?.vkey !== v.vkey) older.push(v.vkey);
  }
  if (older.length > 0)
    for (const row of rowsOf<NodeRow>(await engine.query(nodeVersionsSql(older)))) versions.set(row.nid, row);

  // Closures: a node the step closed has no version in it; an older node's new version follows
  // the closure of its earlier one.
  const olderNodes = new Set<number>();
  const lastClosure = new Map<number, { reason: string; closedAt: number; by: number | null }>();
  let edgesClosed = 0;
  for (const k of step.closures) {
    if (k.target !== 'node') {
      edgesClosed++;
      continue;
    }
    if (k.closedFrom <= from) olderNodes.add(k.nid);
    lastClosure.set(k.nid, { reason: k.reason, closedAt: k.closedAt, by: k.by });
  }
  const closed: StepDelta['closed'] = [];
  for (const [nid, k] of lastClosure) {
    if (versions.has(nid)) continue;
    closed.push({ nid, authority: lookups.rowOf(nid)?.authority ?? '', ...k });
  }

  // Edges, with their source's version valid at `to`: the step's, the index's, or read.
  const sources = new Map<number, NodeRow | undefined>();
  const unknown: number[] = [];
  for (const e of step.edges) {
    const src = e.src;
    if (sources.has(src)) continue;
    if (versions.has(src)) sources.set(src, versions.get(src));
    else if (lastClosure.has(src)) sources.set(src, undefined);
    else {
      const row = lookups.rowOf(src);
      const valid = validAt(row);
      // The index holds the latest version only: one recorded after `to` hides the one valid then.
      if (valid === undefined && row !== undefined && row.valid_from > to) unknown.push(src);
      else sources.set(src, valid);
    }
  }
  if (unknown.length > 0) {
    for (const nid of unknown) sources.set(nid, undefined);
    for (const row of rowsOf<NodeRow>(await engine.query(versionsAtSql(unknown, to)))) sources.set(row.nid, row);
  }

  // Bodies: the lately committed ones, else read.
  const bodies = new Map<number, HashedBody>();
  const missing: number[] = [];
  for (const row of versions.values()) {
    if (row?.bkey == null || bodies.has(row.bkey)) continue;
    const b = lookups.bodies?.get(row.bkey);
    if (b === undefined) missing.push(row.bkey);
    else bodies.set(row.bkey, b);
  }
  if (missing.length > 0)
    for (const b of rowsOf<HashedBody>(await engine.query(bodiesByKeySql([...new Set(missing)])))) {
      bodies.set(b.bkey, b);
      lookups.bodies?.set(b);
    }

  return {
    versions: [...versions.values()]
      .filter((row): row is NodeRow => row !== undefined)
      .sort((a, b) => a.vkey - b.vkey)
      .map((row) => ({
        candidate: candidateOf(row, row.bkey === null ? undefined : bodies.get(row.bkey), Number.POSITIVE_INFINITY),
        fresh: !olderNodes.has(row.nid),
      })),
    closed,
    edges: step.edges.map((e) => ({ src: e.src, dst: e.dst, kind: e.kind as EdgeKind, source: sources.get(e.src) })),
    edgesClosed,
  };
}
