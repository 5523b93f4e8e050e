import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { openNodeEngine } from '../../src/engine/open-node.js';
import { rowsOf } from '../../src/engine/rows.js';
import { closureParams, closureShape, workingSetSql } from '../../src/sql/closure.js';
import { inlineParams, queryPrepared } from '../../src/sql/prepared.js';
import { engineOf, LedgerPool } from '../helpers/ledgers.js';

let engine: Engine;
const pool = new LedgerPool();
beforeAll(async () => {
  engine = await openNodeEngine();
  await engine.run('CREATE TABLE a (x INTEGER, v INTEGER); CREATE TABLE b (y INTEGER)');
  await engine.run('INSERT INTO a SELECT i, i FROM range(10, 20) r(i); INSERT INTO b SELECT i FROM range(10, 20) r(i)');
});
afterAll(async () => {
  await engine.close();
  await pool.close();
});

/** The engine, with every statement it is sent recorded. */
function recording(inner: Engine): { engine: Engine; sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    engine: {
      ...inner,
      query: (sql) => {
        sent.push(sql);
        return inner.query(sql);
      },
      run: (sql) => {
        sent.push(sql);
        return inner.run(sql);
      },
    },
  };
}

const count = async (t: Promise<import('apache-arrow').Table>) => Number(rowsOf<{ n: number }>(await t)[0]!.n);
const JOIN = 'SELECT count(*)::INTEGER AS n FROM a JOIN b ON a.x = b.y WHERE a.v > $k::INTEGER';

describe('queryPrepared', () => {
  it('runs a text as is, prepares it when asked again, then executes it by name', async () => {
    const { engine: e, sent } = recording(engine);
    for (let i = 0; i < 3; i++) expect(await count(queryPrepared(e, 'rec_join', JOIN, { k: '12' }))).toBe(7);
    expect(sent).toEqual([
      'SELECT count(*)::INTEGER AS n FROM a JOIN b ON a.x = b.y WHERE a.v > (12)::INTEGER',
      'PREPARE rec_join AS SELECT count(*)::INTEGER AS n FROM a JOIN b ON a.x = b.y WHERE a.v > (12)::INTEGER',
      'EXECUTE rec_join',
      'EXECUTE rec_join',
    ]);
    // Another value is another text: run as is, never the plan prepared for 12.
    expect(await count(queryPrepared(e, 'rec_join', JOIN, { k: '15' }))).toBe(4);
    expect(sent.at(-1)).toBe('SELECT count(*)::INTEGER AS n FROM a JOIN b ON a.x = b.y WHERE a.v > (15)::INTEGER');
  });

  it('keeps a plan right after inserts outside the ranges it was planned on (no stale statistics)', async () => {
    // With DuckDB's statistics-based optimisers on, this plan kept `x BETWEEN 10 AND 19`-like
    // facts from planning time and answered 10 after the inserts.
    for (let i = 0; i < 2; i++) expect(await count(queryPrepared(engine, 'stale_join', JOIN, { k: '5' }))).toBe(10);
    await engine.run(
      'BEGIN; INSERT INTO a SELECT i, i FROM range(100, 110) r(i); INSERT INTO b SELECT i FROM range(100, 110) r(i);' +
        ' INSERT INTO a VALUES (-7, 1000); INSERT INTO b VALUES (-7); COMMIT',
    );
    expect(await count(queryPrepared(engine, 'stale_join', JOIN, { k: '5' }))).toBe(21);
    expect(await count(engine.query(inlineParams(JOIN, { k: '5' })))).toBe(21);
  });

  it('keeps the working-set plan right as the ledger grows past what it was planned on', async () => {
    const ledger = await pool.ledger();
    await ledger.commit({
      epoch: 0,
      nodes: [
        { id: 'task', kind: 'task', status: 'open', body: 'fix it' },
        { id: 'f1', kind: 'artifact_revision', path: 'a.c', revision: 'r1', body: 'int a;' },
      ],
      edges: [{ from: 'task', to: 'f1', kind: 'depends_on' }],
    });
    const q = { epoch: 0, roots: 'default' as const, authority: null, hops: 6, maxNodes: 128 };
    const statement = async () => {
      const query = { ...q, epoch: ledger.lastEpoch };
      const shape = closureShape(query, ledger.lastEpoch);
      const params = closureParams(shape, query);
      const prepared = rowsOf(await queryPrepared(engineOf(ledger), 'grow_ws', workingSetSql(shape), params));
      const fresh = rowsOf(await engineOf(ledger).query(inlineParams(workingSetSql(shape), params)));
      return { prepared, fresh };
    };
    await statement();
    await statement(); // now prepared
    // New nids, keys, bodies and closures beyond every range the plan saw: each step's revision
    // of a.c closes the one before, an action with a call and its result hangs off the task.
    for (let s = 1; s <= 40; s++) {
      await ledger.commit({
        epoch: s,
        nodes: [
          { id: `act${s}`, kind: 'action', status: s === 40 ? 'open' : 'resolved', body: `step ${s}` },
          { id: `call${s}`, kind: 'tool_call', tool: 'bash', body: `cat a.c # ${s}` },
          { id: `res${s}`, kind: 'tool_result', body: `int a = ${s};` },
          { id: `f${s + 1}`, kind: 'artifact_revision', path: 'a.c', revision: `r${s + 1}`, body: `int a = ${s};` },
        ],
        edges: [
          { from: 'task', to: `act${s}`, kind: 'plans' },
          { from: `act${s}`, to: `call${s}`, kind: 'invokes' },
          { from: `call${s}`, to: `res${s}`, kind: 'produces' },
          { from: `call${s}`, to: `f${s + 1}`, kind: 'mutates' },
          ...(s > 1 ? [{ from: `act${s}`, to: `res${s - 1}`, kind: 'depends_on' as const }] : []),
        ],
      });
    }
    const { prepared, fresh } = await statement();
    expect(prepared.length).toBeGreaterThan(100);
    expect(prepared).toEqual(fresh);
  });
});
