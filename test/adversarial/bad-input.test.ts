import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import { LIMITS } from '../../src/schema/limits.js';
import type { Transaction } from '../../src/schema/types.js';
import { expectCoded, hostileString, runOptions } from '../helpers/adversarial.js';
import { arbitraryScript, toTransactions } from '../helpers/arbitrary-ledger.js';
import { bytesEqual, LedgerPool } from '../helpers/ledgers.js';

/**
 * Random ledgers fed corrupted transactions (a field of a valid one replaced by a hostile value,
 * or an arbitrary value as the whole transaction) and random requests to every read. Every call
 * either succeeds or rejects with a coded LedgerError, and the ledger ends byte-identical to a
 * reference that committed only what was accepted.
 */
const RUNS = Number(process.env.ADVERSARIAL_BAD_INPUT_RUNS ?? 200);
const pool = new LedgerPool();
afterAll(() => pool.close());

const throwing = (): unknown =>
  Object.defineProperty({}, 'id', {
    enumerable: true,
    get() {
      throw new TypeError('getter says no');
    },
  });
const proxy = (): unknown =>
  new Proxy(
    {},
    {
      ownKeys() {
        throw new Error('proxy says no');
      },
      getPrototypeOf() {
        throw new Error('proxy says no');
      },
    },
  );

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.anything({
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withSparseArray: true,
      withTypedArray: true,
      withBoxedValues: true,
      maxDepth: 3,
    }),
  },
  { weight: 3, arbitrary: hostileString(20) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -0,
      -1,
      0.5,
      2 ** 53,
      LIMITS.maxLine + 1,
      '',
      'x'.repeat(LIMITS.maxIdChars + 1),
      [1],
      [2, 1],
      [0, 0],
      [1, 2, 3],
      'nope',
      Symbol('s'),
      () => 1,
    ),
  },
  { weight: 1, arbitrary: fc.constant(null).map(throwing) },
  { weight: 1, arbitrary: fc.constant(null).map(proxy) },
);

const FIELDS = {
  tx: ['epoch', 'nodes', 'edges', 'transitions', 'extra', '__proto__'],
  node: [
    'id',
    'kind',
    'status',
    'authority',
    'body',
    'path',
    'revision',
    'range',
    'changed',
    'verifier',
    'tool',
    'role',
    'meta',
    'constructor',
    'toString',
  ],
  edge: ['from', 'to', 'kind', 'weight'],
  transition: ['id', 'status', 'epoch'],
} as const;

const corruption = fc.record({
  where: fc.constantFrom('tx', 'node', 'edge', 'transition', 'whole'),
  field: fc.nat(),
  index: fc.nat(),
  value: hostileValue,
});
type Corruption = typeof corruption extends fc.Arbitrary<infer T> ? T : never;

function corrupt(base: Transaction, c: Corruption): unknown {
  if (c.where === 'whole') return c.value;
  const tx = structuredClone(base) as unknown as Record<string, unknown> & {
    nodes?: Array<Record<string, unknown>>;
    edges?: Array<Record<string, unknown>>;
    transitions?: Array<Record<string, unknown>>;
  };
  const names = FIELDS[c.where];
  const field = names[c.field % names.length]!;
  const target =
    c.where === 'tx'
      ? tx
      : c.where === 'node'
        ? tx.nodes![c.index % tx.nodes!.length]!
        : c.where === 'edge'
          ? (tx.edges![c.index % (tx.edges!.length || 1)] ?? tx)
          : tx.transitions![0]!;
  Object.defineProperty(target, field, { value: c.value, enumerable: true, writable: true, configurable: true });
  return tx;
}

