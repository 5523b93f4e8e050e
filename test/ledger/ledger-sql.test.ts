import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/engine/rows.js';
import { literalInsertSql } from '../../src/ledger/commit/literal-rows.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { ENGINE_TABLES } from '../../src/schema/ddl.js';
import { archiveDependantsSql, archiveWrittenSql } from '../../src/sql/archive-sql.js';
import { closeVersionsSql } from '../../src/sql/close-versions.js';
import { insertVocabularySql } from '../../src/sql/insert-values.js';
import { tableCountsSql, tableRowsSql } from '../../src/sql/snapshot-sql.js';
import { beginTransactionSql, commitSql, rollbackSql } from '../../src/sql/transaction-sql.js';
import { engineOf, LedgerPool } from '../helpers/ledgers.js';

// The ledger core's own SQL builders, each pinned by its generated text and by a run.
const pool = new LedgerPool();
let ledger: Ledger;
beforeAll(async () => {
  ledger = await pool.ledger();
  await ledger.commit({
    epoch: 1,
    nodes: [
      { id: 't', kind: 'task', body: 'fix it' },
      { id: 'c', kind: 'claim', status: 'open', body: 'byte 4' },
    ],
    edges: [{ from: 't', to: 'c', kind: 'requires' }],
  });
  await ledger.commit({ epoch: 2, transitions: [{ id: 'c', status: 'resolved' }] });
});
afterAll(() => pool.close());

describe('snapshot statements', () => {
  it('are pinned', () => {
    expect(ENGINE_TABLES.map(tableRowsSql)).toMatchInlineSnapshot(`
      [
        "SELECT * FROM bodies ORDER BY bkey",
        "SELECT * FROM nodes ORDER BY vkey",
        "SELECT * FROM edges ORDER BY ekey",
        "SELECT * FROM closures ORDER BY ckey",
      ]
    `);
    expect(tableCountsSql()).toMatchInlineSnapshot(
      `"SELECT (SELECT count(*) FROM bodies)::INTEGER AS bodies, (SELECT count(*) FROM nodes)::INTEGER AS nodes, (SELECT count(*) FROM edges)::INTEGER AS edges, (SELECT count(*) FROM closures)::INTEGER AS closures"`,
    );
  });

  it('read each table in key order and count every table', async () => {
    const engine = engineOf(ledger);
    const nodes = rowsOf<{ vkey: number; id: string }>(await engine.query(tableRowsSql('nodes')));
    expect(nodes.map((n) => n.vkey)).toEqual([...nodes.map((n) => n.vkey)].sort((a, b) => a - b));
    expect(nodes.map((n) => n.id)).toEqual(['t', 'c', 'c']);
    const [counts] = rowsOf<Record<string, number>>(await engine.query(tableCountsSql()));
    for (const t of ENGINE_TABLES) expect(counts![t]).toBe((await engine.query(tableRowsSql(t))).numRows);
    expect(counts).toEqual({ bodies: 2, nodes: 3, edges: 1, closures: 1 });
  });
});

describe('archive statements', () => {
  it('are pinned', () => {
    expect(archiveWrittenSql(7)).toMatchInlineSnapshot(`
      "SELECT n.nid, n.id, n.kind, (SELECT min(x.tx) FROM nodes x WHERE x.nid = n.nid)::INTEGER AS first_tx
      FROM nodes n WHERE n.tx = 7 ORDER BY n.vkey"
    `);
    expect(archiveDependantsSql([3, 5])).toMatchInlineSnapshot(`
      "SELECT DISTINCT s.id, s.kind, e.kind AS edge, d.id AS target FROM edges e
      JOIN nodes s ON s.nid = e.src AND s.valid_to IS NULL
      JOIN nodes d ON d.nid = e.dst AND d.valid_to IS NULL
      WHERE e.valid_to IS NULL AND e.dst IN (3, 5) AND e.src NOT IN (3, 5)
        AND NOT (e.kind = 'plans' AND s.kind IN ('task', 'steering', 'action'))
      ORDER BY s.id, edge, target"
    `);
  });

  it('find what a transaction wrote and what depends on it', async () => {
    const engine = engineOf(ledger);
    expect(rowsOf(await engine.query(archiveWrittenSql(1)))).toMatchObject([
      { id: 't', kind: 'task', first_tx: 1 },
      { id: 'c', kind: 'claim', first_tx: 1 },
    ]);
    // The transition rewrote c: its first writer is transaction 1.
    expect(rowsOf(await engine.query(archiveWrittenSql(2)))).toMatchObject([{ id: 'c', first_tx: 1 }]);
    const nodes = await engine.query(tableRowsSql('nodes'));
    const nid = (id: string) => rowsOf<{ nid: number; id: string }>(nodes).find((n) => n.id === id)!.nid;
    expect(rowsOf(await engine.query(archiveDependantsSql([nid('c')])))).toEqual([
      { id: 't', kind: 'task', edge: 'requires', target: 'c' },
    ]);
    // Both ends inside the set: nothing outside depends on it.
    expect(rowsOf(await engine.query(archiveDependantsSql([nid('t'), nid('c')])))).toEqual([]);
    expect(rowsOf(await engine.query(archiveDependantsSql([])))).toEqual([]);
  });
});

