import { LedgerError } from '../errors.js';
import { LIMITS } from '../schema/limits.js';
import { limitExceeded } from '../schema/request-checks.js';

/**
 * Validity predicates. "As of epoch e" means valid_from <= e AND (valid_to IS NULL OR
 * valid_to > e). Epochs are validated safe integers before they reach these builders, so they
 * are inlined as literals; no user string is ever interpolated into SQL.
 */
export function validAt(alias: string, epoch: number): string {
  assertEpoch(epoch);
  return `(${alias}.valid_from <= ${epoch} AND (${alias}.valid_to IS NULL OR ${alias}.valid_to > ${epoch}))`;
}

/** Node versions valid at the epoch, with their bodies, in recording order. */
export function nodesAsOfSql(epoch: number): string {
  assertEpoch(epoch);
  return nodesAsOf(String(epoch));
}

/** Edges valid at the epoch whose both endpoints have a version valid at the epoch. @internal Exported for its unit tests. */
export function edgesAsOfSql(epoch: number): string {
  assertEpoch(epoch);
  return edgesAsOf(String(epoch));
}

/** The same two statements over a `$epoch` parameter (see queryPrepared). */
export const NODES_AS_OF_STATEMENT = nodesAsOf('$epoch::INTEGER');
export const EDGES_AS_OF_STATEMENT = edgesAsOf('$epoch::INTEGER');

/**
 * The two statements at or after the ledger's last epoch, where "valid at the epoch" is exactly
 * `valid_to IS NULL` (every valid_from and valid_to is an epoch already committed; see
 * ClosureShape). Without an epoch in it the text is the same at every step, so an agent that
 * reads the current graph after each commit runs one plan kept since the first time.
 */
export const NODES_CURRENT_STATEMENT = nodesAsOf(null);
export const EDGES_CURRENT_STATEMENT = edgesAsOf(null);

function nodesAsOf(epoch: string | null): string {
  return `SELECT n.*, b.text AS body, b.tokens AS tokens, b.hash AS body_hash
FROM nodes n LEFT JOIN bodies b ON b.bkey = n.bkey
WHERE ${validAtExpr('n', epoch)}
ORDER BY n.vkey`;
}

function edgesAsOf(epoch: string | null): string {
  return `SELECT e.ekey, e.kind, e.tx, e.valid_from, e.valid_to, s.id AS from_id, d.id AS to_id
FROM edges e
JOIN nodes s ON s.nid = e.src AND ${validAtExpr('s', epoch)}
JOIN nodes d ON d.nid = e.dst AND ${validAtExpr('d', epoch)}
WHERE ${validAtExpr('e', epoch)}
ORDER BY e.ekey`;
}

function validAtExpr(alias: string, epoch: string | null): string {
  if (epoch === null) return `${alias}.valid_to IS NULL`;
  return `(${alias}.valid_from <= ${epoch} AND (${alias}.valid_to IS NULL OR ${alias}.valid_to > ${epoch}))`;
}

export function assertEpoch(epoch: number): void {
  if (!Number.isSafeInteger(epoch) || epoch < 0)
    throw new LedgerError('INVALID_REQUEST', { field: 'epoch', value: epoch });
  if (epoch > LIMITS.maxEpoch) throw limitExceeded('epoch', 'maxEpoch');
}
