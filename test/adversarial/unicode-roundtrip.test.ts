import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import type { Transaction } from '../../src/schema/types.js';
import {
  expectCoded,
  hostileLedger,
  hostileTransactions,
  readsOf,
  roundTrips,
  runOptions,
  stringsOf,
} from '../helpers/adversarial.js';
import { bytesEqual, LedgerPool } from '../helpers/ledgers.js';
import { MemoryStorage } from '../helpers/memory-storage.js';

/**
 * Random ledgers with hostile Unicode in every string field. After every commit: a rejection is
 * coded (INVALID_TEXT exactly when the independent oracle says a string cannot round-trip, unless
 * an earlier check fired) and changes nothing; an acceptance reads back every string exactly; and
 * the ledger restored from a snapshot answers asOf, materialize and retrieve identically. At the
 * end, the ledger reopened from its log equals the live one byte for byte.
 */
const RUNS = Number(process.env.ADVERSARIAL_UNICODE_RUNS ?? 120);
const pool = new LedgerPool();
afterAll(() => pool.close());

const SHAPE_CODES = new Set(['INVALID_TEXT', 'INVALID_ID', 'INVALID_FIELD', 'INVALID_PATH']);

async function probeOf(ledger: Ledger, tx: Transaction) {
  const view = await ledger.asOf({ epoch: ledger.lastEpoch });
  const scopes = [...new Set(view.nodes.map((n) => n.authority))].slice(0, 2);
  const text = (tx.nodes ?? []).map((n) => n.body ?? '').join(' ') || 'a';
  return { tokens: 400, text, scopes };
}

it(`${RUNS} random ledgers: hostile text round-trips or is refused, live equals restored after every commit`, async () => {
  const counts = { ledgers: 0, commits: 0, accepted: 0, invalidText: 0, strings: 0 };
  await fc.assert(
    fc.asyncProperty(hostileLedger, async (generated) => {
      const storage = new MemoryStorage();
      const live = await pool.open(0, { storage });
      counts.ledgers++;
      let snapshot = await live.snapshot();
      let restored = await pool.ledger(1, snapshot);
      for (const tx of hostileTransactions(generated)) {
        counts.commits++;
        const strings = [...stringsOf(tx)];
        counts.strings += strings.length;
        const clean = strings.every(([s, name]) => roundTrips(s, name));
        const outcome = await live.commit(tx).then(
          (receipt) => ({ receipt }),
          (error: unknown) => ({ code: expectCoded(error) }),
        );
        const after = await live.snapshot();
        if ('code' in outcome) {
          if (!clean) expect(SHAPE_CODES.has(outcome.code), outcome.code).toBe(true);
          else expect(outcome.code).not.toBe('INVALID_TEXT');
          if (outcome.code === 'INVALID_TEXT') counts.invalidText++;
          expect(bytesEqual(snapshot, after), 'a rejected commit changed the ledger').toBe(true);
        } else {
          expect(clean, `accepted a string that cannot round-trip: ${JSON.stringify(strings)}`).toBe(true);
          counts.accepted++;
          const view = await live.asOf({ epoch: tx.epoch });
          for (const n of tx.nodes ?? []) {
            const got = view.nodes.find((r) => r.id === n.id && r.tx === outcome.receipt.tx);
            if (!got) continue; // closed by its own commit (a later revision in the same transaction)
            for (const key of ['body', 'authority', 'path', 'revision', 'verifier', 'tool', 'meta'] as const) {
              if (n[key] !== undefined) expect(got[key], `${n.id}.${key}`).toEqual(n[key]);
            }
          }
          // Unchanged bytes after a rejection: the restored ledger from before still stands for it.
          restored = await pool.ledger(1, after);
        }
        snapshot = after;
        const probe = await probeOf(live, tx);
        expect(await readsOf(restored, probe, false)).toBe(await readsOf(live, probe, false));
      }
      const reopened = await pool.open(1, { storage: storage.reopen() });
      const probe = { tokens: 2000, text: 'a b c', scopes: ['agent'] };
      expect(await readsOf(reopened, probe, true)).toBe(await readsOf(live, probe, true));
      expect(bytesEqual(await reopened.snapshot(), await live.snapshot())).toBe(true);
    }),
    runOptions(RUNS, 'unicode round-trip'),
  );
  console.log(`[adversarial] unicode round-trip: ${JSON.stringify(counts)}`);
  expect(counts.ledgers).toBeGreaterThanOrEqual(RUNS);
  // The generator must produce both outcomes in quantity, or the property proves little.
  expect(counts.accepted).toBeGreaterThan(counts.commits / 4);
  expect(counts.invalidText).toBeGreaterThan(counts.commits / 20);
}, 1_800_000);
