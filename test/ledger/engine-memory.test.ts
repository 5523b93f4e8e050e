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
});
