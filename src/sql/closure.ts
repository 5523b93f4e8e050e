import { assertEpoch, validAt } from './as-of.js';
import { intArray, intLiteral, stringList, stringLiteral } from './literals.js';
import { inlineParams } from './prepared.js';

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

/** A closure query with its per-level node bound. */
export type BoundedClosureQuery = ClosureQuery & { maxNodes: number };

/**
 * What a working-set statement's text depends on; everything else is a parameter, written in as
 * a literal when it runs (see queryPrepared): the default request at the last epoch is one text,
 * planned once per connection and executed many times.
 *
 * `current`: the epoch is at or after the ledger's last one. Every row's `valid_from` and every
 * `valid_to` is an epoch already committed (epochs never regress), so there "valid at the epoch"
 * is exactly `valid_to IS NULL`: one null test instead of two comparisons against a parameter, and
 * no `$epoch` at all. Older epochs take the general predicate.
 */
export interface ClosureShape {
  current: boolean;
  defaultRoots: boolean;
}

export function closureShape(q: Pick<ClosureQuery, 'epoch' | 'roots'>, lastEpoch: number): ClosureShape {
  return { current: q.epoch >= lastEpoch, defaultRoots: q.roots === 'default' };
}

/** The predicate of a visible node version under alias `a` (literal epoch and scopes). */
function visibleNode(a: string, epoch: number, authority: readonly string[] | null): string {
  return `${validAt(a, epoch)}${authority === null ? '' : ` AND ${a}.authority IN ${stringList(authority)}`}`;
}

/** The validity and visibility predicates of a shape, over the statement's parameters. */
function predicatesOf(shape: ClosureShape) {
  const valid = (a: string) =>
    shape.current
      ? `${a}.valid_to IS NULL`
      : `(${a}.valid_from <= $epoch::INTEGER AND (${a}.valid_to IS NULL OR ${a}.valid_to > $epoch::INTEGER))`;
  return {
    valid,
    /** Closed at the epoch: a version that had been valid and no longer is. */
    closed: (a: string) =>
      shape.current
        ? `${a}.valid_to IS NOT NULL`
        : `${a}.valid_from <= $epoch::INTEGER AND ${a}.valid_to IS NOT NULL AND ${a}.valid_to <= $epoch::INTEGER`,
    /** ` AND` recorded by the epoch (every row is, at the last one). */
    andRecorded: (a: string) => (shape.current ? '' : ` AND ${a}.valid_from <= $epoch::INTEGER`),
    inScope: (a: string) => `($authority::VARCHAR[] IS NULL OR list_contains($authority::VARCHAR[], ${a}.authority))`,
    visible: (a: string) =>
      `${valid(a)} AND ($authority::VARCHAR[] IS NULL OR list_contains($authority::VARCHAR[], ${a}.authority))`,
  };
}

/**
 * The default roots as a nid subquery. (Unresolved claims are roots too: a claim nobody linked to
 * the task is still what the agent must settle; so are open user messages, the questions it has
 * not answered yet. Open request projections are roots so the
 * evidence they rendered stays protected; meta is stable JSON written by the ledger, and inside a
 * string value a quote is escaped, so the pattern only matches the real key.)
 */
function defaultRootsSql(shape: ClosureShape): string {
  const { visible } = predicatesOf(shape);
  return `SELECT r.nid FROM nodes r WHERE ${visible('r')} AND r.status = 'open'
      AND (r.kind IN ('task', 'steering', 'claim', 'action')
        OR (r.kind = 'message' AND (r.role = 'user' OR r.meta LIKE '%"projection":true%')))
    UNION ALL (SELECT r.nid FROM nodes r WHERE ${visible('r')} AND r.kind = 'action'
      AND NOT EXISTS (SELECT 1 FROM nodes o WHERE ${visible('o')} AND o.kind = 'action' AND o.status = 'open')
      ORDER BY r.tx DESC, r.nid DESC LIMIT 1)`;
}

