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
  /** Root nids, or 'default': the open tasks, steering, claims and request projections, and the
   * current action (the open actions, else the latest one), chosen inside the same statement. */
  roots: readonly number[] | 'default';
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
 * The default roots as a nid subquery. (Unresolved claims are roots too: a claim nobody linked to
 * the task is still what the agent must settle. Open request projections are roots so the
 * evidence they rendered stays protected; meta is stable JSON written by the ledger, and inside a
 * string value a quote is escaped, so the pattern only matches the real key.)
 */
function defaultRootsSql(epoch: number, authority: readonly string[] | null): string {
  const vis = (a: string) => visibleNode(a, epoch, authority);
  return `SELECT r.nid FROM nodes r WHERE ${vis('r')} AND r.status = 'open'
      AND (r.kind IN ('task', 'steering', 'claim', 'action') OR (r.kind = 'message' AND r.meta LIKE '%"projection":true%'))
    UNION ALL (SELECT r.nid FROM nodes r WHERE ${vis('r')} AND r.kind = 'action'
      AND NOT EXISTS (SELECT 1 FROM nodes o WHERE ${vis('o')} AND o.kind = 'action' AND o.status = 'open')
      ORDER BY r.tx DESC, r.nid DESC LIMIT 1)`;
}

/**
 * The recursive walk; one row per reached nid with its smallest hop. Each level joins the
 * frontier to the edges and nodes directly (a precomputed edge view cost ~10× more: it
 * materialised every valid edge). The node bound is a beam: each level keeps its `maxNodes`
 * newest nodes (highest tx, then nid) to walk on, and records the rest as `beyond` — reached but
 * not walked. (A global bound ranked by hop cut every long session at the task's first hop —
 * every action hangs off the task — so the evidence of even the latest steps, four hops out,
 * was never reached.)
 *
 * `unit` then completes every action transaction and tool call/result pair the walked nodes
 * touch (forward along invokes/produces/mutates, backward along invokes/produces), to a fixpoint:
 * those may exceed the node bound, because splitting them would break the pairing invariant.
 * Its edges are filtered once (`unit_edges`) rather than scanned again at every step.
 */
export function walkSql(q: ClosureQuery & { maxNodes: number }): string {
  const roots = q.roots === 'default' ? `(${defaultRootsSql(q.epoch, q.authority)})` : intList(q.roots);
  return `WITH RECURSIVE walk(nid, hop, beyond, tx) USING KEY (nid) AS (
  SELECT n.nid, 0, false, n.tx FROM nodes n WHERE n.nid IN ${roots} AND ${visibleNode('n', q.epoch, q.authority)}
  UNION
  SELECT x.nid, x.hop, x.rn > ${intLiteral(q.maxNodes)}, x.tx FROM (
    SELECT d.nid, w.hop + 1 AS hop, d.tx, row_number() OVER (ORDER BY d.tx DESC, d.nid DESC) AS rn FROM walk w
    JOIN edges e ON e.src = w.nid AND ${validAt('e', q.epoch)}
    JOIN nodes d ON d.nid = e.dst AND ${visibleNode('d', q.epoch, q.authority)}
    WHERE w.hop < ${intLiteral(q.hops)} AND NOT w.beyond
      AND NOT EXISTS (SELECT 1 FROM recurring.walk r WHERE r.nid = e.dst)
    QUALIFY row_number() OVER (PARTITION BY d.nid ORDER BY w.hop) = 1
  ) x
),
walked AS MATERIALIZED (SELECT * FROM walk),
unit_edges AS MATERIALIZED (
  SELECT e.src AS a, e.dst AS b FROM edges e WHERE e.kind IN ('invokes', 'produces', 'mutates') AND ${validAt('e', q.epoch)}
  UNION ALL
  SELECT e.dst AS a, e.src AS b FROM edges e WHERE e.kind IN ('invokes', 'produces') AND ${validAt('e', q.epoch)}
),
unit(nid) AS (
  SELECT nid FROM walked WHERE NOT beyond
  UNION
  SELECT u.b FROM unit g JOIN unit_edges u ON u.a = g.nid
  JOIN nodes m ON m.nid = u.b AND ${visibleNode('m', q.epoch, q.authority)}
),
units AS MATERIALIZED (SELECT nid FROM unit)`;
}

/**
 * One statement for the whole closure: a row per node the walk reached or the unit completion
 * added, nearer first, then more recent (higher tx), then nid (completion-only nodes, without a
 * hop, last). `beyond` marks the nodes a level's beam cut (reached, not walked); `candidate` the
 * walked and completed nodes, which alone carry their node columns' body. (Roots, walk, unit
 * completion and node rows were seven round trips; each cost a parse and a scan of its own.)
 */
