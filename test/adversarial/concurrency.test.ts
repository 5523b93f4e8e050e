import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import type { Transaction } from '../../src/schema/types.js';
import { expectCoded, hostileLedger, hostileTransactions, runOptions } from '../helpers/adversarial.js';
import { bytesEqual, LedgerPool } from '../helpers/ledgers.js';
import { MemoryStorage } from '../helpers/memory-storage.js';

/**
 * Commits issued all at once without awaiting, with every transaction object mutated right after
 * its commit() call, must give exactly what awaiting each commit of an untouched copy gives: the
 * same receipts or codes, the same bytes, the same log. Calls racing close(): those made before it
 * settle normally, those after it are LEDGER_CLOSED, and nothing uncoded escapes.
 */
const CONCURRENT_RUNS = Number(process.env.ADVERSARIAL_CONCURRENT_RUNS ?? 350);
const CLOSE_RUNS = Number(process.env.ADVERSARIAL_CLOSE_RUNS ?? 120);
const pool = new LedgerPool();
afterAll(() => pool.close());

type Outcome = { receipt: unknown } | { code: string };
const settle = (p: Promise<unknown>): Promise<Outcome> =>
  p.then(
    (receipt) => ({ receipt }),
    (e: unknown) => ({ code: expectCoded(e) }),
  );

/** Vandalises a transaction object the way a careless caller might, after handing it over. */
function vandalise(tx: Transaction, how: number): void {
  const t = tx as { epoch: unknown; nodes?: Array<Record<string, unknown>>; edges?: unknown[] };
  switch (how % 6) {
    case 0:
      t.epoch = -1;
      break;
    case 1:
      for (const n of t.nodes ?? []) n.id = `stolen\ud800${String(n.id)}`;
      break;
    case 2:
      for (const n of t.nodes ?? []) n.body = '\ufeffreplaced';
      break;
    case 3:
      t.nodes?.push({ id: 'sneaked', kind: 'claim' });
      break;
    case 4:
      t.edges?.splice(0);
      if (t.nodes?.[0]) t.nodes[0].meta = { deep: { not: 'scalar' } };
      break;
    default:
      t.nodes?.reverse();
      t.edges?.push({ from: 'nowhere', to: 'nothing', kind: 'requires' });
  }
}

it(`${CONCURRENT_RUNS} random ledgers: concurrent commits, objects mutated after commit(), equal the sequential run`, async () => {
  let ledgers = 0;
  let commits = 0;
  await fc.assert(
    fc.asyncProperty(hostileLedger, fc.array(fc.nat(), { minLength: 8, maxLength: 8 }), async (generated, hows) => {
      const txs = hostileTransactions(generated);
      const pristine = structuredClone(txs);
      const storage = new MemoryStorage();
      const live = await pool.open(0, { storage });
      ledgers++;
      commits += txs.length;
      const pending = txs.map((tx, i) => {
        const p = settle(live.commit(tx));
        vandalise(tx, hows[i % hows.length]!);
        return p;
      });
      const outcomes = await Promise.all(pending);
      const reference = await pool.ledger(1);
      const expected: Outcome[] = [];
      for (const tx of pristine) expected.push(await settle(reference.commit(tx)));
      expect(JSON.stringify(outcomes)).toBe(JSON.stringify(expected));
      const bytes = await live.snapshot();
      expect(bytesEqual(bytes, await reference.snapshot())).toBe(true);
      const reopened = await pool.open(1, { storage: storage.reopen() });
      expect(bytesEqual(await reopened.snapshot(), bytes)).toBe(true);
    }),
    runOptions(CONCURRENT_RUNS, 'concurrent commits'),
  );
  console.log(`[adversarial] concurrent commits: ${ledgers} ledgers, ${commits} commits`);
  expect(ledgers).toBeGreaterThanOrEqual(CONCURRENT_RUNS);
}, 1_800_000);

const op = fc.constantFrom('commit', 'asOf', 'materialize', 'retrieve', 'snapshot', 'archive');

it(`${CLOSE_RUNS} random ledgers: calls racing close()`, async () => {
  let ledgers = 0;
  await fc.assert(
    fc.asyncProperty(
      hostileLedger,
      fc.array(op, { minLength: 1, maxLength: 10 }),
      fc.nat(),
      async (generated, ops, at) => {
        const txs = hostileTransactions(generated);
        const ledger = await pool.ledger(0);
        ledgers++;
        const closeAt = at % (ops.length + 1);
        const before: Array<Promise<Outcome>> = [];
        const after: Array<Promise<Outcome>> = [];
        let closing: Promise<Outcome> | null = null;
        ops.forEach((name, i) => {
          if (i === closeAt) closing = settle(ledger.close());
          const call = (): Promise<unknown> => {
            switch (name) {
              case 'commit':
                return ledger.commit(txs[i % txs.length]!);
              case 'asOf':
                return ledger.asOf({ epoch: i });
              case 'materialize':
                return ledger.materialize({ budget: { tokens: 300 } });
              case 'retrieve':
                return ledger.retrieve({ text: 'a b' });
              case 'snapshot':
                return ledger.snapshot();
              default:
                return ledger.archive({ tx: 1 });
            }
          };
          (closing ? after : before).push(settle(call()));
        });
        closing ??= settle(ledger.close());
        for (const o of await Promise.all(before)) if ('code' in o) expect(o.code).not.toBe('LEDGER_CLOSED');
        for (const o of await Promise.all(after)) expect(o).toEqual({ code: 'LEDGER_CLOSED' });
        expect(await closing).toEqual({ receipt: undefined });
        expect(await settle(ledger.asOf({ epoch: 0 }))).toEqual({ code: 'LEDGER_CLOSED' });
      },
    ),
    runOptions(CLOSE_RUNS, 'close races'),
  );
  console.log(`[adversarial] close races: ${ledgers} ledgers`);
  expect(ledgers).toBeGreaterThanOrEqual(CLOSE_RUNS);
}, 1_800_000);
