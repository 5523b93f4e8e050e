import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { rowsOf } from '../../src/engine/rows.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { bodiesFromSql, bodyRowsSql, edgesFromSql, exactSql, visibleVersionsSql } from '../../src/sql/retrieval-sql.js';
import { engineOf, LedgerPool } from '../helpers/ledgers.js';
import { bodyVectorsTableSql, cosineTopSql } from '../helpers/vector-sql.js';

type ExactRow = { a: number; nid: number | null; old: number | null };

/** Retrieval's statements, pinned by their text and by a run on a small ledger. */
const pool = new LedgerPool();
let ledger: Ledger;
let engine: Engine;
const nid = async (id: string) =>
  rowsOf<{ nid: number }>(await engine.query(`SELECT DISTINCT nid FROM nodes WHERE id = '${id}'`))[0]?.nid;
beforeAll(async () => {
  ledger = await pool.ledger();
  engine = engineOf(ledger);
  await ledger.commit({
    epoch: 1,
    nodes: [
      { id: 't', kind: 'task', body: 'fix the parser' },
      { id: 'v', kind: 'evidence', path: 'src/a.ts', range: [1, 10], body: 'const a = 1;' },
      { id: 'm', kind: 'message', role: 'user', authority: 'user', body: 'hello there' },
    ],
    edges: [{ from: 't', to: 'v', kind: 'depends_on' }],
  });
});
afterAll(() => pool.close());

