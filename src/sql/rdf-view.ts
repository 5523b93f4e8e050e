import { assertEpoch, validAt } from './as-of.js';

/**
 * The SQL behind the RDF view (epochs are validated integers, inlined; nothing else is
 * interpolated).
 *
 * Superseded views: node ids that had a version by the epoch but have none valid at it, with the
 * closure that ended their last version. A status change also closes a version, but the node
 * goes on in a newer one, so it never counts here.
 */
export function supersededAsOfSql(epoch: number): string {
  assertEpoch(epoch);
  return `SELECT n.*, b.text AS body, b.tokens AS tokens, b.hash AS body_hash,
  c.tx AS closed_tx, c.epoch AS closed_epoch, c.reason AS closed_reason, by_node.id AS closed_by
FROM nodes n
JOIN closures c ON c.target = 'node' AND c.key = n.vkey
LEFT JOIN bodies b ON b.bkey = n.bkey
LEFT JOIN (SELECT DISTINCT nid, id FROM nodes) by_node ON by_node.nid = c.by_nid
WHERE n.valid_from <= ${epoch} AND n.valid_to <= ${epoch} AND c.reason <> 'status-change'
  AND NOT EXISTS (SELECT 1 FROM nodes v WHERE v.nid = n.nid AND ${validAt('v', epoch)})
  AND NOT EXISTS (SELECT 1 FROM nodes w WHERE w.nid = n.nid AND w.vkey > n.vkey AND w.valid_from <= ${epoch})
ORDER BY n.vkey`;
}

/**
 * Edges valid at the epoch between nodes that existed by then, valid or superseded: a claim's
 * `supported_by` edge to evidence that went stale is kept, so a query can ask which support is
 * still valid. (Edges are never closed when an endpoint is; the as-of graph view drops them.)
 */
export function viewEdgesSql(epoch: number): string {
  assertEpoch(epoch);
  return `SELECT e.kind, e.tx, e.valid_from, s.id AS from_id, d.id AS to_id
FROM edges e
JOIN (SELECT DISTINCT nid, id FROM nodes WHERE valid_from <= ${epoch}) s ON s.nid = e.src
JOIN (SELECT DISTINCT nid, id FROM nodes WHERE valid_from <= ${epoch}) d ON d.nid = e.dst
WHERE ${validAt('e', epoch)}
ORDER BY e.ekey`;
}