/** A transaction that would commit: fresh ids, the current epoch, edges among its own nodes. */
function freshBase(script: Parameters<typeof toTransactions>[0], i: number, epoch: number): Transaction {
  const tx = toTransactions(script, `c${i}.`)[i % script.length]!;
  const own = new Set((tx.nodes ?? []).map((n) => n.id));
  return {
    epoch,
    nodes: [...(tx.nodes ?? []), { id: `c${i}.m`, kind: 'message', body: 'hello' }],
    edges: (tx.edges ?? []).filter((e) => own.has(e.from) && own.has(e.to)),
    transitions: [{ id: `c${i}.m`, status: 'open' }],
  };
}

const request = fc.record({ budget: hostileValue, epoch: hostileValue, text: hostileValue, any: hostileValue });

async function readsNeverUncoded(ledger: Ledger, r: typeof request extends fc.Arbitrary<infer T> ? T : never) {
  const calls: Array<() => Promise<unknown>> = [
    () => ledger.asOf({ epoch: r.epoch as number }),
    () => ledger.materialize(r.any as never),
    () => ledger.materialize({ budget: r.budget as never, authority: r.text as never }),
    () => ledger.materialize({ budget: { tokens: 100 }, roots: [r.text as string], epoch: r.epoch as number }),
    () => ledger.retrieve(r.any as never),
    () => ledger.retrieve({ text: r.text as string, epoch: r.epoch as number, budget: r.budget as never }),
    () => ledger.retrieve({ claims: r.any as never, artifacts: r.budget as never }),
    () => ledger.asOf(r.any as never),
    () => ledger.asOf({ epoch: r.epoch as number, authority: r.text as never }),
    () => ledger.archive({ tx: r.epoch as number, epoch: r.any as never }),
    () => ledger.archive(r.any as never),
    () => ledger.rerunCandidates({ epoch: r.epoch as number, authority: r.any as never }),
    () => ledger.rerunCandidates(r.any as never),
  ];
  for (const call of calls) await call().catch(expectCoded);
}

it(`${RUNS} random ledgers: corrupted transactions and requests are coded and change nothing`, async () => {
  const counts = {
    ledgers: 0,
    badInputs: 0,
    rejected: 0,
    accepted: 0,
    requests: 0,
    codes: {} as Record<string, number>,
  };
  await fc.assert(
    fc.asyncProperty(
      arbitraryScript,
      fc.array(corruption, { minLength: 4, maxLength: 12 }),
      fc.array(request, { minLength: 1, maxLength: 2 }),
      async (script, corruptions, requests) => {
        const txs = toTransactions(script);
        const ledger = await pool.ledger(0);
        counts.ledgers++;
        const reference = await pool.ledger(1);
        for (const [i, c] of corruptions.entries()) {
          // The main chain grows between corruptions, so they meet a non-empty ledger.
          if (i < txs.length) {
            const valid = await ledger.commit(txs[i]!).then(
              () => true,
              (e: unknown) => {
                expectCoded(e);
                return false;
              },
            );
            if (valid) await reference.commit(txs[i]!);
          }
          counts.badInputs++;
          let input: unknown;
          try {
            input = corrupt(freshBase(script, i, ledger.lastEpoch), c);
          } catch {
            input = c.value; // a value structuredClone refuses: try it whole
          }
          const outcome = await ledger.commit(input as Transaction).then(
            () => 'accepted',
            (e: unknown) => expectCoded(e),
          );
          if (outcome === 'accepted') {
            counts.accepted++;
            await reference.commit(input as Transaction);
          } else {
            counts.rejected++;
            counts.codes[outcome] = (counts.codes[outcome] ?? 0) + 1;
          }
        }
        for (const r of requests) {
          counts.requests += 9;
          await readsNeverUncoded(ledger, r);
        }
        expect(bytesEqual(await ledger.snapshot(), await reference.snapshot())).toBe(true);
      },
    ),
    runOptions(RUNS, 'bad input'),
  );
  console.log(`[adversarial] bad input: ${JSON.stringify(counts)}`);
  expect(counts.ledgers).toBeGreaterThanOrEqual(RUNS);
  expect(counts.rejected).toBeGreaterThan(counts.badInputs / 2);
}, 1_800_000);
