import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/engine/rows.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import {
  type BoundedClosureQuery,
  type ClosureShape,
  closureParams,
  closureShape,
  workingSetSql,
} from '../../src/sql/closure.js';
import { executeSql, inlineParams, prepareSql, queryPrepared } from '../../src/sql/prepared.js';
import { engineOf, indexOf, LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
let ledger: Ledger;
beforeAll(async () => {
  ledger = await pool.ledger();
  // a → b → d, a → c → e, b → e; x (secret) → a. Epoch 2: c2 supersedes c.
  await ledger.commit({
    epoch: 1,
    nodes: ['a', 'b', 'c', 'd', 'e']
      .map((id) => ({ id, kind: 'message' as const }))
      .concat([{ id: 'x', kind: 'message', authority: 'secret' } as never]),
    edges: [
      { from: 'a', to: 'b', kind: 'depends_on' },
      { from: 'a', to: 'c', kind: 'depends_on' },
      { from: 'b', to: 'd', kind: 'depends_on' },
      { from: 'b', to: 'e', kind: 'depends_on' },
      { from: 'c', to: 'e', kind: 'depends_on' },
      { from: 'x', to: 'a', kind: 'depends_on' },
    ],
  });
  await ledger.commit({
    epoch: 2,
    nodes: [{ id: 'c2', kind: 'message' }],
    edges: [{ from: 'c2', to: 'c', kind: 'supersedes' }],
  });
});
afterAll(() => pool.close());

interface Row {
  part: number;
  nid: number | null;
  hop: number | null;
  beyond: boolean | null;
  candidate: boolean | null;
  src: number | null;
  dst: number | null;
  edge_kind: string | null;
  src_status: string | null;
  reason: string | null;
  by_nid: number | null;
  cut: boolean | null;
}

const nid = (id: string) => indexOf(ledger).nodes.get(id)!.nid;
const idOf = (n: number | null) => (n === null ? null : indexOf(ledger).byNid[n]!.id);

/** Runs the statement as the materializer does (prepared), rows rendered with ids. */
async function run(q: Partial<BoundedClosureQuery> & { epoch: number }, shape?: ClosureShape) {
  const query: BoundedClosureQuery = { roots: [nid('a')], authority: null, hops: 6, maxNodes: 128, ...q };
  const s = shape ?? closureShape(query, ledger.lastEpoch);
  const name = `test_ws_${s.current ? 'c' : 'a'}_${s.defaultRoots ? 'd' : 'g'}`;
  const rows = rowsOf<Row>(await queryPrepared(engineOf(ledger), name, workingSetSql(s), closureParams(s, query)));
  return rows.map((r) =>
    r.part === 0
      ? `node ${idOf(r.nid)}@${r.hop ?? '-'}${r.beyond ? ' beyond' : ''}${r.candidate ? '' : ' (named only)'}`
      : r.part === 1
        ? `edge ${idOf(r.src)} ${r.edge_kind} ${idOf(r.dst)}${r.src_status ? ` (${r.src_status})` : ''}`
        : r.part === 2
          ? `closed ${idOf(r.nid)} ${r.reason} by ${idOf(r.by_nid)}`
          : `cut ${r.cut}`,
  );
}

describe('working-set statement', () => {
  it('is pinned: at the last epoch validity is one null test and every value is a parameter', () => {
    expect(workingSetSql({ current: true, defaultRoots: false })).toMatchInlineSnapshot(`
      "WITH RECURSIVE walk(hop, front, seen, reached) AS (
        SELECT 0, list(n.nid), list(n.nid), list({'nid': n.nid, 'beyond': false, 'tx': n.tx})
        FROM nodes n WHERE n.nid IN (SELECT unnest($roots::INTEGER[])) AND n.valid_to IS NULL AND ($authority::VARCHAR[] IS NULL OR list_contains($authority::VARCHAR[], n.authority))
        UNION ALL
        SELECT l.hop + 1, x.front, l.seen || x.nids, x.reached FROM (
          SELECT count(*) AS c, list(r.nid) FILTER (WHERE r.rank <= $max_nodes::INTEGER) AS front, list(r.nid) AS nids,
            list({'nid': r.nid, 'beyond': r.rank > $max_nodes::INTEGER, 'tx': r.tx}) AS reached
          FROM (
            SELECT d.nid, d.tx, row_number() OVER (ORDER BY d.tx DESC, d.nid DESC) AS rank FROM (
              SELECT DISTINCT d.nid, d.tx FROM (SELECT unnest(w.front) AS nid FROM walk w WHERE w.hop < $hops::INTEGER) f
              JOIN edges e ON e.src = f.nid AND e.valid_to IS NULL
              JOIN nodes d ON d.nid = e.dst AND d.valid_to IS NULL AND ($authority::VARCHAR[] IS NULL OR list_contains($authority::VARCHAR[], d.authority))
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
          FROM edges e WHERE e.valid_to IS NULL AND e.kind IN ('invokes', 'produces', 'mutates')
        ) u JOIN nodes m ON m.nid = u.b AND m.valid_to IS NULL AND ($authority::VARCHAR[] IS NULL OR list_contains($authority::VARCHAR[], m.authority))
      ),
      unit(nid) AS (
        SELECT nid FROM walked WHERE NOT beyond
        UNION
        SELECT u.b FROM (SELECT unnest(list(nid)) AS nid FROM unit) g JOIN unit_edges u ON u.a = g.nid
      ),
      units AS MATERIALIZED (SELECT unnest(l) AS nid FROM (SELECT list(nid) AS l FROM unit)),
      c AS (SELECT v.nid, v.vkey, v.tx, v.bkey, w.hop, w.beyond FROM nodes v JOIN units u ON u.nid = v.nid LEFT JOIN walked w ON w.nid = v.nid
        WHERE v.valid_to IS NULL)
      SELECT 0 AS part, c.nid::INTEGER AS nid, c.hop::INTEGER AS hop, c.tx::INTEGER AS tx, coalesce(c.beyond, false) AS beyond, true AS candidate,
        c.vkey, b.hash AS body_hash, b.text AS body, b.tokens AS tokens
      FROM c LEFT JOIN bodies b ON b.bkey = c.bkey
      UNION ALL BY NAME
      SELECT 1 AS part, e.ekey, e.src::INTEGER AS src, e.dst::INTEGER AS dst, e.kind AS edge_kind, s.status AS src_status
      FROM edges e JOIN units u ON u.nid = e.dst
      JOIN nodes s ON s.nid = e.src AND s.valid_to IS NULL AND ($authority::VARCHAR[] IS NULL OR list_contains($authority::VARCHAR[], s.authority))
      WHERE e.valid_to IS NULL
      UNION ALL BY NAME
      SELECT DISTINCT 2 AS part, d.nid::INTEGER AS nid, k.reason, k.epoch::INTEGER AS closed_at, k.by_nid::INTEGER AS by_nid
      FROM edges e JOIN units u ON u.nid = e.src
      JOIN nodes d ON d.nid = e.dst AND d.valid_to IS NOT NULL AND ($authority::VARCHAR[] IS NULL OR list_contains($authority::VARCHAR[], d.authority))
      JOIN closures k ON k.target = 'node' AND k.key = d.vkey
      LEFT JOIN nodes y ON y.nid = d.nid AND y.vkey > d.vkey
      WHERE e.valid_to IS NULL AND y.vkey IS NULL
      UNION ALL BY NAME
      SELECT 3 AS part, EXISTS (
        SELECT 1 FROM walked l JOIN edges e ON e.src = l.nid AND e.valid_to IS NULL
        JOIN nodes d ON d.nid = e.dst AND d.valid_to IS NULL AND ($authority::VARCHAR[] IS NULL OR list_contains($authority::VARCHAR[], d.authority))
        WHERE l.hop = $hops::INTEGER AND e.dst NOT IN (SELECT nid FROM walked)
      ) AS cut, (SELECT list(w.nid::INTEGER) FROM walked w WHERE w.beyond AND w.nid NOT IN (SELECT nid FROM units)) AS named_only
      ORDER BY part, hop NULLS LAST, tx DESC, nid DESC, ekey"
    `);
  });

  it('takes the general validity predicate for older epochs', () => {
    const sql = workingSetSql({ current: false, defaultRoots: true });
    expect(sql).toContain('(d.valid_from <= $epoch::INTEGER AND (d.valid_to IS NULL OR d.valid_to > $epoch::INTEGER))');
    expect(sql).not.toContain('valid_to IS NULL AND');
  });

  it('is executed by name with its parameters written in as literals', () => {
    const shape = { current: false, defaultRoots: false };
    const params = closureParams(shape, { epoch: 4, roots: [2, 1], authority: ["o'neil"], hops: 6, maxNodes: 128 });
    expect(params).toEqual({
      epoch: '4',
      roots: '[2, 1]::INTEGER[]',
      authority: "['o''neil']::VARCHAR[]",
      hops: '6',
      max_nodes: '128',
    });
    expect(inlineParams('x < $hops::INTEGER', params)).toBe('x < (6)::INTEGER');
    expect(prepareSql('ws', 'SELECT 1')).toBe('PREPARE ws AS SELECT 1');
    expect(executeSql('ws')).toBe('EXECUTE ws');
  });

  it('returns the closure, the edges into it, its closed neighbours and the cut, part by part', async () => {
    // c is closed at epoch 2: its edge into e no longer comes from a visible node.
    expect(await run({ epoch: 2 })).toEqual([
      'node a@0',
      'node b@1',
      'node e@2',
      'node d@2',
      'edge a depends_on b',
      'edge b depends_on d',
      'edge b depends_on e',
      'edge x depends_on a',
      'closed c superseded by c2',
      'cut false',
    ]);
  });

  it('answers an older epoch as it was: c valid, nothing closed', async () => {
    const rows = await run({ epoch: 1 });
    expect(rows).toContain('node c@1');
    expect(rows.some((r) => r.startsWith('closed'))).toBe(false);
  });

  it('agrees with the general predicate at the last epoch', async () => {
    const q = { epoch: 2, hops: 1 };
    expect(await run(q, { current: true, defaultRoots: false })).toEqual(
      await run(q, { current: false, defaultRoots: false }),
    );
    expect(await run(q)).toContain('cut true');
  });

  it('never passes through or names a node outside the authority scopes', async () => {
    const rows = await run({ epoch: 2, authority: ['agent'] });
    expect(rows.join('\n')).not.toContain('x');
  });

  it('ranks a level by distinct nodes: one reached by two edges takes one place of the beam', async () => {
    // Level 2 is e (reached from b and from c at epoch 1; the higher nid ranks first) and d: with
    // two places both are walked. Ranking the joined rows gave e both places and cut d.
    const rows = await run({ epoch: 1, maxNodes: 2 });
    expect(rows.filter((r) => r.includes('beyond'))).toEqual([]);
    expect(rows).toEqual(expect.arrayContaining(['node d@2', 'node e@2']));
  });

  it('names the nodes a beam cut once, as a list on the cut row, and sends rows only for candidates', async () => {
    // Level 1 is c and b (same tx, the higher nid first): one place, so b is reached, not walked.
    const query: BoundedClosureQuery = { epoch: 1, roots: [nid('a')], authority: null, hops: 6, maxNodes: 1 };
    const shape = closureShape(query, ledger.lastEpoch);
    const rows = rowsOf<Row & { named_only: number[] | null }>(
      await engineOf(ledger).query(inlineParams(workingSetSql(shape), closureParams(shape, query))),
    );
    expect(
      rows.filter((r) => r.part === 0).map((r) => `${idOf(r.nid)}@${r.hop}${r.candidate ? '' : ' named'}`),
    ).toEqual(['a@0', 'c@1', 'e@2']);
    const cutRow = rows.find((r) => r.part === 3)!;
    expect([...(cutRow.named_only ?? [])].map(idOf)).toEqual(['b']);
    // Without a cut the list is empty (no named-only rows either way).
    const all = rowsOf<Row & { named_only: number[] | null }>(
      await engineOf(ledger).query(
        inlineParams(workingSetSql(shape), closureParams(shape, { ...query, maxNodes: 128 })),
      ),
    );
    expect([...(all.find((r) => r.part === 3)!.named_only ?? [])]).toEqual([]);
  });
});
