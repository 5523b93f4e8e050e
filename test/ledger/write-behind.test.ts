import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { type Ledger, ledgerCore } from '../../src/ledger/ledger.js';
import type { Transaction } from '../../src/schema/types.js';
import { tableRowsSql } from '../../src/sql/snapshot-sql.js';
import { arbitraryScript, toTransactions } from '../helpers/arbitrary-ledger.js';
import { bytesEqual, engineOf, LedgerPool } from '../helpers/ledgers.js';

/**
 * Step-sized commits wait for the engine's next read (src/ledger/commit/write-behind.ts). What a
 * reader sees must not depend on when the waiting commits were written.
 */
const pool = new LedgerPool();
afterAll(() => pool.close());

/** The statements and inserts that reach the engine. */
function recording(engine: Engine, calls: string[]): Engine {
  const logged = <T>(call: string, then: () => Promise<T>): Promise<T> => {
    calls.push(call);
    return then();
  };
  return {
    ...engine,
    query: (sql) => logged(`query ${sql}`, () => engine.query(sql)),
    run: (sql) => logged(`run ${sql}`, () => engine.run(sql)),
    insertIPC: (table, ipc) => logged(`insert ${table}`, () => engine.insertIPC(table, ipc)),
  };
}

const message = (epoch: number, id: string, body = `step ${epoch}`): Transaction => ({
  epoch,
  nodes: [{ id, kind: 'message', role: 'tool', body }],
});

/** The transaction number a commit got, or the code it was refused with. */
const txOrCode = (ledger: Ledger, tx: Transaction): Promise<number | string> =>
  ledger.commit(tx).then(
    (r) => r.tx,
    (e: { code: string }) => e.code,
  );

