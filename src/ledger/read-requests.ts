import { integerField, requireObject, scopeSetField } from '../schema/request-checks.js';
import type { GraphView } from '../schema/types.js';

/** What `ledger.asOf` reads: the graph valid at `epoch`, within the `authority` scopes. */
export interface AsOfRequest {
  /** The epoch to read at; default the last committed epoch. */
  epoch?: number;
  /** Authority scopes to keep (exact names, as `materialize` and `retrieve` take them); default all. */
  authority?: readonly string[];
}

/** What `ledger.rerunCandidates` reads: failed verifiers valid at `epoch`, within the scopes. */
export interface RerunRequest {
  /** The epoch to read at; default the last committed epoch. */
  epoch?: number;
  /** Authority scopes the verifiers and the revisions must be in; default all. */
  authority?: readonly string[];
}

/** What `ledger.archive` closes: the transaction `tx`, from `epoch`. */
export interface ArchiveRequest {
  /** The transaction number (a receipt's `tx`) to archive. */
  tx: number;
  /** The epoch its nodes close at; default the last committed epoch. */
  epoch?: number;
}

/** A read request checked and resolved: the epoch filled in, scopes de-duplicated and sorted. */
export interface ResolvedRead {
  epoch: number;
  authority: string[] | null;
}

/** Checks a read request (INVALID_REQUEST naming the field) and fills in the last epoch. */
export function resolveRead(request: AsOfRequest | RerunRequest, lastEpoch: number): ResolvedRead {
  requireObject(request, 'request');
  return {
    epoch: integerField(request.epoch, 'epoch', lastEpoch),
    authority: scopeSetField(request.authority, 'authority'),
  };
}

/**
 * The view within the scopes: nodes whose authority is one of them, and the edges whose both
 * ends are among those nodes (an edge never reveals a record outside the scopes).
 */
export function viewWithin(view: GraphView, authority: readonly string[] | null): GraphView {
  if (authority === null) return view;
  const scopes = new Set(authority);
  const nodes = view.nodes.filter((n) => scopes.has(n.authority));
  const ids = new Set(nodes.map((n) => n.id));
  return { nodes, edges: view.edges.filter((e) => ids.has(e.from) && ids.has(e.to)) };
}
