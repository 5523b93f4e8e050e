import { validAt } from './as-of.js';
import { intList, intLiteral, stringList, stringLiteral } from './literals.js';

/**
 * Retrieval SQL. Every channel reads only `visible` — node versions valid at the epoch inside
 * the authority scopes — so records outside the scopes never appear, never count in BM25
 * statistics and never carry a graph walk.
 */
export function visibleSql(epoch: number, authority: readonly string[] | null): string {
  const scope = authority === null ? '' : ` AND n.authority IN ${stringList(authority)}`;
  return `SELECT n.nid, n.vkey, n.id, n.kind, n.status, n.authority, n.bkey, n.path, n.revision, n.range_start, n.range_end, n.meta, n.tx
FROM nodes n WHERE ${validAt('n', epoch)}${scope}`;
}

/**
 * Materialises `visible` once per retrieval as a temp table; every builder below reads it
 * (recomputing the validity and authority filter in each of ~10 queries cost more than the
 * queries themselves). Retrievals run one at a time per ledger, so one table suffices.
 */
export function prepareVisibleSql(epoch: number, authority: readonly string[] | null): string {
  return `CREATE OR REPLACE TEMP TABLE retrieval_visible AS ${visibleSql(epoch, authority)}`;
}

/** Exact channel: records of a path (optionally a revision, a body hash, a range overlap). */
export function exactSql(c: {
  path?: string;
  revision?: string;
  range?: readonly [number, number];
  hash?: string;
}): string {
  const conds: string[] = [];
  if (c.path !== undefined) conds.push(`v.path = ${stringLiteral(c.path)}`);
  if (c.revision !== undefined) conds.push(`v.revision = ${stringLiteral(c.revision)}`);
  if (c.hash !== undefined) conds.push(`b.hash = ${stringLiteral(c.hash)}`);
  if (c.range !== undefined) {
    conds.push(
      `(v.range_start IS NULL OR (v.range_start <= ${intLiteral(c.range[1])} AND v.range_end >= ${intLiteral(c.range[0])}))`,
    );
  }
  return `WITH v AS (SELECT * FROM retrieval_visible)
SELECT v.nid, v.id, v.kind, v.path, v.revision, v.range_start, v.range_end
FROM v LEFT JOIN bodies b ON b.bkey = v.bkey
WHERE ${conds.length ? conds.join(' AND ') : 'FALSE'} AND v.kind IN ('evidence', 'artifact_revision', 'tool_result', 'verifier_outcome')
ORDER BY v.nid`;
}

/** Records matching an exact constraint that are no longer valid at the epoch (superseded). */
export function supersededCountSql(epoch: number, authority: readonly string[] | null, path: string): string {
  const scope = authority === null ? '' : ` AND n.authority IN ${stringList(authority)}`;
  return `SELECT count(DISTINCT n.nid)::INTEGER AS n, max(n.revision) AS revision FROM nodes n
WHERE n.path = ${stringLiteral(path)} AND n.valid_from <= ${intLiteral(epoch)} AND n.valid_to IS NOT NULL AND n.valid_to <= ${intLiteral(epoch)}${scope}
  AND NOT EXISTS (SELECT 1 FROM nodes x WHERE x.nid = n.nid AND ${validAt('x', epoch)})`;
}

/**
 * BM25 (k1 = 1.2, b = 0.75) over the bodies of visible records, with N, document frequencies
 * and the average length computed over the visible bodies only: the best `limit` bodies, each
 * with every visible record carrying it (one round trip).
 */
export function bm25Sql(terms: readonly string[], limit: number): string {
  return `WITH v AS (SELECT * FROM retrieval_visible),
docs AS (SELECT DISTINCT bkey FROM v WHERE bkey IS NOT NULL),
stats AS (SELECT count(*)::DOUBLE AS n, coalesce(avg(d.len), 0)::DOUBLE AS avgdl FROM docs JOIN doc_len d USING (bkey)),
hits AS (SELECT p.bkey, p.term, p.tf FROM postings p JOIN docs USING (bkey) WHERE p.term IN ${stringList(terms)}),
df AS (SELECT term, count(*)::DOUBLE AS df FROM hits GROUP BY term),
scored AS (
  SELECT h.bkey, sum(ln(1 + (stats.n - df.df + 0.5) / (df.df + 0.5)) * (h.tf * 2.2) / (h.tf + 1.2 * (0.25 + 0.75 * dl.len / nullif(stats.avgdl, 0))))::DOUBLE AS score,
    list(DISTINCT h.term ORDER BY h.term) AS matched
  FROM hits h JOIN df USING (term) JOIN doc_len dl ON dl.bkey = h.bkey, stats
  GROUP BY h.bkey
),
best AS (SELECT s.bkey, s.score, s.matched FROM scored s ORDER BY s.score DESC, s.bkey LIMIT ${intLiteral(limit)})
SELECT r.nid, r.kind, r.meta, best.bkey, best.score, best.matched FROM best JOIN v r USING (bkey) ORDER BY best.score DESC, best.bkey, r.nid`;
}

