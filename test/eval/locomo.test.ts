import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  compareTurnIds,
  isoDateOf,
  locomoDocuments,
  locomoTransactions,
  parseLocomo,
  repairEvidenceId,
} from '../../scripts/eval/locomo.js';
import { LedgerPool } from '../helpers/ledgers.js';

const FIXTURE = new URL('../fixtures/retrieval/locomo-mini.json', import.meta.url);
const load = () => parseLocomo(JSON.parse(readFileSync(FIXTURE, 'utf8')));

const pool = new LedgerPool();
afterAll(() => pool.close());

describe('LoCoMo evidence ids', () => {
  it('leaves well-formed ids alone and repairs the malformed upstream shapes', () => {
    expect(repairEvidenceId('D8:6')).toBeNull();
    expect(repairEvidenceId('D8:6; D9:17')).toEqual(['D8:6', 'D9:17']);
    expect(repairEvidenceId('D:11:26')).toEqual(['D11:26']);
    expect(repairEvidenceId('D1:03')).toEqual(['D1:3']);
    expect(repairEvidenceId('D')).toEqual([]);
  });

  it('counts repaired, dropped and dangling ids, and keeps only existing turns as gold', () => {
    const { conversations, repairs } = load();
    const qs = conversations[0]!.questions;
    expect(repairs.repaired).toEqual([
      { question: 'conv-mini#2', from: 'D2:1; D3:1', to: ['D2:1', 'D3:1'] },
      { question: 'conv-mini#2', from: 'D:1:3', to: ['D1:3'] },
    ]);
    expect(repairs.dropped).toEqual([{ question: 'conv-mini#3', id: 'D' }]);
    expect(repairs.dangling).toEqual([{ question: 'conv-mini#3', id: 'D9:9' }]);
    expect(qs[2]!.evidence).toEqual(['D1:3', 'D2:1', 'D3:1']);
    expect(qs[3]!.evidence).toEqual(['D2:3']);
    expect(qs[4]!.evidence).toEqual([]);
    expect(qs.map((q) => q.category)).toEqual([4, 2, 1, 4, 3, 5]);
  });

  it('orders turn ids numerically', () => {
    expect(['D2:10', 'D10:1', 'D2:9'].sort(compareTurnIds)).toEqual(['D2:9', 'D2:10', 'D10:1']);
  });
});

describe('LoCoMo sessions', () => {
  it('parses session dates and numbers epochs in date order', () => {
    expect(isoDateOf('1:56 pm on 8 May, 2023')).toBe('2023-05-08');
    expect(isoDateOf('no date')).toBeNull();
    const conv = load().conversations[0]!;
    expect(conv.speakers).toEqual(['Alice', 'Bob']);
    expect(conv.sessions.map((s) => [s.number, s.epoch, s.isoDate])).toEqual([
      [1, 1, '2023-03-03'],
      [2, 2, '2023-03-10'],
      [3, 3, '2023-04-02'],
    ]);
  });

  it("goes through the library's fromConversation adapter: user-scoped turns with speaker and date", () => {
    const conv = load().conversations[0]!;
    const txs = locomoTransactions(conv);
    expect(txs.map((t) => t.epoch)).toEqual([1, 2, 3]);
    const s2 = txs[1]!;
    expect(s2.nodes!.find((n) => n.id === 'D2:3')).toEqual({
      id: 'D2:3',
      kind: 'message',
      role: 'user',
      authority: 'user',
      body: 'Bob: Pepper already chewed my running shoes. [shares a photo: a photo of a small dog next to a chewed shoe]',
      meta: { speaker: 'Bob', session: 2, date: '2023-03-10' },
    });
    // Each turn replies to the one before it in its session; no record the user did not write.
    expect(s2.edges).toEqual([
      { from: 'D2:2', to: 'D2:1', kind: 'depends_on' },
      { from: 'D2:3', to: 'D2:2', kind: 'depends_on' },
    ]);
    expect(s2.nodes).toHaveLength(3);
    const docs = locomoDocuments(conv);
    expect(docs).toHaveLength(8);
    expect(docs[0]).toEqual({ id: 'D1:1', body: 'Alice: Hi Bob! How was your week?' });
  });

  it('commits into a ledger: each turn is valid from its session', async () => {
    const conv = load().conversations[0]!;
    const ledger = await pool.ledger();
    for (const tx of locomoTransactions(conv)) await ledger.commit(tx);
    const now = await ledger.retrieve({ text: 'cello spring recital Lisbon', budget: { records: 3 }, hops: 0 });
    expect(now.evidence[0]!.id).toBe('D3:1');
    const before = await ledger.retrieve({
      epoch: 2,
      text: 'cello spring recital Lisbon',
      budget: { records: 3 },
      hops: 0,
    });
    expect([...before.evidence, ...before.partial].map((e) => e.id)).not.toContain('D3:1');
    expect((await ledger.asOf({ epoch: 3 })).nodes.filter((n) => n.kind === 'message')).toHaveLength(8);
  });
});
