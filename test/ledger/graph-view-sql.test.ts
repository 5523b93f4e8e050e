import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/engine/rows.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import {
  EDGES_AS_OF_STATEMENT,
  EDGES_CURRENT_STATEMENT,
  edgesAsOfSql,
  NODES_AS_OF_STATEMENT,
  NODES_CURRENT_STATEMENT,
  nodesAsOfSql,
} from '../../src/sql/as-of.js';
import { queryPrepared } from '../../src/sql/prepared.js';
import { engineOf, LedgerPool } from '../helpers/ledgers.js';

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

describe('as-of statements', () => {
  it('are pinned: one $epoch parameter, prepared once', () => {
    expect(NODES_AS_OF_STATEMENT).toMatchInlineSnapshot(`
      "SELECT n.*, b.text AS body, b.tokens AS tokens, b.hash AS body_hash
      FROM nodes n LEFT JOIN bodies b ON b.bkey = n.bkey
      WHERE (n.valid_from <= $epoch::INTEGER AND (n.valid_to IS NULL OR n.valid_to > $epoch::INTEGER))
      ORDER BY n.vkey"
    `);
    expect(EDGES_AS_OF_STATEMENT).toMatchInlineSnapshot(`
      "SELECT e.ekey, e.kind, e.tx, e.valid_from, e.valid_to, s.id AS from_id, d.id AS to_id
      FROM edges e
      JOIN nodes s ON s.nid = e.src AND (s.valid_from <= $epoch::INTEGER AND (s.valid_to IS NULL OR s.valid_to > $epoch::INTEGER))
      JOIN nodes d ON d.nid = e.dst AND (d.valid_from <= $epoch::INTEGER AND (d.valid_to IS NULL OR d.valid_to > $epoch::INTEGER))
      WHERE (e.valid_from <= $epoch::INTEGER AND (e.valid_to IS NULL OR e.valid_to > $epoch::INTEGER))
      ORDER BY e.ekey"
    `);
  });

  it('answer every epoch as the literal statements do', async () => {
    const engine = engineOf(ledger);
    for (const epoch of [0, 1, 2, 3]) {
      const at = { epoch: String(epoch) };
      expect(rowsOf(await queryPrepared(engine, 'test_nodes_as_of', NODES_AS_OF_STATEMENT, at))).toEqual(
        rowsOf(await engine.query(nodesAsOfSql(epoch))),
      );
      expect(rowsOf(await queryPrepared(engine, 'test_edges_as_of', EDGES_AS_OF_STATEMENT, at))).toEqual(
        rowsOf(await engine.query(edgesAsOfSql(epoch))),
      );
    }
    const claim = (await ledger.asOf({ epoch: 1 })).nodes.find((n) => n.id === 'c');
    expect(claim?.status).toBe('open');
    expect((await ledger.asOf({ epoch: 2 })).nodes.find((n) => n.id === 'c')?.status).toBe('resolved');
  });

  it('at or after the last epoch take one text without an epoch, answering as the literal statements do', async () => {
    expect(NODES_CURRENT_STATEMENT).toMatchInlineSnapshot(`
      "SELECT n.*, b.text AS body, b.tokens AS tokens, b.hash AS body_hash
      FROM nodes n LEFT JOIN bodies b ON b.bkey = n.bkey
      WHERE n.valid_to IS NULL
      ORDER BY n.vkey"
    `);
    expect(EDGES_CURRENT_STATEMENT).toMatchInlineSnapshot(`
      "SELECT e.ekey, e.kind, e.tx, e.valid_from, e.valid_to, s.id AS from_id, d.id AS to_id
      FROM edges e
      JOIN nodes s ON s.nid = e.src AND s.valid_to IS NULL
      JOIN nodes d ON d.nid = e.dst AND d.valid_to IS NULL
      WHERE e.valid_to IS NULL
      ORDER BY e.ekey"
    `);
    const engine = engineOf(ledger);
    for (const epoch of [ledger.lastEpoch, ledger.lastEpoch + 5]) {
      for (let i = 0; i < 3; i++) {
        expect(rowsOf(await queryPrepared(engine, 'test_nodes_current', NODES_CURRENT_STATEMENT, {}))).toEqual(
          rowsOf(await engine.query(nodesAsOfSql(epoch))),
        );
        expect(rowsOf(await queryPrepared(engine, 'test_edges_current', EDGES_CURRENT_STATEMENT, {}))).toEqual(
          rowsOf(await engine.query(edgesAsOfSql(epoch))),
        );
      }
    }
    // The current view reads the resolved claim; the view at epoch 1 does not.
    expect((await ledger.asOf({ epoch: ledger.lastEpoch })).nodes.find((n) => n.id === 'c')?.status).toBe('resolved');
    expect((await ledger.asOf({ epoch: 1 })).nodes.find((n) => n.id === 'c')?.status).toBe('open');
  });
});
