import { intList, intLiteral } from './literals.js';

/**
 * The nodes a transaction wrote, in write order, each with the first transaction that wrote its
 * nid: archiving refuses a transaction that changed an earlier node.
 */
export function archiveWrittenSql(tx: number): string {
  return `SELECT n.nid, n.id, n.kind, (SELECT min(x.tx) FROM nodes x WHERE x.nid = n.nid)::INTEGER AS first_tx
FROM nodes n WHERE n.tx = ${intLiteral(tx)} ORDER BY n.vkey`;
}

/**
 * Valid nodes outside `nids` with a valid edge into them: what archiving `nids` would leave
 * dangling. A task's, steering's or action's `plans` edge is the parent link, not a dependency.
 */
export function archiveDependantsSql(nids: readonly number[]): string {
  const list = intList(nids);
  return `SELECT DISTINCT s.id, s.kind, e.kind AS edge, d.id AS target FROM edges e
JOIN nodes s ON s.nid = e.src AND s.valid_to IS NULL
JOIN nodes d ON d.nid = e.dst AND d.valid_to IS NULL
WHERE e.valid_to IS NULL AND e.dst IN ${list} AND e.src NOT IN ${list}
  AND NOT (e.kind = 'plans' AND s.kind IN ('task', 'steering', 'action'))
ORDER BY s.id, edge, target`;
}