/**
 * The recursive walk; `walked` holds one row per reached nid with its smallest hop. Each level
 * joins the frontier to the edges and nodes directly (a precomputed edge view cost far more: it
 * materialised every valid edge). The node bound is a beam: each level keeps its `maxNodes`
 * newest nodes (highest tx, then nid) to walk on, and records the rest as `beyond` — reached but
 * not walked. (A global bound ranked by hop cut every long session at the task's first hop —
 * every action hangs off the task — so the evidence of even the latest steps, four hops out,
 * was never reached.) A level's nodes are made distinct before they are ranked: ranking the
 * joined rows let a node reached by two edges take two places of the beam, and which of its two
 * ranks counted was left to the engine.
 *
 * The recursion carries one row per level: the level's hop, its frontier (the nids it walks on),
 * every nid reached so far (`seen`, which the next level's nodes must not be in: each node at its
 * smallest hop) and the level's nodes as a list; `walked` unnests them. (As a row per node with
 * `USING KEY (nid)` and `NOT IN recurring`, the engine kept a keyed table of every node reached
 * and copied it out for every level — at 86k nodes the task's first hop reaches ~19k actions, so
 * each of the seven levels re-read ~20k rows.) A level that reaches nothing ends the recursion
 * (`c > 0`: an ungrouped aggregate always returns a row).
 *
 * `unit` then completes every action transaction and tool call/result pair the walked nodes
 * touch (forward along invokes/produces/mutates, backward along invokes/produces), to a fixpoint:
 * those may exceed the node bound, because splitting them would break the pairing invariant.
 * Its edges are filtered once (`unit_edges`: one scan of `edges`, each invokes/produces edge
 * unnested in both directions, and only those into a visible node) rather than scanned again at
 * every step.
 *
 * Build sides. DuckDB estimates a recursive CTE at a large multiple of its recursive term, so
 * every join against `walked`, `units` or the recursion's own
 * frontier put the *table* on the hash join's build side: each query hashed every node row with
 * its strings, every body text, the edges joined to the nodes, and the unit completion rebuilt
 * the whole unit edge list and node list at every step. Passing those relations through
 * `list()`/`unnest` (an ungrouped aggregate is estimated at one row) makes them the build side
 * and the tables the probe side.
 */
function walkSql(shape: ClosureShape): string {
  const { valid, visible } = predicatesOf(shape);
  const roots = shape.defaultRoots ? `(${defaultRootsSql(shape)})` : '(SELECT unnest($roots::INTEGER[]))';
  return `WITH RECURSIVE walk(hop, front, seen, reached) AS (
  SELECT 0, list(n.nid), list(n.nid), list({'nid': n.nid, 'beyond': false, 'tx': n.tx})
  FROM nodes n WHERE n.nid IN ${roots} AND ${visible('n')}
  UNION ALL
  SELECT l.hop + 1, x.front, l.seen || x.nids, x.reached FROM (
    SELECT count(*) AS c, list(r.nid) FILTER (WHERE r.rank <= $max_nodes::INTEGER) AS front, list(r.nid) AS nids,
      list({'nid': r.nid, 'beyond': r.rank > $max_nodes::INTEGER, 'tx': r.tx}) AS reached
    FROM (
      SELECT d.nid, d.tx, row_number() OVER (ORDER BY d.tx DESC, d.nid DESC) AS rank FROM (
        SELECT DISTINCT d.nid, d.tx FROM (SELECT unnest(w.front) AS nid FROM walk w WHERE w.hop < $hops::INTEGER) f
        JOIN edges e ON e.src = f.nid AND ${valid('e')}
        JOIN nodes d ON d.nid = e.dst AND ${visible('d')}
      ) d WHERE d.nid NOT IN (SELECT unnest(s.seen) FROM walk s)
    ) r
  ) x, (SELECT hop, seen FROM walk) l WHERE x.c > 0
),
walked AS MATERIALIZED (
  SELECT r.nid, l.hop, r.beyond, r.tx FROM (SELECT hop, unnest(reached) AS r FROM walk) l
),
unit_edges AS MATERIALIZED (
  SELECT u.a, u.b FROM (
    SELECT unnest(CASE WHEN e.kind = 'mutates' THEN [e.src] ELSE [e.src, e.dst] END) AS a,
      unnest(CASE WHEN e.kind = 'mutates' THEN [e.dst] ELSE [e.dst, e.src] END) AS b
    FROM edges e WHERE ${valid('e')} AND e.kind IN ('invokes', 'produces', 'mutates')
  ) u JOIN nodes m ON m.nid = u.b AND ${visible('m')}
),
unit(nid) AS (
  SELECT nid FROM walked WHERE NOT beyond
  UNION
  SELECT u.b FROM (SELECT unnest(list(nid)) AS nid FROM unit) g JOIN unit_edges u ON u.a = g.nid
),
units AS MATERIALIZED (SELECT unnest(l) AS nid FROM (SELECT list(nid) AS l FROM unit))`;
}

