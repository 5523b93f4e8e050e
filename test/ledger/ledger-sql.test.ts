import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/engine/rows.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { TABLES } from '../../src/schema/ddl.js';
import { tableCountsSql, tableRowsSql } from '../../src/sql/snapshot-sql.js';
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
    expect(TABLES.map(tableRowsSql)).toMatchInlineSnapshot(`
      [
        "SELECT * FROM bodies ORDER BY bkey",
        "SELECT * FROM nodes ORDER BY vkey",
        "SELECT * FROM edges ORDER BY ekey",
        "SELECT * FROM closures ORDER BY ckey",
        "SELECT * FROM transactions ORDER BY tx",
      ]
    `);
    expect(tableCountsSql()).toMatchInlineSnapshot(
      `"SELECT (SELECT count(*) FROM bodies)::INTEGER AS bodies, (SELECT count(*) FROM nodes)::INTEGER AS nodes, (SELECT count(*) FROM edges)::INTEGER AS edges, (SELECT count(*) FROM closures)::INTEGER AS closures, (SELECT count(*) FROM transactions)::INTEGER AS transactions"`,
    );
  });

  it('read each table in key order and count every table', async () => {
    const engine = engineOf(ledger);
    const nodes = rowsOf<{ vkey: number; id: string }>(await engine.query(tableRowsSql('nodes')));
    expect(nodes.map((n) => n.vkey)).toEqual([...nodes.map((n) => n.vkey)].sort((a, b) => a - b));
    expect(nodes.map((n) => n.id)).toEqual(['t', 'c', 'c']);
    const [counts] = rowsOf<Record<string, number>>(await engine.query(tableCountsSql()));
    for (const t of TABLES) expect(counts![t]).toBe((await engine.query(tableRowsSql(t))).numRows);
    expect(counts).toMatchObject({ nodes: 3, edges: 1, transactions: 2 });
  });
});
