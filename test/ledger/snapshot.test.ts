import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import { arbitraryScript, type Script, toTransactions } from '../helpers/arbitrary-ledger.js';
import { bytesEqual, codeOf, LedgerPool, openLedger } from '../helpers/ledgers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());

async function commitAll(ledger: Ledger, script: Script) {
  let accepted = 0;
  for (const tx of toTransactions(script)) {
    const before = await ledger.snapshot();
    try {
      await ledger.commit(tx);
      accepted++;
    } catch (e) {
      expect((e as { code?: string }).code, String(e)).toMatch(/^[A-Z_]+$/);
      // A rejected transaction leaves the ledger byte-identical.
      expect(bytesEqual(before, await ledger.snapshot())).toBe(true);
    }
  }
  return accepted;
}

describe('snapshots', () => {
  it('round-trip random valid ledgers: every as-of view and the bytes are equal after restore', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(arbitraryScript, async (script) => {
        const original = await pool.ledger(0);
        accepted += await commitAll(original, script);
        const bytes = await original.snapshot();
        const restored = await pool.ledger(1, bytes);
        for (let epoch = 0; epoch <= original.lastEpoch + 1; epoch++) {
          expect(JSON.stringify(await restored.asOf({ epoch }))).toBe(JSON.stringify(await original.asOf({ epoch })));
        }
        expect(bytesEqual(await restored.snapshot(), bytes)).toBe(true);
        expect(restored.lastTx).toBe(original.lastTx);
      }),
      { numRuns: 40, seed: 20261202 },
    );
    // The generator must mostly produce committable transactions, or the property proves little.
    expect(accepted).toBeGreaterThan(100);
  }, 300_000);

  it('a restored ledger keeps validating and superseding like the original', async () => {
    const a = await pool.ledger(0);
    await a.commit({ epoch: 1, nodes: [{ id: 'rev:1', kind: 'artifact_revision', path: 'x.c', revision: 'r1' }] });
    const b = await pool.ledger(1, await a.snapshot());
    expect(await codeOf(() => b.commit({ epoch: 1, nodes: [{ id: 'rev:1', kind: 'message' }] }))).toBe('DUPLICATE_ID');
    expect(await codeOf(() => b.commit({ epoch: 0 }))).toBe('EPOCH_REGRESSION');
    const r = await b.commit({
      epoch: 2,
      nodes: [{ id: 'rev:2', kind: 'artifact_revision', path: 'x.c', revision: 'r2' }],
    });
    expect(r).toMatchObject({ tx: 2, superseded: ['rev:1'] });
  });

  describe('corrupt or truncated bytes fail with SNAPSHOT_CORRUPT, never a partial ledger', async () => {
    const a = await pool.ledger(2);
    await a.commit({
      epoch: 1,
      nodes: [
        { id: 't', kind: 'task', body: 'Fix the CAN driver' },
        { id: 'c', kind: 'claim', body: 'CRC wrong' },
      ],
      edges: [{ from: 't', to: 'c', kind: 'requires' }],
    });
    const good = await a.snapshot();
    const flipped = good.slice();
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    it.each([
      ['empty', new Uint8Array()],
      ['truncated', good.slice(0, good.length - 10)],
      ['half', good.slice(0, good.length >> 1)],
      ['one byte flipped', flipped],
      ['not bytes', 'hello' as unknown as Uint8Array],
      ['random bytes', Uint8Array.from({ length: 500 }, (_, i) => (i * 37) & 0xff)],
    ])('%s', async (_name, bytes) => {
      expect(await codeOf(() => pool.ledger(3, bytes))).toBe('SNAPSHOT_CORRUPT');
    });
    it('through openLedger too, and the good bytes still restore', async () => {
      expect(await codeOf(() => openLedger({ snapshot: good.slice(0, 100) }))).toBe('SNAPSHOT_CORRUPT');
      const ok = await pool.ledger(3, good);
      expect((await ok.asOf({ epoch: 1 })).nodes.map((n) => n.id)).toEqual(['t', 'c']);
    });
  });

  it('refuses to restore into another encoding', async () => {
    const a = await pool.ledger(0);
    const bytes = await a.snapshot();
    expect(await codeOf(() => openLedger({ snapshot: bytes, encoding: 'cl100k_base' }))).toBe(
      'SNAPSHOT_ENCODING_MISMATCH',
    );
  });
});
