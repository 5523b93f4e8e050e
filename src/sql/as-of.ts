import { LedgerError } from '../errors.js';

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
  return `SELECT n.*, b.text AS body, b.tokens AS tokens, b.hash AS body_hash
FROM nodes n LEFT JOIN bodies b ON b.bkey = n.bkey
WHERE ${validAt('n', epoch)}
ORDER BY n.vkey`;
}

/** Edges valid at the epoch whose both endpoints have a version valid at the epoch. */
export function edgesAsOfSql(epoch: number): string {
  return `SELECT e.ekey, e.kind, e.tx, e.valid_from, e.valid_to, s.id AS from_id, d.id AS to_id
FROM edges e
JOIN nodes s ON s.nid = e.src AND ${validAt('s', epoch)}
JOIN nodes d ON d.nid = e.dst AND ${validAt('d', epoch)}
WHERE ${validAt('e', epoch)}
ORDER BY e.ekey`;
}

export function assertEpoch(epoch: number): void {
  if (!Number.isSafeInteger(epoch) || epoch < 0)
    throw new LedgerError('INVALID_REQUEST', { field: 'epoch', value: epoch });
}