/**
 * The candidate rows: a row per node the walk reached or the unit completion added, with its
 * body and, at an older epoch, its node columns (see closureSql). At the last epoch a node's
 * valid version is its latest, which the ledger's index holds in memory (LedgerIndex.byNid): the
 * rows carry only the keys (`vkey`, checked against the index), `tx` and the body, and the
 * node's columns come from the index (see loadCandidates). Sending them meant reading every
 * valid node row's strings to keep a thousand.
 */
function candidatePartSql(shape: ClosureShape, tag = ''): string {
  const { valid } = predicatesOf(shape);
  const [read, columns] = shape.current
    ? ['v.nid, v.vkey, v.tx, v.bkey', '']
    : [
        'v.*',
        `c.id, c.kind, c.status, c.authority, c.path, c.revision, c.range_start, c.range_end, c.verifier, c.tool,
  c.role, c.meta, c.valid_from, `,
      ];
  return `c AS (SELECT ${read}, w.hop, w.beyond FROM nodes v JOIN units u ON u.nid = v.nid LEFT JOIN walked w ON w.nid = v.nid
  WHERE ${valid('v')})
SELECT ${tag}c.nid::INTEGER AS nid, c.hop::INTEGER AS hop, c.tx::INTEGER AS tx, coalesce(c.beyond, false) AS beyond, true AS candidate,
  c.vkey, ${columns}b.hash AS body_hash, b.text AS body, b.tokens AS tokens
FROM c LEFT JOIN bodies b ON b.bkey = c.bkey`;
}

/** The nodes a level's beam cut that the completion did not add: reached, only named. */
const NAMED_ONLY = 'FROM walked w WHERE w.beyond AND w.nid NOT IN (SELECT nid FROM units)';

/** The node part of the closure alone: the candidates, then a row per named-only node. */
function nodePartSql(shape: ClosureShape): string {
  return `${candidatePartSql(shape)}
UNION ALL BY NAME
SELECT w.nid::INTEGER AS nid, w.hop::INTEGER AS hop, w.tx::INTEGER AS tx, true AS beyond, false AS candidate
${NAMED_ONLY}`;
}

/**
 * The closure alone, as a statement over parameters: a row per node the walk reached or the unit
 * completion added, nearer first, then more recent (higher tx), then nid (completion-only nodes,
 * without a hop, last). `beyond` marks the nodes a level's beam cut (reached, not walked);
 * `candidate` the walked and completed nodes, which alone carry their node columns and body.
 */
export function closureStatementSql(shape: ClosureShape): string {
  return `${walkSql(shape)},
${nodePartSql(shape)}
ORDER BY hop NULLS LAST, tx DESC, nid DESC`;
}

/**
 * Everything materialize reads, in one statement (the closure, then around it), rows tagged by
 * `part` and ordered part by part:
 * - 0 `node`: the closure's candidates (walked or completed nodes, with their columns and body) as
 *   closureStatementSql orders them;
 * - 1 `edge`: valid edges into a candidate from a visible node (what inner edges and open
 *   dependants need), in recording order, with the source's status;
 * - 2 `closed`: nodes a candidate reaches through a valid edge that have no valid version at
 *   the epoch (superseded or archived; only within the authority scopes), with the closing
 *   fact; their ids and the closer's come from the ledger's index. A node's versions are
 *   recorded in order and only its newest can be valid, so "no valid version" is "its newest
 *   version recorded by the epoch is closed" (an anti-join, written as a LEFT JOIN that keeps
 *   the rows without a newer version: as NOT EXISTS it hashed every node version; the two
 *   subqueries before it were a third of the statement's time);
 * - 3 `cut`: one row, whether the walk left edges unfollowed — a visible edge from a node at the
 *   hop bound to a node the walk does not hold. Only meaningful when no level's beam cut
 *   (`beyond` rows already say the graph was truncated): then a walk that stopped short of the
 *   bound had no such edge left, so only the bound's level needs the check. The same row
 *   carries `named_only`, the nids a level's beam cut and the completion did not add, as one
 *   list: a long session's walk names tens of thousands of them (every action hangs off the
 *   task), and as rows they were sorted with the candidates, sent and read one by one for an id
 *   each.
 * (Closure, neighbourhood and frontier check were seven round trips, then two; each cost a parse,
 * a plan and scans of its own.)
 */
