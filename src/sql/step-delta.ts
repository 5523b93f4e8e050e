import { assertEpoch, validAt } from './as-of.js';
import { intList } from './literals.js';

/**
 * What the transactions of one session step wrote, between two epochs (`from` excluded, `to`
 * included), as keys only, in one statement whose rows are tagged by `part` (see loadStepDelta):
 * - 0 `version`: node versions recorded in the step and valid at `to` (vkey, nid, body key), in
 *   recording order;
 * - 1 `closure`: the step's closures, in recording order, with the closed version's nid and the
 *   epoch it was recorded at;
 * - 2 `edge`: edges recorded in the step and valid at `to`, in recording order.
 * No recursion, and no text column is read: a step's rows are found by their epochs, and their
 * columns come from the ledger's index (reading a table's strings costs the scan of every row).
 */
export function stepDeltaSql(from: number, to: number): string {
  assertEpoch(from);
  assertEpoch(to);
  const inStep = (a: string, col: string) => `${a}.${col} > ${from} AND ${a}.${col} <= ${to}`;
  return `SELECT 0 AS part, v.vkey::INTEGER AS vkey, v.nid::INTEGER AS nid, v.bkey::INTEGER AS bkey
FROM nodes v WHERE ${inStep('v', 'valid_from')} AND (v.valid_to IS NULL OR v.valid_to > ${to})
UNION ALL BY NAME
SELECT 1 AS part, k.ckey::INTEGER AS ckey, k.target, k.reason, k.epoch::INTEGER AS closed_at, k.by_nid::INTEGER AS by_nid,
  d.nid::INTEGER AS nid, d.valid_from::INTEGER AS closed_from
FROM closures k LEFT JOIN nodes d ON k.target = 'node' AND d.vkey = k.key
WHERE ${inStep('k', 'epoch')}
UNION ALL BY NAME
SELECT 2 AS part, e.ekey::INTEGER AS ekey, e.src::INTEGER AS src, e.dst::INTEGER AS dst, e.kind AS edge_kind
FROM edges e WHERE ${inStep('e', 'valid_from')} AND (e.valid_to IS NULL OR e.valid_to > ${to})
ORDER BY part, vkey, ckey, ekey`;
}

/** Whole node versions by version key (those the index no longer holds: a later version replaced them). */
export function nodeVersionsSql(vkeys: readonly number[]): string {
  return `SELECT * FROM nodes WHERE vkey IN ${intList(vkeys)} ORDER BY vkey`;
}

/** The version of each node valid at the epoch, by nid. */
export function versionsAtSql(nids: readonly number[], epoch: number): string {
  return `SELECT * FROM nodes n WHERE n.nid IN ${intList(nids)} AND ${validAt('n', epoch)} ORDER BY n.vkey`;
}

/** Bodies by key, with their hash. */
export function bodiesByKeySql(bkeys: readonly number[]): string {
  return `SELECT bkey, hash, text, tokens FROM bodies WHERE bkey IN ${intList(bkeys)} ORDER BY bkey`;
}
