import { validAt } from './as-of.js';
import { intList, intLiteral, stringList, stringLiteral } from './literals.js';

/**
 * Retrieval SQL. Scoring runs in memory over structures maintained at commit
 * (src/retrieval/retrieval-index.ts); the engine is asked only for what lives in its tables: the
 * node versions valid at a past epoch, the bodies a result returns, exact path lookups, and (once,
 * after a restore) the bodies and edges to index. Body vectors are scored in memory too
 * (src/retrieval/cosine-top.ts); the statement that scan replaced, and reproduces bit for bit,
 * is kept as a test reference (test/helpers/vector-sql.ts).
 */
const scope = (alias: string, authority: readonly string[] | null): string =>
  authority === null ? '' : ` AND ${alias}.authority IN ${stringList(authority)}`;

/** Node versions valid at the epoch inside the scopes: which records a past-epoch query sees. */
export function visibleVersionsSql(epoch: number, authority: readonly string[] | null): string {
  return `SELECT n.nid, n.status, n.tx FROM nodes n WHERE ${validAt('n', epoch)}${scope('n', authority)} ORDER BY n.nid`;
}

/** Bodies from a key on, in key order (indexing a restored ledger). */
export function bodiesFromSql(from: number, limit: number): string {
  return `SELECT bkey, text FROM bodies WHERE bkey >= ${intLiteral(from)} ORDER BY bkey LIMIT ${intLiteral(limit)}`;
}

/** Edges from a key on, in key order (indexing a restored ledger). */
export function edgesFromSql(from: number, limit: number): string {
  return `SELECT ekey, src, dst, kind, valid_from FROM edges WHERE ekey >= ${intLiteral(from)} ORDER BY ekey LIMIT ${intLiteral(limit)}`;
}

/**
 * The bodies a result returns, by key (`bkeys` ascending). Keys ascend with insertion, so DuckDB's
 * zone maps skip the row groups that hold none of them. Within a row group every string column
 * selected is scanned for all its rows (the IN list becomes a join after the scan), so only what
 * a result shows is selected: not the 64-character hash (a fifth of the read's time at 100k
 * bodies). The key range, a filter the scan itself applies, spares the text of the rows outside
 * it (keys within the last tenth of 86k bodies: half the read's time).
 */
export function bodyRowsSql(bkeys: readonly number[]): string {
  const range = `bkey BETWEEN ${intLiteral(bkeys[0]!)} AND ${intLiteral(bkeys[bkeys.length - 1]!)}`;
  return `SELECT bkey, text, tokens FROM bodies WHERE ${range} AND bkey IN ${intList(bkeys)}`;
}

/**
 * Exact channel, every constraint in one statement: per constraint `a`, the records of its path
 * (optionally a revision, a body hash, a range overlap) valid at the epoch (`old` NULL), then one
 * row counting the records of the path that are no longer valid at the epoch (`old` set): some
 * version began and ended by then, none is valid then (grouped, not a correlated NOT EXISTS,
 * which cost more than the rest of a retrieval).
 */
export function exactSql(
  epoch: number,
  authority: readonly string[] | null,
  constraints: ReadonlyArray<{ path: string; revision?: string; range?: readonly [number, number]; hash?: string }>,
): string {
  const parts = constraints.map((c, a) => {
    const conds: string[] = [`v.path = ${stringLiteral(c.path)}`];
    if (c.revision !== undefined) conds.push(`v.revision = ${stringLiteral(c.revision)}`);
    if (c.hash !== undefined) conds.push(`v.bkey IN (SELECT bkey FROM bodies WHERE hash = ${stringLiteral(c.hash)})`);
    if (c.range !== undefined) {
      conds.push(
        `(v.range_start IS NULL OR (v.range_start <= ${intLiteral(c.range[1])} AND v.range_end >= ${intLiteral(c.range[0])}))`,
      );
    }
    return `(SELECT ${a} AS a, v.nid, v.revision, v.range_start, v.range_end, NULL::INTEGER AS old FROM nodes v
WHERE ${validAt('v', epoch)}${scope('v', authority)} AND ${conds.join(' AND ')} AND v.kind IN ('evidence', 'artifact_revision', 'tool_result', 'verifier_outcome'))
UNION ALL
(SELECT ${a} AS a, NULL, NULL, NULL, NULL, count(*)::INTEGER FROM (SELECT n.nid FROM nodes n
  WHERE n.path = ${stringLiteral(c.path)} AND n.valid_from <= ${intLiteral(epoch)}${scope('n', authority)} GROUP BY n.nid
  HAVING bool_or(n.valid_to IS NOT NULL AND n.valid_to <= ${intLiteral(epoch)}) AND NOT bool_or(n.valid_to IS NULL OR n.valid_to > ${intLiteral(epoch)})))`;
  });
  return `${parts.join('\nUNION ALL\n')}\nORDER BY a, old NULLS FIRST, nid`;
}