describe('retrieval statements', () => {
  it('are pinned', () => {
    expect([
      visibleVersionsSql(3, ['user']),
      bodiesFromSql(0, 2),
      edgesFromSql(0, 10),
      bodyRowsSql([0, 2]),
      bodyVectorsTableSql(3),
      cosineTopSql(Float32Array.of(1, 0, Number.NaN), 2),
      exactSql(1, null, [{ path: 'src/a.ts', range: [5, 6] }]),
    ]).toMatchInlineSnapshot(`
      [
        "SELECT n.nid, n.status, n.tx FROM nodes n WHERE (n.valid_from <= 3 AND (n.valid_to IS NULL OR n.valid_to > 3)) AND n.authority IN ('user') ORDER BY n.nid",
        "SELECT bkey, text FROM bodies WHERE bkey >= 0 ORDER BY bkey LIMIT 2",
        "SELECT ekey, src, dst, kind, valid_from FROM edges WHERE ekey >= 0 ORDER BY ekey LIMIT 10",
        "SELECT bkey, text, tokens FROM bodies WHERE bkey BETWEEN 0 AND 2 AND bkey IN (0, 2)",
        "CREATE OR REPLACE TABLE body_vectors (bkey INTEGER NOT NULL, vec FLOAT[3] NOT NULL)",
        "SELECT bkey, array_cosine_similarity(vec, '[1.000000,0.000000,0]'::FLOAT[3])::DOUBLE AS score FROM body_vectors
      ORDER BY score DESC, bkey LIMIT 2",
        "(SELECT 0 AS a, v.nid, v.revision, v.range_start, v.range_end, NULL::INTEGER AS old FROM nodes v
      WHERE (v.valid_from <= 1 AND (v.valid_to IS NULL OR v.valid_to > 1)) AND v.path = 'src/a.ts' AND (v.range_start IS NULL OR (v.range_start <= 6 AND v.range_end >= 5)) AND v.kind IN ('evidence', 'artifact_revision', 'tool_result', 'verifier_outcome'))
      UNION ALL
      (SELECT 0 AS a, NULL, NULL, NULL, NULL, count(*)::INTEGER FROM (SELECT n.nid FROM nodes n
        WHERE n.path = 'src/a.ts' AND n.valid_from <= 1 GROUP BY n.nid
        HAVING bool_or(n.valid_to IS NOT NULL AND n.valid_to <= 1) AND NOT bool_or(n.valid_to IS NULL OR n.valid_to > 1)))
      ORDER BY a, old NULLS FIRST, nid",
      ]
    `);
  });

  it('read what the ledger wrote', async () => {
    const [t, v, m] = [await nid('t'), await nid('v'), await nid('m')];
    expect(rowsOf<{ nid: number }>(await engine.query(visibleVersionsSql(1, ['user']))).map((r) => r.nid)).toEqual([m]);
    expect(rowsOf<{ nid: number }>(await engine.query(visibleVersionsSql(1, null))).map((r) => r.nid)).toEqual(
      [t, v, m].sort((a, b) => a! - b!),
    );
    expect(rowsOf<{ nid: number }>(await engine.query(visibleVersionsSql(0, null)))).toEqual([]);
    const bodies = rowsOf<{ bkey: number; text: string }>(await engine.query(bodiesFromSql(0, 10)));
    expect(bodies.map((b) => b.text)).toEqual(['fix the parser', 'const a = 1;', 'hello there']);
    expect(rowsOf<{ text: string }>(await engine.query(bodiesFromSql(bodies[1]!.bkey, 1))).map((b) => b.text)).toEqual([
      'const a = 1;',
    ]);
    expect(
      rowsOf<{ src: number; dst: number; kind: string }>(await engine.query(edgesFromSql(0, 10))).map((e) => [
        e.src,
        e.dst,
        e.kind,
      ]),
    ).toEqual([[t, v, 'depends_on']]);
    const shown = rowsOf<{ text: string; tokens: number }>(await engine.query(bodyRowsSql([bodies[2]!.bkey])));
    expect(shown).toEqual([{ bkey: bodies[2]!.bkey, text: 'hello there', tokens: 2 }]);
    const exact = rowsOf<ExactRow>(await engine.query(exactSql(1, null, [{ path: 'src/a.ts', range: [5, 6] }])));
    // Constraint 0: the view overlapping lines 5-6, then the count of the path's ended records (none).
    expect(exact.map((r) => [r.a, r.nid, r.old])).toEqual([
      [0, v, null],
      [0, null, 0],
    ]);
    const away = rowsOf<ExactRow>(await engine.query(exactSql(1, null, [{ path: 'src/a.ts', range: [20, 30] }])));
    expect(away.map((r) => [r.a, r.nid, r.old])).toEqual([[0, null, 0]]);
  });

  it('rank body vectors by cosine, ties by key', async () => {
    await engine.run(bodyVectorsTableSql(3));
    await engine.run(
      'INSERT INTO body_vectors VALUES (0, [1, 0, 0]::FLOAT[3]), (1, [0, 1, 0]::FLOAT[3]), (2, [1, 0, 0]::FLOAT[3])',
    );
    const top = rowsOf<{ bkey: number; score: number }>(await engine.query(cosineTopSql(Float32Array.of(1, 0, 0), 2)));
    expect(top).toEqual([
      { bkey: 0, score: 1 },
      { bkey: 2, score: 1 },
    ]);
  });

  it('read the query vector as the same floats as numeric literals would give', async () => {
    // The query vector is written as one string cast to FLOAT[d] (cheaper to bind than d
    // literals); every element must come out as the float the literal list gives.
    const query = Float32Array.of(0.1234567, -3.5e-12, 7.25e9, -0.5, 1e-20, 0, 2 / 3, -1 / 7);
    const body = Float32Array.of(1, -2, 3e-9, 0.25, 1e15, -7, 0.1, 9);
    await engine.run(bodyVectorsTableSql(8));
    await engine.run(`INSERT INTO body_vectors VALUES (0, [${[...body].join(', ')}]::FLOAT[8])`);
    const [viaText] = rowsOf<{ score: number }>(await engine.query(cosineTopSql(query, 1)));
    const digits = Array.from(query, (x) => x.toPrecision(7)).join(',');
    const [viaList] = rowsOf<{ score: number; same: boolean }>(
      await engine.query(
        `SELECT array_cosine_similarity(vec, [${digits}]::FLOAT[8])::DOUBLE AS score, '[${digits}]'::FLOAT[8] = [${digits}]::FLOAT[8] AS same FROM body_vectors`,
      ),
    );
    expect(viaList!.same).toBe(true);
    expect(viaText!.score).toBe(viaList!.score);
  });
});
