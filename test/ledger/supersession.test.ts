import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import { engineOf, LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
let ledger: Ledger;
beforeAll(async () => {
  ledger = await pool.ledger();
});
afterAll(() => pool.close());

const ids = async (epoch: number) => (await ledger.asOf({ epoch })).nodes.map((n) => n.id).sort();

describe('supersession at commit', () => {
  it('a new revision of a path closes the older revision and the evidence cut from it', async () => {
    await ledger.commit({
      epoch: 1,
      nodes: [
        { id: 'rev:a1', kind: 'artifact_revision', path: 'src/can.c', revision: 'a1', body: 'v1' },
        { id: 'ev:a1:1-10', kind: 'evidence', path: 'src/can.c', revision: 'a1', range: [1, 10], body: 'head' },
        { id: 'ev:a1:50-60', kind: 'evidence', path: 'src/can.c', revision: 'a1', range: [50, 60], body: 'crc' },
        { id: 'ev:other', kind: 'evidence', path: 'src/other.c', revision: 'o1', range: [1, 5], body: 'other' },
      ],
    });
    const r = await ledger.commit({
      epoch: 2,
      nodes: [{ id: 'rev:a2', kind: 'artifact_revision', path: 'src/can.c', revision: 'a2', body: 'v2' }],
    });
    expect(r.superseded).toEqual(['rev:a1', 'ev:a1:1-10', 'ev:a1:50-60']);
    expect(await ids(1)).toEqual(['ev:a1:1-10', 'ev:a1:50-60', 'ev:other', 'rev:a1']);
    expect(await ids(2)).toEqual(['ev:other', 'rev:a2']);
    const edges = (await ledger.asOf({ epoch: 1 })).edges;
    expect(edges).toEqual([]);
    // The supersedes edge is recorded, valid from epoch 2 (the old revision is no longer visible then).
    const all = await ledger.asOf({ epoch: 2 });
    expect(all.nodes.find((n) => n.id === 'rev:a2')?.validTo).toBeUndefined();
  });

  it('a revision that names changed ranges closes only the evidence overlapping them', async () => {
    await ledger.commit({
      epoch: 3,
      nodes: [
        { id: 'ev:a2:1-10', kind: 'evidence', path: 'src/can.c', revision: 'a2', range: [1, 10], body: 'head2' },
        { id: 'ev:a2:50-60', kind: 'evidence', path: 'src/can.c', revision: 'a2', range: [50, 60], body: 'crc2' },
      ],
    });
    const r = await ledger.commit({
      epoch: 4,
      nodes: [
        { id: 'rev:a3', kind: 'artifact_revision', path: 'src/can.c', revision: 'a3', changed: [[55, 56]], body: 'v3' },
      ],
    });
    expect(r.superseded).toEqual(['rev:a2', 'ev:a2:50-60']);
    expect(await ids(4)).toContain('ev:a2:1-10');
    expect(await ids(4)).not.toContain('ev:a2:50-60');
  });

  it('a newer outcome of the same verifier closes the older; other verifiers stay', async () => {
    await ledger.commit({
      epoch: 5,
      nodes: [
        {
          id: 'ver:1',
          kind: 'verifier_outcome',
          verifier: 'pytest tests/test_can.py',
          status: 'failed',
          body: '1 failed',
        },
        { id: 'ver:lint', kind: 'verifier_outcome', verifier: 'ruff', status: 'passed' },
      ],
    });
    const r = await ledger.commit({
      epoch: 6,
      nodes: [
        {
          id: 'ver:2',
          kind: 'verifier_outcome',
          verifier: 'pytest tests/test_can.py',
          status: 'passed',
          body: '3 passed',
        },
      ],
    });
    expect(r.superseded).toEqual(['ver:1']);
    const now = await ledger.asOf({ epoch: 6 });
    expect(now.nodes.filter((n) => n.kind === 'verifier_outcome').map((n) => n.id)).toEqual(['ver:lint', 'ver:2']);
    // The supersedes edge is history: recorded, though never visible in an as-of view (its target
    // is closed at the same epoch).
    const rows = await engineOf(ledger).query(
      "SELECT count(*)::INTEGER AS n FROM edges e JOIN nodes s ON s.nid = e.src JOIN nodes d ON d.nid = e.dst WHERE e.kind = 'supersedes' AND s.id = 'ver:2' AND d.id = 'ver:1'",
    );
    expect(rows.getChild('n')?.get(0)).toBe(1);
  });

  it('contradicting claims are linked and reported, both staying valid', async () => {
    const r = await ledger.commit({
      epoch: 7,
      nodes: [
        { id: 'claim:crc-bytes', kind: 'claim', body: 'CRC covers bytes 0..6' },
        { id: 'claim:crc-all', kind: 'claim', body: 'CRC covers all 8 bytes' },
      ],
      edges: [{ from: 'claim:crc-all', to: 'claim:crc-bytes', kind: 'contradicts' }],
    });
    expect(r.contradictions).toEqual([{ from: 'claim:crc-all', to: 'claim:crc-bytes' }]);
    expect(r.superseded).toEqual([]);
    expect(await ids(7)).toEqual(expect.arrayContaining(['claim:crc-all', 'claim:crc-bytes']));
  });

  it('an explicit supersedes edge closes its target', async () => {
    const r = await ledger.commit({
      epoch: 8,
      nodes: [{ id: 'claim:crc-fixed', kind: 'claim', body: 'CRC covers bytes 0..6 and the DLC' }],
      edges: [{ from: 'claim:crc-fixed', to: 'claim:crc-bytes', kind: 'supersedes' }],
    });
    expect(r.superseded).toEqual(['claim:crc-bytes']);
    expect(await ids(8)).not.toContain('claim:crc-bytes');
    expect(await ids(7)).toContain('claim:crc-bytes');
  });

  it('a transition writes a new version; the old one stays visible in the past', async () => {
    await ledger.commit({
      epoch: 9,
      transitions: [{ id: 'claim:crc-all', status: 'resolved' }],
      edges: [{ from: 'claim:crc-fixed', to: 'claim:crc-all', kind: 'depends_on' }],
    });
    const before = (await ledger.asOf({ epoch: 8 })).nodes.find((n) => n.id === 'claim:crc-all');
    const after = (await ledger.asOf({ epoch: 9 })).nodes.find((n) => n.id === 'claim:crc-all');
    expect(before).toMatchObject({ status: 'open', validFrom: 7, validTo: 9 });
    expect(after).toMatchObject({ status: 'resolved', validFrom: 9, body: 'CRC covers all 8 bytes' });
    expect(after?.validTo).toBeUndefined();
    // Edges join on the node, not the version: an edge written with the new version joins it later too.
    for (const epoch of [9, 10]) {
      expect(
        (await ledger.asOf({ epoch })).edges.some((e) => e.to === 'claim:crc-all' && e.kind === 'depends_on'),
      ).toBe(true);
    }
  });

  it('nothing is deleted: every superseded version is still in the ledger at its own epochs', async () => {
    for (const [epoch, id] of [
      [1, 'rev:a1'],
      [5, 'ver:1'],
      [7, 'claim:crc-bytes'],
    ] as const) {
      expect(await ids(epoch)).toContain(id);
    }
  });
});
