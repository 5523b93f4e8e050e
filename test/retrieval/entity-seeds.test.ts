import { afterAll, describe, expect, it } from 'vitest';
import { LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());

const passage = (id: string, title: string, text: string) => ({
  id,
  kind: 'evidence' as const,
  path: `wiki/${title}`,
  authority: 'wiki',
  body: `${title}\n${text}`,
});

describe('entity-seeded graph walk (HippoRAG-style)', () => {
  it('restarts at the records about the entity the question names, not at lexical near-misses', async () => {
    const l = await pool.ledger();
    await l.commit({
      epoch: 1,
      nodes: [
        passage('P1', 'Bubye River', 'The Bubye River is a river in southern Africa.'),
        passage('P2', 'Zimbabwe', 'Zimbabwe is home to Victoria Falls.'),
        passage('P3', 'Tat Sae Waterfalls', 'Tat Sae is a waterfall in the country of Laos, the name means cascade.'),
        passage('P4', 'Laos', 'Laos is a landlocked state in Southeast Asia.'),
        passage('P5', 'Mekong', 'The Mekong flows through Laos and Cambodia.'),
      ],
      edges: [
        { from: 'P1', to: 'P2', kind: 'cites' },
        { from: 'P3', to: 'P4', kind: 'cites' },
        { from: 'P4', to: 'P5', kind: 'cites' },
      ],
    });
    const text = 'What is the name of the waterfall in the country where the Bubye River is found?';
    const r = await l.retrieve({ text, budget: { records: 5 } });
    const graph = new Map(r.explanation.map((e) => [e.id, e.ranks.graph ?? null]));
    // The bridge passage the entity's record cites is reached by the walk ...
    expect(graph.get('P2')).not.toBeNull();
    // ... and the near-miss's neighbourhood (the waterfall passage's country, two hops on) is not.
    expect(graph.get('P4') ?? null).toBeNull();
    expect(graph.get('P5') ?? null).toBeNull();
    // Without a named entity the walk starts at the lexical candidates.
    const plain = await l.retrieve({ text: 'which waterfall name means cascade', budget: { records: 5 } });
    expect(plain.explanation.find((e) => e.id === 'P4')?.ranks.graph).toBeDefined();
  });
});