describe('vocabulary inserts', () => {
  it('are pinned, and refuse anything but NULLs, safe integers and vocabulary strings', () => {
    expect(
      insertVocabularySql('closures', [
        [
          ['int', 1],
          ['int', 2],
          ['int', 3],
          ['text', 'node'],
          ['int', 4],
          ['text', 'archived'],
          ['int', null],
        ],
        [
          ['int', 5],
          ['int', 6],
          ['int', 7],
          ['text', 'edge'],
          ['int', 8],
          ['text', 'superseded'],
          ['int', 9],
        ],
      ]),
    ).toMatchInlineSnapshot(
      `"INSERT INTO closures VALUES (1, 2, 3, 'node', 4, 'archived', NULL), (5, 6, 7, 'edge', 8, 'superseded', 9)"`,
    );
    expect(insertVocabularySql('closures', [])).toBeNull();
    expect(insertVocabularySql('closures', [[['text', "it's"]]])).toBeNull();
    expect(insertVocabularySql('closures', [[['text', 'Node']]])).toBeNull();
    expect(insertVocabularySql('closures', [[['int', 2 ** 53]]])).toBeNull();
    expect(insertVocabularySql('closures', [[['int', 'node']]])).toBeNull();
    expect(insertVocabularySql('closures', [[['text', 4]]])).toBeNull();
  });

  it('insert the rows the Arrow path would', async () => {
    const other = await pool.ledger(1);
    const engine = engineOf(other);
    const row = { ckey: 99, tx: 9, epoch: 9, target: 'node', key: 1, reason: 'archived', by_nid: null };
    const sql = literalInsertSql('closures', [row]);
    expect(sql).toBe("INSERT INTO closures VALUES (99, 9, 9, 'node', 1, 'archived', NULL)");
    await engine.run(sql!);
    expect(rowsOf(await engine.query(tableRowsSql('closures')))).toEqual([row]);
    // Outside the literal tables, or with caller text, the caller uses Arrow.
    expect(literalInsertSql('nodes', [{}])).toBeNull();
    expect(literalInsertSql('closures', [{ ...row, reason: 'x y' }])).toBeNull();
  });
});

describe('closing versions', () => {
  it('is pinned, and closes exactly the versions named, each at its own epoch', async () => {
    expect(
      closeVersionsSql([
        [2, 5],
        [4, 5],
      ]),
    ).toMatchInlineSnapshot(`"UPDATE nodes SET valid_to = 5 WHERE vkey IN (2, 4)"`);
    expect(
      closeVersionsSql([
        [2, 5],
        [4, 7],
      ]),
    ).toMatchInlineSnapshot(
      `"UPDATE nodes SET valid_to = CASE vkey WHEN 2 THEN 5 WHEN 4 THEN 7 END WHERE vkey IN (2, 4)"`,
    );
    const other = await pool.ledger(2);
    await other.commit({
      epoch: 1,
      nodes: [
        { id: 'a', kind: 'message', body: 'a' },
        { id: 'b', kind: 'message', body: 'b' },
        { id: 'c', kind: 'message', body: 'c' },
      ],
    });
    const engine = engineOf(other);
    const before = rowsOf<{ vkey: number; id: string; valid_to: number | null }>(
      await engine.query(tableRowsSql('nodes')),
    );
    const vkey = (id: string) => before.find((n) => n.id === id)!.vkey;
    await engine.run(closeVersionsSql([[vkey('a'), 5]]));
    await engine.run(
      closeVersionsSql([
        [vkey('c'), 7],
        [vkey('b'), 6],
      ]),
    );
    const after = rowsOf<{ id: string; valid_to: number | null }>(await engine.query(tableRowsSql('nodes')));
    expect(after.map((n) => [n.id, n.valid_to])).toEqual([
      ['a', 5],
      ['b', 6],
      ['c', 7],
    ]);
    await engine.run(closeVersionsSql([]));
    expect(rowsOf(await engine.query(tableRowsSql('nodes')))).toEqual(after);
  });
});

describe('the engine transaction', () => {
  it('is pinned', () => {
    expect([beginTransactionSql(), commitSql(), rollbackSql()]).toMatchInlineSnapshot(`
      [
        "BEGIN TRANSACTION",
        "COMMIT",
        "ROLLBACK",
      ]
    `);
  });

  it('keeps what COMMIT ends and drops what ROLLBACK ends', async () => {
    const other = await pool.ledger(3);
    const engine = engineOf(other);
    const row = (ekey: number) => ({ ekey, src: 0, dst: 1, kind: 'requires', tx: 1, valid_from: 1, valid_to: null });
    const insert = (ekey: number) => literalInsertSql('edges', [row(ekey)])!;
    await engine.run([beginTransactionSql(), insert(1)].join(';\n'));
    await engine.run(rollbackSql());
    expect(rowsOf(await engine.query(tableRowsSql('edges')))).toEqual([]);
    await engine.run([beginTransactionSql(), insert(2)].join(';\n'));
    await engine.run(commitSql());
    expect(rowsOf(await engine.query(tableRowsSql('edges')))).toEqual([row(2)]);
    // A ROLLBACK with no transaction open is an engine error (the write path ignores it there).
    await expect(engine.run(rollbackSql())).rejects.toMatchObject({ code: 'ENGINE_FAILED' });
  });
});