export function workingSetSql(shape: ClosureShape): string {
  const p = predicatesOf(shape);
  return `${walkSql(shape)},
${candidatePartSql(shape, '0 AS part, ')}
UNION ALL BY NAME
SELECT 1 AS part, e.ekey, e.src::INTEGER AS src, e.dst::INTEGER AS dst, e.kind AS edge_kind, s.status AS src_status
FROM edges e JOIN units u ON u.nid = e.dst
JOIN nodes s ON s.nid = e.src AND ${p.visible('s')}
WHERE ${p.valid('e')}
UNION ALL BY NAME
SELECT DISTINCT 2 AS part, d.nid::INTEGER AS nid, k.reason, k.epoch::INTEGER AS closed_at, k.by_nid::INTEGER AS by_nid
FROM edges e JOIN units u ON u.nid = e.src
JOIN nodes d ON d.nid = e.dst AND ${p.closed('d')} AND ${p.inScope('d')}
JOIN closures k ON k.target = 'node' AND k.key = d.vkey
LEFT JOIN nodes y ON y.nid = d.nid AND y.vkey > d.vkey${p.andRecorded('y')}
WHERE ${p.valid('e')} AND y.vkey IS NULL
UNION ALL BY NAME
SELECT 3 AS part, EXISTS (
  SELECT 1 FROM walked l JOIN edges e ON e.src = l.nid AND ${p.valid('e')}
  JOIN nodes d ON d.nid = e.dst AND ${p.visible('d')}
  WHERE l.hop = $hops::INTEGER AND e.dst NOT IN (SELECT nid FROM walked)
) AS cut, (SELECT list(w.nid::INTEGER) ${NAMED_ONLY}) AS named_only
ORDER BY part, hop NULLS LAST, tx DESC, nid DESC, ekey`;
}

/** The parameters a shape's statement takes, as SQL literals, by name. */
export function closureParams(shape: ClosureShape, q: BoundedClosureQuery): Record<string, string> {
  const params: Record<string, string> = {};
  if (!shape.current) {
    assertEpoch(q.epoch);
    params.epoch = intLiteral(q.epoch);
  }
  if (!shape.defaultRoots) params.roots = intArray(q.roots === 'default' ? [] : q.roots);
  params.authority =
    q.authority === null ? 'NULL::VARCHAR[]' : `[${q.authority.map(stringLiteral).join(', ')}]::VARCHAR[]`;
  params.hops = intLiteral(q.hops);
  params.max_nodes = intLiteral(q.maxNodes);
  return params;
}

/** The closure alone with literal parameters (see closureStatementSql). @internal Exported for its unit tests. */
export function closureSql(q: BoundedClosureQuery, lastEpoch = Number.POSITIVE_INFINITY): string {
  const shape = closureShape(q, lastEpoch);
  return inlineParams(closureStatementSql(shape), closureParams(shape, q));
}

/**
 * Whether the walk left edges unfollowed: a visible edge from a node of the last level reached to
 * a node the walk does not hold (the hop bound, or the node bound stopping the walk, cut there).
 * (workingSetSql answers this as its `cut` part; kept for tests of the closure alone.)
 * @internal Exported for its unit tests.
 */
export function cutAtFrontierSql(q: ClosureQuery, lastLevel: readonly number[], walked: readonly number[]): string {
  return `SELECT EXISTS (
  SELECT 1 FROM edges e JOIN nodes d ON d.nid = e.dst AND ${visibleNode('d', q.epoch, q.authority)}
  WHERE e.src IN (SELECT unnest(${intArray(lastLevel)})) AND ${validAt('e', q.epoch)}
    AND e.dst NOT IN (SELECT unnest(${intArray(walked)}))
)::BOOLEAN AS cut`;
}
