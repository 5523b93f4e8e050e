import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/engine/rows.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { closureSql } from '../../src/sql/closure.js';
import { stringLiteral } from '../../src/sql/literals.js';
import { LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
let ledger: Ledger;
beforeAll(async () => {
  ledger = await pool.ledger();
  // a → b → c → d, a → e (authority secret), e → f; c superseded-free; edge to g added later.
  await ledger.commit({
    epoch: 1,
    nodes: ['a', 'b', 'c', 'd', 'f'].map((id) => ({ id, kind: 'message' as const })).concat([{ id: 'e', kind: 'message', authority: 'secret' } as never]),
    edges: [
      { from: 'a', to: 'b', kind: 'depends_on' },
      { from: 'b', to: 'c', kind: 'depends_on' },
      { from: 'c', to: 'd', kind: 'depends_on' },
      { from: 'a', to: 'e', kind: 'depends_on' },
      { from: 'e', to: 'f', kind: 'depends_on' },
    ],
  });
  await ledger.commit({ epoch: 3, nodes: [{ id: 'g', kind: 'message' }], edges: [{ from: 'a', to: 'g', kind: 'depends_on' }] });
});
afterAll(() => pool.close());

const walk = async (epoch: number, hops: number, authority: string[] | null) =>
  rowsOf<{ nid: number; hop: number; frontier: boolean }>(await ledger.engine.query(closureSql({ epoch, roots: [0], authority, hops }))).map(
    (r) => `${ledger.index.byNid[r.nid]!.id}@${r.hop}${r.frontier ? '*' : ''}`,
  );

describe('closure SQL', () => {
  it('is pinned: a bounded, validity- and authority-filtered recursive walk on integer keys', () => {
    const sql = closureSql({ epoch: 7, roots: [3, 1], authority: ['user', "o'neil"], hops: 6 });
    expect(sql).toMatchInlineSnapshot(`
      "WITH RECURSIVE
      visible AS (SELECT n.* FROM nodes n WHERE (n.valid_from <= 7 AND (n.valid_to IS NULL OR n.valid_to > 7)) AND n.authority IN ('user', 'o''neil')),
      ve AS (SELECT e.src, e.dst, e.kind FROM edges e
        JOIN visible s ON s.nid = e.src
        JOIN visible d ON d.nid = e.dst
        WHERE (e.valid_from <= 7 AND (e.valid_to IS NULL OR e.valid_to > 7))),
      walk(nid, hop) USING KEY (nid) AS (
        SELECT nid, 0 FROM visible WHERE nid IN (3, 1)
        UNION
        SELECT ve.dst, w.hop + 1 FROM walk w JOIN ve ON ve.src = w.nid
        WHERE w.hop < 6 AND NOT EXISTS (SELECT 1 FROM recurring.walk r WHERE r.nid = ve.dst)
      )
      SELECT w.nid::INTEGER AS nid, w.hop::INTEGER AS hop, v.tx::INTEGER AS tx,
        (w.hop = 6 AND EXISTS (SELECT 1 FROM ve WHERE ve.src = w.nid))::BOOLEAN AS frontier
      FROM walk w JOIN visible v ON v.nid = w.nid
      ORDER BY w.hop, v.tx DESC, w.nid DESC"
    `);
  });

  it('walks breadth first, each node at its smallest hop, nearer and newer first', async () => {
    expect(await walk(3, 6, null)).toEqual(['a@0', 'g@1', 'e@1', 'b@1', 'f@2', 'c@2', 'd@3']);
  });

  it('respects validity: an edge recorded later is not walked earlier', async () => {
    expect(await walk(1, 6, null)).not.toContain('g@1');
  });

  it('marks the hop frontier and never passes through unauthorised nodes', async () => {
    expect(await walk(3, 1, null)).toEqual(['a@0', 'g@1', 'e@1*', 'b@1*']);
    expect(await walk(3, 6, ['agent'])).toEqual(['a@0', 'g@1', 'b@1', 'c@2', 'd@3']);
  });

  it('quotes string literals so text never becomes SQL', () => {
    expect(stringLiteral("x'); DROP TABLE nodes; --")).toBe("'x''); DROP TABLE nodes; --'");
  });
});
