import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { fromMiniSweAgent, fromSweAgent } from '../../src/adapters/index.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { heldRankingMemory, rankingMemory } from '../../src/working-set/ranking-memory.js';
import { engineOf, LedgerPool } from '../helpers/ledgers.js';

/**
 * The ranking's memory of body terms and query texts belongs to one ledger: two ledgers in one
 * process never see (or evict) each other's entries, and a closed ledger's go with it.
 */
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/transcripts/${name}`, import.meta.url), 'utf8'));

const pool = new LedgerPool();
afterAll(() => pool.close());

async function bodyHashes(ledger: Ledger): Promise<Set<string>> {
  const rows = (await engineOf(ledger).query('SELECT hash FROM bodies')).toArray();
  return new Set(rows.map((r) => String(r.hash)));
}

describe('ranking memory per ledger', () => {
  it('keeps each ledger its own entries and drops them when the ledger closes', async () => {
    const a = await pool.ledger(0);
    for (const tx of fromMiniSweAgent(fixture('mini-swe-agent.traj.json')).transactions) await a.commit(tx);
    const b = await pool.ledger(1);
    for (const tx of fromSweAgent(fixture('swe-agent.traj')).transactions) await b.commit(tx);

    await a.materialize({ mode: 'fresh', budget: { tokens: 4000 } });
    expect(heldRankingMemory(a)).toBeDefined();
    expect(heldRankingMemory(b)).toBeUndefined();
    await b.materialize({ mode: 'fresh', budget: { tokens: 4000 } });
    const memoryA = heldRankingMemory(a)!;
    const memoryB = heldRankingMemory(b)!;
    expect(memoryB).toBeDefined();
    expect(memoryB).not.toBe(memoryA);

    const hashesA = await bodyHashes(a);
    const hashesB = await bodyHashes(b);
    const onlyA = [...hashesA].filter((h) => !hashesB.has(h));
    const onlyB = [...hashesB].filter((h) => !hashesA.has(h));
    // Each ledger's ranking scored some of its own bodies, and none of the other's.
    expect(onlyA.some((h) => memoryA.bodyTerms.holds(h))).toBe(true);
    expect(onlyB.some((h) => memoryB.bodyTerms.holds(h))).toBe(true);
    expect(onlyB.filter((h) => memoryA.bodyTerms.holds(h))).toEqual([]);
    expect(onlyA.filter((h) => memoryB.bodyTerms.holds(h))).toEqual([]);

    await a.close();
    expect(heldRankingMemory(a)).toBeUndefined();
    expect(heldRankingMemory(b)).toBe(memoryB);
    await b.close();
    expect(heldRankingMemory(b)).toBeUndefined();
  });

  it('without an owner, hands out a memory nobody keeps', () => {
    expect(rankingMemory(undefined)).not.toBe(rankingMemory(undefined));
  });
});
