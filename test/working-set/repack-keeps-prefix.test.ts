import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { WorkingSet } from '../../src/working-set/working-set.js';
import { arbitrarySession, commitSessionStep, sessionTransactions } from '../helpers/arbitrary-session.js';
import { LedgerPool } from '../helpers/ledgers.js';

/**
 * At a re-pack, a unit the low watermark leaves out stays in place when the items the re-pack
 * keeps right after it weigh at least as much: then those items stay in the cached prefix instead
 * of being written again (src/working-set/repack-prefix.ts). Random sessions (the session-mode
 * property's), a fixed sample; the other guarantees are that property's.
 */
const pool = new LedgerPool();
afterAll(() => pool.close());

/** What the model sees of an item (its tier aside). */
const KEPT_IN_PLACE = 'kept in place at this re-pack';

const shown = (ws: WorkingSet) =>
  ws.items.map((i) => JSON.stringify([i.id, i.kind, i.body, i.ref, i.excerpt, i.status, i.path, i.range, i.unit]));

describe('a re-pack keeps left-out units in place when that keeps more of the prefix cached', () => {
  it('keeps them only inside the cached prefix, outweighed by the kept items after them', async () => {
    let runsSeen = 0;
    const sessions = fc.sample(fc.tuple(arbitrarySession, fc.integer({ min: 150, max: 1500 })), {
      numRuns: 40,
      seed: 5,
    });
    for (const [session, tokens] of sessions) {
      const ledger = await pool.ledger(0);
      let prev: WorkingSet | null = null;
      for (const tx of sessionTransactions(session)) {
        if (!(await commitSessionStep(ledger, tx))) continue;
        const ws = await ledger.materialize({ budget: { tokens } });
        const inPlace = new Set(ws.explanation.filter((r) => r.reason.startsWith(KEPT_IN_PLACE)).map((r) => r.id));
        if (inPlace.size > 0) {
          expect(ws.session?.step).toBe('repack');
          expect(ws.explanation.filter((r) => inPlace.has(r.id)).every((r) => r.code === 'kept-in-prefix')).toBe(true);
          const kept = ws.session!.kept;
          // Shown byte-identical, where the previous request showed them.
          expect(shown(ws).slice(0, kept)).toEqual(shown(prev!).slice(0, kept));
          // From each run kept in place on, the kept items weigh more than the runs.
          for (let k = 0; k < kept; k++) {
            if (!inPlace.has(ws.items[k]!.id) || (k > 0 && inPlace.has(ws.items[k - 1]!.id))) continue;
            let runs = 0;
            let after = 0;
            for (const item of ws.items.slice(k, kept)) {
              if (inPlace.has(item.id)) runs += item.tokens;
              else after += item.tokens;
            }
            expect(after).toBeGreaterThan(runs);
            runsSeen++;
          }
          expect(ws.items.findIndex((item, k) => k >= kept && inPlace.has(item.id))).toBe(-1);
        }
        prev = ws;
      }
      await ledger.close();
    }
    expect(runsSeen).toBeGreaterThan(0);
  });
});
