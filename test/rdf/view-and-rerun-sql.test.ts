import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { rowsOf } from '../../src/engine/rows.js';
import { supersededAsOfSql, viewEdgesSql } from '../../src/sql/rdf-view.js';
import { rerunCandidatesSql } from '../../src/sql/rerun.js';
import { engineOf, LedgerPool } from '../helpers/ledgers.js';
import { commitFixture } from './fixture.js';

/**
 * The RDF view's statements and the rerun-candidates query, pinned by their text and by a run on
 * the RDF fixture (rev:a2 supersedes rev:a1 and its evidence range at epoch 2; the failed pytest
 * outcome of epoch 3 checked rev:a2) plus a newer revision at epoch 4.
 */
type Row = Record<string, unknown>;
const pool = new LedgerPool();
let engine: Engine;
beforeAll(async () => {
  const ledger = await pool.ledger();
  await commitFixture(ledger);
  await ledger.commit({
    epoch: 4,
    nodes: [{ id: 'rev:a3', kind: 'artifact_revision', path: 'src/can.c', revision: 'a3', body: 'int16_t speed = 0;' }],
  });
  engine = engineOf(ledger);
});
afterAll(() => pool.close());
const run = async (sql: string) => rowsOf<Row>(await engine.query(sql));

describe('RDF view and rerun statements', () => {
  it('are pinned', () => {
    expect([supersededAsOfSql(2), viewEdgesSql(1), rerunCandidatesSql(4, ['agent'])]).toMatchInlineSnapshot(`
      [
        "SELECT n.*, b.text AS body, b.tokens AS tokens, b.hash AS body_hash,
        c.tx AS closed_tx, c.epoch AS closed_epoch, c.reason AS closed_reason, by_node.id AS closed_by
      FROM nodes n
      JOIN closures c ON c.target = 'node' AND c.key = n.vkey
      LEFT JOIN bodies b ON b.bkey = n.bkey
      LEFT JOIN (SELECT DISTINCT nid, id FROM nodes) by_node ON by_node.nid = c.by_nid
      WHERE n.valid_from <= 2 AND n.valid_to <= 2 AND c.reason <> 'status-change'
        AND NOT EXISTS (SELECT 1 FROM nodes v WHERE v.nid = n.nid AND (v.valid_from <= 2 AND (v.valid_to IS NULL OR v.valid_to > 2)))
        AND NOT EXISTS (SELECT 1 FROM nodes w WHERE w.nid = n.nid AND w.vkey > n.vkey AND w.valid_from <= 2)
      ORDER BY n.vkey",
        "SELECT e.kind, e.tx, e.valid_from, s.id AS from_id, d.id AS to_id
      FROM edges e
      JOIN (SELECT DISTINCT nid, id FROM nodes WHERE valid_from <= 1) s ON s.nid = e.src
      JOIN (SELECT DISTINCT nid, id FROM nodes WHERE valid_from <= 1) d ON d.nid = e.dst
      WHERE (e.valid_from <= 1 AND (e.valid_to IS NULL OR e.valid_to > 1))
      ORDER BY e.ekey",
        "WITH v AS (
        SELECT * FROM nodes n WHERE (n.valid_from <= 4 AND (n.valid_to IS NULL OR n.valid_to > 4)) AND n.kind = 'verifier_outcome' AND n.status IN ('failed', 'error') AND n.authority IN ('agent')
      ), src AS (
        SELECT v.nid AS vnid, s.path, s.revision, s.tx FROM v
          JOIN edges ed ON ed.src = v.nid AND ed.valid_from <= 4
          JOIN nodes s ON s.nid = ed.dst AND s.path IS NOT NULL AND s.valid_from <= 4 AND s.authority IN ('agent')
        UNION
        SELECT v.nid AS vnid, s.path, s.revision, s.tx FROM v
          JOIN edges ed ON ed.dst = v.nid AND ed.valid_from <= 4
          JOIN nodes s ON s.nid = ed.src AND s.path IS NOT NULL AND s.valid_from <= 4 AND s.authority IN ('agent')
      )
      SELECT v.id, v.verifier, v.status, v.tx, v.valid_from, src.path,
        arg_max(src.revision, src.tx) AS checked_revision, r.id AS newer_id, r.revision AS newer_revision
      FROM v JOIN src ON src.vnid = v.nid
      JOIN nodes r ON r.kind = 'artifact_revision' AND r.path = src.path AND (r.valid_from <= 4 AND (r.valid_to IS NULL OR r.valid_to > 4)) AND r.tx > v.tx AND r.authority IN ('agent')
      GROUP BY v.id, v.verifier, v.status, v.tx, v.valid_from, src.path, r.id, r.revision
      ORDER BY v.id, src.path, r.id",
      ]
    `);
  });

  it('superseded views: what ended by the epoch, with the closure that ended it', async () => {
    expect((await run(supersededAsOfSql(2))).map((r) => [r.id, r.closed_epoch, r.closed_reason, r.closed_by])).toEqual([
      ['rev:a1', 2, 'newer-revision', 'rev:a2'],
      ['ev:a1:1-10', 2, 'stale-evidence', 'rev:a2'],
    ]);
    expect(await run(supersededAsOfSql(1))).toEqual([]);
  });

  it('view edges: valid at the epoch, in recording order', async () => {
    expect((await run(viewEdgesSql(1))).map((r) => [r.from_id, r.kind, r.to_id])).toEqual([
      ['task:can', 'requires', 'claim:speed'],
      ['task:can', 'requires', 'claim:reply'],
      ['claim:speed', 'supported_by', 'ev:a1:1-10'],
      ['claim:reply', 'supported_by', 'ev:doc'],
      ['claim:web', 'supported_by', 'ev:doc'],
      ['claim:web', 'contradicts', 'claim:speed'],
    ]);
  });

  it('rerun candidates: a failed outcome whose source got a newer revision after it ran', async () => {
    expect(await run(rerunCandidatesSql(3, null))).toEqual([]);
    expect((await run(rerunCandidatesSql(4, null))).map((r) => [r.id, r.path, r.checked_revision, r.newer_id])).toEqual(
      [['ver:1', 'src/can.c', 'a2', 'rev:a3']],
    );
    expect(await run(rerunCandidatesSql(4, ['tool:web']))).toEqual([]);
  });
});
