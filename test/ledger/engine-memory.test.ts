import { describe, expect, it } from 'vitest';
import { codeOf, openLedger } from '../helpers/ledgers.js';

describe('engineMemory', () => {
  it("reports DuckDB's wasm memory, its accounting and its limit; refused once closed", async () => {
    const ledger = await openLedger();
    await ledger.commit({ epoch: 1, nodes: [{ id: 'a', kind: 'message', body: 'x'.repeat(1000) }] });
    const memory = await ledger.engineMemory();
    expect(memory).not.toBeNull();
    expect(memory!.wasmBytes).toBeGreaterThan(1 << 20);
    expect(memory!.duckdbBytes).toBeGreaterThanOrEqual(0);
    expect(memory!.memoryLimit).toMatch(/\d/);
    await ledger.close();
    expect(await codeOf(() => ledger.engineMemory())).toBe('LEDGER_CLOSED');
  });

  it('keeps its memory limit and its answers across the sweeps that reclaim memory after queries', async () => {
    const ledger = await openLedger();
    await ledger.commit({
      epoch: 1,
      nodes: [
        { id: 'task', kind: 'task', status: 'open', body: 'Fix the parser' },
        { id: 'claim', kind: 'claim', status: 'open', body: 'The CRC covers the wrong bytes' },
      ],
      edges: [{ from: 'task', to: 'claim', kind: 'requires' }],
    });
    const limit = (await ledger.engineMemory())!.memoryLimit;
    const first = await ledger.materialize({ budget: { tokens: 2000 }, mode: 'fresh' });
    // Enough queries for several sweeps (one after every few queries).
    for (let epoch = 2; epoch <= 12; epoch++) {
      await ledger.commit({ epoch, nodes: [{ id: `m${epoch}`, kind: 'message', body: `step ${epoch}` }] });
      await ledger.materialize({ budget: { tokens: 2000 } });
      await ledger.asOf({ epoch });
    }
    expect((await ledger.engineMemory())!.memoryLimit).toBe(limit);
    const again = await ledger.materialize({ budget: { tokens: 2000 }, mode: 'fresh', epoch: 1 });
    expect(again.items.map((i) => i.id)).toEqual(first.items.map((i) => i.id));
    expect(again.tokens).toBe(first.tokens);
    await ledger.close();
  });
});