export function closureSql(q: ClosureQuery & { maxNodes: number }): string {
  return `${walkSql(q)},
c AS (SELECT v.*, w.hop, w.beyond FROM nodes v JOIN units u ON u.nid = v.nid LEFT JOIN walked w ON w.nid = v.nid
  WHERE ${validAt('v', q.epoch)})
SELECT c.nid::INTEGER AS nid, c.hop::INTEGER AS hop, c.tx::INTEGER AS tx, coalesce(c.beyond, false) AS beyond, true AS candidate,
  c.vkey, c.id, c.kind, c.status, c.authority, c.path, c.revision, c.range_start, c.range_end, c.verifier, c.tool,
  c.role, c.meta, c.valid_from, b.hash AS body_hash, b.text AS body, b.tokens AS tokens
FROM c LEFT JOIN bodies b ON b.bkey = c.bkey
UNION ALL BY NAME
SELECT w.nid::INTEGER AS nid, w.hop::INTEGER AS hop, w.tx::INTEGER AS tx, true AS beyond, false AS candidate
FROM walked w WHERE w.beyond AND w.nid NOT IN (SELECT nid FROM units)
ORDER BY hop NULLS LAST, tx DESC, nid DESC`;
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
 * Everything around the candidates, in one statement (parts in this order): `edge` — valid edges
 * into a candidate from a visible node (what inner edges and open dependants need), in recording
 * order; `closed` — nodes a candidate reaches through a valid edge that have no valid version at
 * the epoch (superseded or archived; only within the authority scopes), by id; and, when
 * `frontier` is given, one `cut` row (see cutAtFrontierSql). Candidate sets are a semi-join on an
 * unnested list (an IN list of literals measured ~3× slower).
 */
export function neighbourhoodSql(
  q: ClosureQuery,
  candidates: readonly number[],
  frontier: { lastLevel: readonly number[]; walked: readonly number[] } | null,
): string {
  const { epoch, authority } = q;
  const scope = authority === null ? '' : ` AND d.authority IN ${stringList(authority)}`;
  const cut = frontier
    ? `
UNION ALL
SELECT 'cut', 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, (${cutAtFrontierSql(q, frontier.lastLevel, frontier.walked)})`
    : '';
  return `WITH c AS (SELECT unnest(${intArray(candidates)}) AS nid),
f AS (SELECT e.ekey, e.src, e.dst, e.kind FROM edges e WHERE ${validAt('e', epoch)} AND e.dst IN (SELECT nid FROM c)),
x AS (SELECT DISTINCT d.nid, d.id, k.reason, k.epoch AS closed_at, b.id AS by_id
  FROM edges e
  JOIN nodes d ON d.nid = e.dst AND d.valid_from <= ${intLiteral(epoch)} AND d.valid_to IS NOT NULL AND d.valid_to <= ${intLiteral(epoch)}${scope}
  JOIN closures k ON k.target = 'node' AND k.key = d.vkey
  LEFT JOIN (SELECT DISTINCT nid, id FROM nodes) b ON b.nid = k.by_nid
  WHERE ${validAt('e', epoch)} AND e.src IN (SELECT nid FROM c)
    AND NOT EXISTS (SELECT 1 FROM nodes v WHERE v.nid = d.nid AND ${validAt('v', epoch)})
    AND d.vkey = (SELECT max(y.vkey) FROM nodes y WHERE y.nid = d.nid AND y.valid_from <= ${intLiteral(epoch)}))
SELECT 'edge' AS part, row_number() OVER (ORDER BY f.ekey)::INTEGER AS ord, f.src::INTEGER AS src, f.dst::INTEGER AS dst,
  f.kind::VARCHAR AS kind, s.status::VARCHAR AS src_status, NULL::VARCHAR AS id, NULL::VARCHAR AS reason,
  NULL::INTEGER AS closed_at, NULL::VARCHAR AS by_id, NULL::BOOLEAN AS cut
FROM f JOIN nodes s ON s.nid = f.src AND ${visibleNode('s', epoch, authority)}
JOIN nodes d ON d.nid = f.dst AND ${visibleNode('d', epoch, authority)}
UNION ALL
SELECT 'closed', row_number() OVER (ORDER BY x.id)::INTEGER, NULL, NULL, NULL, NULL, x.id, x.reason, x.closed_at::INTEGER, x.by_id, NULL
FROM x${cut}
ORDER BY part DESC, ord`;
}
