import { validAt } from './as-of.js';
import { intArray, intList, intLiteral, stringList } from './literals.js';

/**
 * The working-set closure: nodes reachable from the roots along edges valid at the epoch,
 * through nodes valid at the epoch and inside the authority scopes, breadth first, each node at
 * its smallest hop. Unauthorised nodes are filtered *before* the walk, so a walk never passes
 * through them. Joins are on integer surrogate keys (VARCHAR keys measured ~5× slower).
 */
export interface ClosureQuery {
  epoch: number;
  /** Root nids. */
  roots: readonly number[];
  /** Authority scopes the reader may see; null = all. */
  authority: readonly string[] | null;
  hops: number;
}

/** `visible`: node versions valid at the epoch within the authority scopes. */
export function visibleNodesSql(epoch: number, authority: readonly string[] | null): string {
  return `SELECT n.* FROM nodes n WHERE ${visibleNode('n', epoch, authority)}`;
}

/** The predicate of a visible node version under alias `a`. */
export function visibleNode(a: string, epoch: number, authority: readonly string[] | null): string {
  return `${validAt(a, epoch)}${authority === null ? '' : ` AND ${a}.authority IN ${stringList(authority)}`}`;
}

/**
 * The recursive walk; one row per reached nid with its smallest hop. Each level joins the
 * frontier to the edges and nodes directly (a precomputed edge view cost ~10× more: it
 * materialised every valid edge). The node bound is a beam: each level keeps its `maxNodes`
 * newest nodes (highest tx, then nid) to walk on, and records the rest as `beyond` — reached but
 * not walked. (A global bound ranked by hop cut every long session at the task's first hop —
 * every action hangs off the task — so the evidence of even the latest steps, four hops out,
 * was never reached.)
 */
export function walkSql(q: ClosureQuery & { maxNodes: number }): string {
  return `WITH RECURSIVE walk(nid, hop, beyond) USING KEY (nid) AS (
  SELECT n.nid, 0, false FROM nodes n WHERE n.nid IN ${intList(q.roots)} AND ${visibleNode('n', q.epoch, q.authority)}
  UNION
  SELECT x.nid, x.hop, x.rn > ${intLiteral(q.maxNodes)} FROM (
    SELECT d.nid, w.hop + 1 AS hop, row_number() OVER (ORDER BY d.tx DESC, d.nid DESC) AS rn FROM walk w
    JOIN edges e ON e.src = w.nid AND ${validAt('e', q.epoch)}
    JOIN nodes d ON d.nid = e.dst AND ${visibleNode('d', q.epoch, q.authority)}
    WHERE w.hop < ${intLiteral(q.hops)} AND NOT w.beyond
      AND NOT EXISTS (SELECT 1 FROM recurring.walk r WHERE r.nid = e.dst)
    QUALIFY row_number() OVER (PARTITION BY d.nid ORDER BY w.hop) = 1
  ) x
)`;
}

/** Closure rows: nearer first, then more recent (higher tx), then nid; `beyond` marks the nodes a
 * level's beam cut (reached, not walked). */
export function closureSql(q: ClosureQuery & { maxNodes: number }): string {
  return `${walkSql(q)}
SELECT w.nid::INTEGER AS nid, w.hop::INTEGER AS hop, v.tx::INTEGER AS tx, w.beyond AS beyond
FROM walk w JOIN nodes v ON v.nid = w.nid AND ${validAt('v', q.epoch)}
ORDER BY w.hop, v.tx DESC, w.nid DESC`;
}

/**
 * Whether the walk left edges unfollowed: a visible edge from a node of the last level reached to
 * a node the walk does not hold (the hop bound, or the node bound stopping the walk, cut there).
 * Only asked when the walk itself fit the node bound.
 */
export function cutAtFrontierSql(q: ClosureQuery, lastLevel: readonly number[], walked: readonly number[]): string {
  return `SELECT EXISTS (
  SELECT 1 FROM edges e JOIN nodes d ON d.nid = e.dst AND ${visibleNode('d', q.epoch, q.authority)}
  WHERE e.src IN (SELECT unnest(${intArray(lastLevel)})) AND ${validAt('e', q.epoch)}
    AND e.dst NOT IN (SELECT unnest(${intArray(walked)}))
)::BOOLEAN AS cut`;
}

/**
 * Full candidate rows (with bodies) for a set of nids, valid at the epoch. The nids are a
 * semi-join on an unnested list (an IN list of literals measured ~3× slower), and the selective
 * node filter runs before the join to bodies.
 */
export function candidateNodesSql(epoch: number, nids: readonly number[]): string {
  return `WITH c AS (SELECT * FROM nodes n WHERE ${validAt('n', epoch)} AND n.nid IN (SELECT unnest(${intArray(nids)})))
SELECT c.nid, c.vkey, c.id, c.kind, c.status, c.authority, c.path, c.revision, c.range_start, c.range_end,
  c.verifier, c.tool, c.role, c.meta, c.tx, c.valid_from, b.hash AS body_hash, b.text AS body, b.tokens AS tokens
FROM c LEFT JOIN bodies b ON b.bkey = c.bkey
ORDER BY c.nid`;
}

/** Valid edges touching the given nids whose both endpoints are visible (edges filtered first). */
export function candidateEdgesSql(epoch: number, authority: readonly string[] | null, nids: readonly number[]): string {
  const set = `(SELECT unnest(${intArray(nids)}))`;
  return `WITH f AS (SELECT e.ekey, e.src, e.dst, e.kind FROM edges e WHERE ${validAt('e', epoch)} AND (e.src IN ${set} OR e.dst IN ${set}))
SELECT f.src, f.dst, f.kind, s.status AS src_status, s.kind AS src_kind
FROM f JOIN nodes s ON s.nid = f.src AND ${visibleNode('s', epoch, authority)}
JOIN nodes d ON d.nid = f.dst AND ${visibleNode('d', epoch, authority)}
ORDER BY f.ekey`;
}

/**
 * Nodes the walk reached through a valid edge but that have no valid version at the epoch:
 * superseded or archived. Only nodes within the authority scopes are reported.
 */
export function closedNeighboursSql(
  epoch: number,
  authority: readonly string[] | null,
  nids: readonly number[],
): string {
  const scope = authority === null ? '' : ` AND d.authority IN ${stringList(authority)}`;
  return `SELECT DISTINCT d.nid, d.id, c.reason, c.epoch AS closed_at, b.id AS by_id
FROM edges e
JOIN nodes d ON d.nid = e.dst AND d.valid_from <= ${intLiteral(epoch)} AND d.valid_to IS NOT NULL AND d.valid_to <= ${intLiteral(epoch)}${scope}
JOIN closures c ON c.target = 'node' AND c.key = d.vkey
LEFT JOIN (SELECT DISTINCT nid, id FROM nodes) b ON b.nid = c.by_nid
WHERE ${validAt('e', epoch)} AND e.src IN ${intList(nids)}
  AND NOT EXISTS (SELECT 1 FROM nodes v WHERE v.nid = d.nid AND ${validAt('v', epoch)})
  AND d.vkey = (SELECT max(x.vkey) FROM nodes x WHERE x.nid = d.nid AND x.valid_from <= ${intLiteral(epoch)})
ORDER BY d.id`;
}
