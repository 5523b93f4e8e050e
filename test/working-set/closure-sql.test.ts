import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/engine/rows.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { closureSql, cutAtFrontierSql } from '../../src/sql/closure.js';
import { stringLiteral } from '../../src/sql/literals.js';
import { engineOf, indexOf, LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
let ledger: Ledger;
beforeAll(async () => {
  ledger = await pool.ledger();
  // a → b → c → d, a → e (authority secret), e → f; c superseded-free; edge to g added later.
  await ledger.commit({
    epoch: 1,
    nodes: ['a', 'b', 'c', 'd', 'f']
      .map((id) => ({ id, kind: 'message' as const }))
      .concat([{ id: 'e', kind: 'message', authority: 'secret' } as never]),
    edges: [
      { from: 'a', to: 'b', kind: 'depends_on' },
      { from: 'b', to: 'c', kind: 'depends_on' },
      { from: 'c', to: 'd', kind: 'depends_on' },
      { from: 'a', to: 'e', kind: 'depends_on' },
      { from: 'e', to: 'f', kind: 'depends_on' },
    ],
  });
  await ledger.commit({
    epoch: 3,
    nodes: [{ id: 'g', kind: 'message' }],
    edges: [{ from: 'a', to: 'g', kind: 'depends_on' }],
  });
});
afterAll(() => pool.close());

const walk = async (epoch: number, hops: number, authority: string[] | null) =>
  rowsOf<{ nid: number; hop: number }>(
    await engineOf(ledger).query(closureSql({ epoch, roots: [0], authority, hops, maxNodes: 128 })),
  ).map((r) => `${indexOf(ledger).byNid[r.nid]!.id}@${r.hop}`);
const cut = async (epoch: number, hops: number, authority: string[] | null) => {
  const q = { epoch, roots: [0], authority, hops };
  const walked = rowsOf<{ nid: number; hop: number }>(
    await engineOf(ledger).query(closureSql({ ...q, maxNodes: 128 })),
  );
  const last = walked.filter((r) => r.hop === walked[walked.length - 1]!.hop).map((r) => r.nid);
  return (
    await engineOf(ledger).query(
      cutAtFrontierSql(
        q,
        last,
        walked.map((r) => r.nid),
      ),
    )
  )
    .getChild('cut')
    ?.get(0);
};

describe('closure SQL', () => {
  it('is pinned: a bounded, validity- and authority-filtered recursive walk on integer keys', () => {
    const sql = closureSql({ epoch: 7, roots: [3, 1], authority: ['user', "o'neil"], hops: 6, maxNodes: 128 });
    expect(sql).toMatchInlineSnapshot(`
      "WITH RECURSIVE walk(hop, front, seen, reached) AS (
        SELECT 0, list(n.nid), list(n.nid), list({'nid': n.nid, 'beyond': false, 'tx': n.tx})
        FROM nodes n WHERE n.nid IN (SELECT unnest(([3, 1]::INTEGER[])::INTEGER[])) AND (n.valid_from <= (7)::INTEGER AND (n.valid_to IS NULL OR n.valid_to > (7)::INTEGER)) AND ((['user', 'o''neil']::VARCHAR[])::VARCHAR[] IS NULL OR list_contains((['user', 'o''neil']::VARCHAR[])::VARCHAR[], n.authority))
        UNION ALL
        SELECT l.hop + 1, x.front, l.seen || x.nids, x.reached FROM (
          SELECT count(*) AS c, list(r.nid) FILTER (WHERE r.rank <= (128)::INTEGER) AS front, list(r.nid) AS nids,
            list({'nid': r.nid, 'beyond': r.rank > (128)::INTEGER, 'tx': r.tx}) AS reached
          FROM (
            SELECT d.nid, d.tx, row_number() OVER (ORDER BY d.tx DESC, d.nid DESC) AS rank FROM (
              SELECT DISTINCT d.nid, d.tx FROM (SELECT unnest(w.front) AS nid FROM walk w WHERE w.hop < (6)::INTEGER) f
              JOIN edges e ON e.src = f.nid AND (e.valid_from <= (7)::INTEGER AND (e.valid_to IS NULL OR e.valid_to > (7)::INTEGER))
              JOIN nodes d ON d.nid = e.dst AND (d.valid_from <= (7)::INTEGER AND (d.valid_to IS NULL OR d.valid_to > (7)::INTEGER)) AND ((['user', 'o''neil']::VARCHAR[])::VARCHAR[] IS NULL OR list_contains((['user', 'o''neil']::VARCHAR[])::VARCHAR[], d.authority))
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
          FROM edges e WHERE (e.valid_from <= (7)::INTEGER AND (e.valid_to IS NULL OR e.valid_to > (7)::INTEGER)) AND e.kind IN ('invokes', 'produces', 'mutates')
        ) u JOIN nodes m ON m.nid = u.b AND (m.valid_from <= (7)::INTEGER AND (m.valid_to IS NULL OR m.valid_to > (7)::INTEGER)) AND ((['user', 'o''neil']::VARCHAR[])::VARCHAR[] IS NULL OR list_contains((['user', 'o''neil']::VARCHAR[])::VARCHAR[], m.authority))
      ),
      unit(nid) AS (
        SELECT nid FROM walked WHERE NOT beyond
        UNION
        SELECT u.b FROM (SELECT unnest(list(nid)) AS nid FROM unit) g JOIN unit_edges u ON u.a = g.nid
      ),
      units AS MATERIALIZED (SELECT unnest(l) AS nid FROM (SELECT list(nid) AS l FROM unit)),
      c AS (SELECT v.*, w.hop, w.beyond FROM nodes v JOIN units u ON u.nid = v.nid LEFT JOIN walked w ON w.nid = v.nid
        WHERE (v.valid_from <= (7)::INTEGER AND (v.valid_to IS NULL OR v.valid_to > (7)::INTEGER)))
      SELECT c.nid::INTEGER AS nid, c.hop::INTEGER AS hop, c.tx::INTEGER AS tx, coalesce(c.beyond, false) AS beyond, true AS candidate,
        c.vkey, c.id, c.kind, c.status, c.authority, c.path, c.revision, c.range_start, c.range_end, c.verifier, c.tool,
        c.role, c.meta, c.valid_from, b.hash AS body_hash, b.text AS body, b.tokens AS tokens
      FROM c LEFT JOIN bodies b ON b.bkey = c.bkey
      UNION ALL BY NAME
      SELECT w.nid::INTEGER AS nid, w.hop::INTEGER AS hop, w.tx::INTEGER AS tx, true AS beyond, false AS candidate
      FROM walked w WHERE w.beyond AND w.nid NOT IN (SELECT nid FROM units)
      ORDER BY hop NULLS LAST, tx DESC, nid DESC"
    `);
  });

  it('walks breadth first, each node at its smallest hop, nearer and newer first', async () => {
    expect(await walk(3, 6, null)).toEqual(['a@0', 'g@1', 'e@1', 'b@1', 'f@2', 'c@2', 'd@3']);
  });

  it('respects validity: an edge recorded later is not walked earlier', async () => {
    expect(await walk(1, 6, null)).not.toContain('g@1');
  });

  it('says when the hop bound cut edges, and never passes through unauthorised nodes', async () => {
    expect(await walk(3, 1, null)).toEqual(['a@0', 'g@1', 'e@1', 'b@1']);
    expect(await cut(3, 1, null)).toBe(true);
    expect(await cut(3, 6, null)).toBe(false);
    expect(await walk(3, 6, ['agent'])).toEqual(['a@0', 'g@1', 'b@1', 'c@2', 'd@3']);
  });

  it('bounds each level to its newest maxNodes: the rest are reached but not walked on (beyond)', async () => {
    const rows = rowsOf<{ nid: number; hop: number; beyond: boolean }>(
      await engineOf(ledger).query(closureSql({ epoch: 3, roots: [0], authority: null, hops: 6, maxNodes: 2 })),
    ).map((r) => `${indexOf(ledger).byNid[r.nid]!.id}@${r.hop}${r.beyond ? ' beyond' : ''}`);
    // Level 1 holds g (newest), e and b: b is cut, so c and d (behind it) are never reached.
    expect(rows).toEqual(['a@0', 'g@1', 'e@1', 'b@1 beyond', 'f@2']);
  });

  it('quotes string literals so text never becomes SQL', () => {
    expect(stringLiteral("x'); DROP TABLE nodes; --")).toBe("'x''); DROP TABLE nodes; --'");
  });
});