describe('write-behind', () => {
  it('gives byte-identical tables whether each commit is written at once or many are written together', async () => {
    let multi = 0;
    await fc.assert(
      fc.asyncProperty(
        arbitraryScript,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
        async (script, reads) => {
          const eager = await pool.ledger(0);
          const lazy = await pool.ledger(1);
          let waiting = 0;
          const txs = toTransactions(script);
          for (const [t, tx] of txs.entries()) {
            const a = await txOrCode(eager, tx);
            // Every statement first writes what waits: a trivial one writes the eager ledger's commit.
            await engineOf(eager).query('SELECT 1');
            const b = await txOrCode(lazy, tx);
            expect(b).toEqual(a);
            if (typeof b === 'number') waiting++;
            if (reads[t % reads.length]) {
              if (waiting > 1) multi++;
              await engineOf(lazy).query('SELECT 1');
              waiting = 0;
            }
          }
          if (waiting > 1) multi++;
          for (const table of ['bodies', 'nodes', 'edges', 'closures'] as const)
            expect(
              await engineOf(lazy)
                .query(tableRowsSql(table))
                .then((t) => t.toArray().map(String)),
            ).toEqual(
              await engineOf(eager)
                .query(tableRowsSql(table))
                .then((t) => t.toArray().map(String)),
            );
          expect(bytesEqual(await lazy.snapshot(), await eager.snapshot())).toBe(true);
        },
      ),
      { numRuns: 60, seed: 3611 },
    );
    // The case that matters: several waiting commits written together.
    expect(multi).toBeGreaterThan(20);
  });

  it('leaves the engine untouched by a step-sized commit and writes all that waits in one transaction before the next statement', async () => {
    const calls: string[] = [];
    const ledger = await pool.open(2, {}, (e) => recording(e, calls));
    calls.length = 0;
    await ledger.commit(message(1, 'a'));
    await ledger.commit(message(2, 'b'));
    // The status change closes the claim's first version, itself a waiting commit's row.
    await ledger.commit({ epoch: 3, nodes: [{ id: 'c', kind: 'claim', status: 'open', body: 'claim' }] });
    await ledger.commit({ epoch: 4, transitions: [{ id: 'c', status: 'resolved' }] });
    expect(calls).toEqual([]);
    await ledger.rerunCandidates();
    expect(calls[0]).toMatch(/^run BEGIN TRANSACTION/);
    const commits = calls.filter((c) => /\bCOMMIT$/.test(c));
    expect(commits).toHaveLength(1);
    const commitAt = calls.findIndex((c) => /\bCOMMIT$/.test(c));
    // The closure of the claim's first version comes after every insert, in the last batch.
    expect(calls[commitAt]).toMatch(/UPDATE nodes SET valid_to = 4/);
    expect(calls.slice(commitAt + 1).every((c) => c.startsWith('query '))).toBe(true);
    const nodes = await engineOf(ledger).query(tableRowsSql('nodes'));
    expect(
      nodes
        .toArray()
        .map((r) => [r.id, r.valid_to])
        .sort(),
    ).toEqual([
      ['a', null],
      ['b', null],
      ['c', null],
      ['c', 4],
    ]);
  });

  it('writes a bulk commit at once, after what waits', async () => {
    const calls: string[] = [];
    const ledger = await pool.open(3, {}, (e) => recording(e, calls));
    await ledger.commit(message(1, 'a'));
    calls.length = 0;
    const nodes = Array.from({ length: 300 }, (_, k) => ({ id: `n${k}`, kind: 'message' as const, body: `row ${k}` }));
    await ledger.commit({ epoch: 2, nodes });
    expect(calls.filter((c) => /\bCOMMIT$/.test(c))).toHaveLength(2);
    const count = await engineOf(ledger).query('SELECT count(*)::INTEGER AS n FROM nodes');
    expect(count.getChild('n')!.get(0)).toBe(301);
  });

  it('writes what waits before a commit joins it once the waiting commits are too many', async () => {
    const calls: string[] = [];
    let raw: Engine | null = null;
    const ledger = await pool.open(4, {}, (e) => {
      raw = e;
      return recording(e, calls);
    });
    calls.length = 0;
    let firstWrite = 0;
    for (let i = 1; i <= 200 && firstWrite === 0; i++) {
      await ledger.commit(message(i, `m${i}`));
      if (calls.length > 0) firstWrite = i;
    }
    expect(firstWrite).toBeGreaterThan(2);
    expect(firstWrite).toBeLessThan(200);
    // Read past the ledger: the commit that found the queue full waits in its place.
    const written = await raw!.query('SELECT count(*)::INTEGER AS n, max(tx)::INTEGER AS tx FROM nodes');
    expect([written.getChild('n')!.get(0), written.getChild('tx')!.get(0)]).toEqual([firstWrite - 1, firstWrite - 1]);
  });

  it('frees a kept plan without writing what waits (a DEALLOCATE is no read)', async () => {
    const calls: string[] = [];
    const ledger = await pool.open(5, {}, (e) => recording(e, calls));
    await ledger.commit({ epoch: 1, nodes: [{ id: 'task', kind: 'task', status: 'open', body: 'fix the parser' }] });
    // The working-set statement of the last epoch is one text; the second time in a row it is
    // prepared and kept (src/sql/prepared.ts).
    for (let k = 2; k < 5; k++) {
      await ledger.commit(message(k, `m${k}`));
      await ledger.materialize({ budget: { tokens: 500 }, mode: 'fresh' });
    }
    const plans = engineOf(ledger).plans!;
    expect(plans.size).toBeGreaterThan(0);
    await ledger.commit(message(5, 'waits'));
    calls.length = 0;
    const limit = plans.limit;
    plans.setLimit(0);
    plans.setLimit(limit);
    expect(calls.some((c) => c.startsWith('run DEALLOCATE'))).toBe(true);
    expect(calls.filter((c) => !c.startsWith('run DEALLOCATE'))).toEqual([]);
    expect(ledgerCore(ledger).pending.idle).toBe(false);
  });
});