/** Document frequency of query terms among visible bodies (for the support estimate). */
export function termIdfSql(terms: readonly string[]): string {
  return `WITH v AS (SELECT * FROM retrieval_visible),
docs AS (SELECT DISTINCT bkey FROM v WHERE bkey IS NOT NULL),
n AS (SELECT count(*)::DOUBLE AS n FROM docs)
SELECT t.term, ln(1 + (n.n - coalesce(df.df, 0) + 0.5) / (coalesce(df.df, 0) + 0.5))::DOUBLE AS idf, coalesce(df.df, 0)::INTEGER AS df
FROM (SELECT unnest(${terms.length ? `[${terms.map(stringLiteral).join(', ')}]` : '[]::VARCHAR[]'}) AS term) t
LEFT JOIN (SELECT p.term, count(*)::DOUBLE AS df FROM postings p JOIN docs USING (bkey) WHERE p.term IN ${stringList(terms)} GROUP BY p.term) df USING (term), n
ORDER BY t.term`;
}

/**
 * Cosine similarity of visible bodies to the query vector, brute force (the library loads no
 * vss extension): the best `limit` bodies with the visible records carrying them.
 */
export function cosineSql(vector: Float32Array, limit: number): string {
  const lit = `[${Array.from(vector, (x) => (Number.isFinite(x) ? x.toPrecision(7) : '0')).join(',')}]::FLOAT[${intLiteral(vector.length)}]`;
  return `WITH v AS (SELECT * FROM retrieval_visible),
docs AS (SELECT DISTINCT bkey FROM v WHERE bkey IS NOT NULL),
best AS (SELECT bv.bkey, array_cosine_similarity(bv.vec, ${lit})::DOUBLE AS score
  FROM body_vectors bv JOIN docs USING (bkey)
  ORDER BY score DESC, bv.bkey LIMIT ${intLiteral(limit)})
SELECT r.nid, best.bkey, best.score FROM best JOIN v r USING (bkey) ORDER BY best.score DESC, best.bkey, r.nid`;
}

/**
 * Visible edges within `hops` of the seeds (both directions), for expansion and PageRank. The
 * edge CTEs are MATERIALIZED: inlined, DuckDB re-joined edges with the visible table at every
 * recursion step (measured ~30% slower at 10k nodes).
 */
export function neighbourhoodSql(epoch: number, seeds: readonly number[], hops: number): string {
  return `WITH RECURSIVE v AS (SELECT * FROM retrieval_visible),
ve AS MATERIALIZED (SELECT e.src, e.dst, e.kind FROM edges e JOIN v s ON s.nid = e.src JOIN v d ON d.nid = e.dst
       WHERE ${validAt('e', epoch)} AND e.kind NOT IN ('supersedes')),
und AS MATERIALIZED (SELECT src AS a, dst AS b, kind FROM ve UNION ALL SELECT dst AS a, src AS b, kind FROM ve),
walk(nid, hop) USING KEY (nid) AS (
  SELECT nid, 0 FROM v WHERE nid IN ${intList(seeds)}
  UNION
  SELECT und.b, w.hop + 1 FROM walk w JOIN und ON und.a = w.nid
  WHERE w.hop < ${intLiteral(hops)} AND NOT EXISTS (SELECT 1 FROM recurring.walk r WHERE r.nid = und.b)
)
SELECT ve.src, ve.dst, ve.kind, ws.hop AS src_hop, wd.hop AS dst_hop FROM ve
JOIN walk ws ON ws.nid = ve.src JOIN walk wd ON wd.nid = ve.dst
ORDER BY ve.src, ve.dst, ve.kind`;
}

/** Full rows of visible records, with body text and hash. */
export function recordRowsSql(nids: readonly number[]): string {
  return `WITH v AS (SELECT * FROM retrieval_visible)
SELECT v.*, b.hash AS body_hash, b.text AS body, b.tokens AS tokens FROM v LEFT JOIN bodies b ON b.bkey = v.bkey
WHERE v.nid IN ${intList(nids)} ORDER BY v.nid`;
}

/** Contradiction edges among the given records. */
export function contradictionsSql(epoch: number, nids: readonly number[]): string {
  return `WITH v AS (SELECT * FROM retrieval_visible)
SELECT s.id AS from_id, d.id AS to_id FROM edges e JOIN v s ON s.nid = e.src JOIN v d ON d.nid = e.dst
WHERE e.kind = 'contradicts' AND ${validAt('e', epoch)} AND (e.src IN ${intList(nids)} OR e.dst IN ${intList(nids)})
ORDER BY s.id, d.id`;
}

/**
 * Visible records whose path names one of the phrases (its last segment, without extension or a
 * trailing `(qualifier)`, lower-cased; the same rule as `pathSubject` in entities.ts): the records
 * *about* an entity the question names, which seed the graph walk.
 */
export function pathSubjectSql(phrases: readonly string[]): string {
  return `WITH v AS (SELECT * FROM retrieval_visible)
SELECT v.nid, s.subject FROM v, LATERAL (SELECT lower(trim(regexp_replace(regexp_replace(regexp_extract(v.path, '[^/]*$'), '\\s*\\([^)]*\\)\\s*$', ''), '\\.[A-Za-z0-9]{1,5}$', ''))) AS subject) s
WHERE v.path IS NOT NULL AND s.subject IN ${stringList(phrases)}
ORDER BY v.nid`;
}
