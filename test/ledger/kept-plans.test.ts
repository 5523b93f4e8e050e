import type { Table } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { DEFAULT_KEPT_PLANS, KeptPlans } from '../../src/engine/kept-plans.js';
import { openNodeEngine } from '../../src/engine/open-node.js';
import { rowsOf } from '../../src/engine/rows.js';
import { queryPrepared } from '../../src/sql/prepared.js';
import { codeOf, engineOf, openLedger } from '../helpers/ledgers.js';

describe('KeptPlans', () => {
  it('evicts the least recently used unpinned plan past the cap, and only those', () => {
    const plans = new KeptPlans(2);
    const evicted: string[] = [];
    const use = (owner: object, name: string) => {
      const p = plans.acquire(owner, name, () => evicted.push(name));
      p.text = name;
      return p;
    };
    const a = {};
    const b = {};
    plans.release(use(a, 'x'));
    plans.release(use(b, 'y'));
    plans.release(use(a, 'x')); // x is now the most recent
    plans.release(use(b, 'z'));
    expect(evicted).toEqual(['y']);
    expect([plans.has(a, 'x'), plans.has(b, 'y'), plans.has(b, 'z')]).toEqual([true, false, true]);
    // A pinned plan stays past the cap; it is trimmed once released.
    const pinned = use(a, 'x');
    plans.setLimit(0);
    expect(evicted).toEqual(['y', 'z']);
    expect(plans.size).toBe(1);
    plans.release(pinned);
    expect(evicted).toEqual(['y', 'z', 'x']);
    expect(plans.size).toBe(0);
  });

  it('drops an entry whose PREPARE failed, and forgets a closed owner without evicting', () => {
    const plans = new KeptPlans(4);
    const evicted: string[] = [];
    const owner = {};
    plans.release(plans.acquire(owner, 'never', () => evicted.push('never')));
    expect(plans.size).toBe(0);
    const p = plans.acquire(owner, 'kept', () => evicted.push('kept'));
    p.text = 'SELECT 1';
    plans.release(p);
    plans.forget(owner);
    expect(plans.size).toBe(0);
    expect(evicted).toEqual([]);
  });
});

const JOIN = 'SELECT count(*)::INTEGER AS n FROM a JOIN b ON a.x = b.y WHERE a.v > $k::INTEGER';
const count = async (t: Promise<Table>) => Number(rowsOf<{ n: number }>(await t)[0]!.n);
const preparedNames = async (e: Engine) =>
  rowsOf<{ name: string }>(await e.query('SELECT name FROM duckdb_prepared_statements() ORDER BY name')).map(
    (r) => r.name,
  );

describe('queryPrepared under the instance-wide cap', () => {
  const engines: Engine[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 3; i++) {
      const e = await openNodeEngine();
      await e.run('CREATE TABLE a (x INTEGER, v INTEGER); CREATE TABLE b (y INTEGER)');
      await e.run(
        `INSERT INTO a SELECT i, i FROM range(10, ${20 + i}) r(i); INSERT INTO b SELECT i FROM range(10, 20) r(i)`,
      );
      engines.push(e);
    }
  });
  afterAll(async () => {
    engines[0]?.plans?.setLimit(DEFAULT_KEPT_PLANS);
    for (const e of engines) await e.close();
  });

  it('shares one cap across the connections of an instance, and re-prepares an evicted plan on its next use', async () => {
    const [e0, e1, e2] = engines as [Engine, Engine, Engine];
    expect(e0.plans).toBeDefined();
    expect(e0.plans).toBe(e1.plans);
    e0.plans!.setLimit(2);
    const run = (e: Engine) => count(queryPrepared(e, 'capped_join', JOIN, { k: '12' }));
    for (const e of [e0, e1]) for (let i = 0; i < 2; i++) expect(await run(e)).toBe(7);
    expect([await preparedNames(e0), await preparedNames(e1)]).toEqual([['capped_join'], ['capped_join']]);
    for (let i = 0; i < 2; i++) expect(await run(e2)).toBe(7);
    // e0's plan was the least recently used: deallocated.
    expect([await preparedNames(e0), await preparedNames(e1), await preparedNames(e2)]).toEqual([
      [],
      ['capped_join'],
      ['capped_join'],
    ]);
    expect(await run(e0)).toBe(7); // prepared again, transparently; e1's goes now
    expect([await preparedNames(e0), await preparedNames(e1), await preparedNames(e2)]).toEqual([
      ['capped_join'],
      [],
      ['capped_join'],
    ]);
  });

  it('never deallocates a plan whose EXECUTE is in flight', async () => {
    const [e0, e1] = engines as [Engine, Engine];
    e0.plans!.setLimit(1);
    let open = (): void => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    // e0's EXECUTE waits at the gate, after its PREPARE: the plan is kept and in use.
    const gated: Engine = {
      ...e0,
      query: async (sql) => {
        if (sql.startsWith('EXECUTE')) await gate;
        return e0.query(sql);
      },
    };
    const run = (e: Engine) => count(queryPrepared(e, 'inflight_join', JOIN, { k: '11' }));
    expect(await run(gated)).toBe(8); // as text
    const inFlight = run(gated);
    await new Promise((r) => setTimeout(r, 10));
    expect(await preparedNames(e0)).toContain('inflight_join');
    // e1 prepares past the cap of 1 while e0's plan is pinned: e0's stays, e1's goes once done.
    for (let i = 0; i < 2; i++) expect(await run(e1)).toBe(8);
    expect(await preparedNames(e0)).toContain('inflight_join');
    expect(await preparedNames(e1)).not.toContain('inflight_join');
    open();
    expect(await inFlight).toBe(8);
    expect(await preparedNames(e0)).toContain('inflight_join');
  });
});

describe('openLedger({ keptPlans })', () => {
  it('refuses a value that is not a whole number ≥ 0', async () => {
    for (const keptPlans of [-1, 1.5, Number.NaN, '2' as unknown as number]) {
      expect(await codeOf(() => openLedger({ keptPlans }))).toBe('INVALID_OPTION');
    }
  });

  it('materializes the same working sets when ledgers take turns over one kept plan', async () => {
    const capped = [await openLedger({ keptPlans: 1 }), await openLedger()];
    try {
      const ws: string[][] = [[], []];
      for (let step = 0; step < 4; step++) {
        for (let k = 0; k < 2; k++) {
          const ledger = capped[k]!;
          await ledger.commit({
            epoch: step,
            nodes: [
              { id: `t${step}`, kind: 'task', status: 'open', body: `task ${step}: fix the parser` },
              { id: `c${step}`, kind: 'claim', status: 'open', body: `claim ${step}: byte 4 holds the speed` },
            ],
            edges: [{ from: `t${step}`, to: `c${step}`, kind: 'requires' }],
          });
          ws[k]!.push(JSON.stringify(await ledger.materialize({ budget: { tokens: 2000 } })));
        }
      }
      expect(ws[0]).toEqual(ws[1]);
      const kept =
        (await preparedNames(engineOf(capped[0]!))).length + (await preparedNames(engineOf(capped[1]!))).length;
      expect(kept).toBeLessThanOrEqual(1);
    } finally {
      for (const l of capped) await l.close();
    }
  });
});
